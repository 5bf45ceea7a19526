export { Client } from './client.ts';
export type { ClientOptions, RequestOptions, SessionOptions } from './request.ts';
export { VERSION } from './request.ts';
export { PagePromise, type Page, type ToArrayOptions } from './pagination.ts';
export {
  ServiceError, AuthenticationError, PermissionError, NotFoundError, ValidationError, ConflictError, RateLimitError, APIError,
  ConnectionError, TimeoutError, type ErrorCode, type ErrorDetail,
} from './errors.ts';
export {
  verifyWebhook, signTestWebhook, WebhookVerificationError, type RawBody, type HeadersLike, type VerifyOptions, type SignedTestWebhook,
} from './webhooks.ts';
export {
  checkoutEventOf, checkoutEventSource, type CheckoutEvent, type CheckoutOpenedEvent, type CheckoutCompletedEvent, type CheckoutClosedEvent, type MessageLike,
} from './embed.ts';
export type * from './types.ts';
export type { components, operations, paths, webhooks } from './generated/openapi.ts';
