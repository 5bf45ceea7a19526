import { Type, type Static } from 'typebox';
import { Mode, OneOf } from '../http/shapes.ts';
import { Timestamp } from '../http/shapes.ts';


export const WebhookEndpoint = Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'Where deliveries are POSTed: https:// (test mode also accepts http://localhost, http://127.0.0.1 and http://[::1]).' }),
  events: Type.Array(Type.String(), { description: 'The event types sent to this endpoint.' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
  disabledReason: Type.Optional(Type.String({ description: 'Why the service disabled the endpoint: `gone: …` after a 410 answer, `failing: …` after five days of failed deliveries. Absent when a person disabled it or it is active.' })),
  description: Type.Optional(Type.String()),
  previousSecretExpiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'During a secret roll\'s overlap: when the previous signing secret stops signing `webhook-signature`. Absent otherwise.' })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'WebhookEndpoint' });

export const CreatedWebhookEndpoint = Type.Object({
  ...WebhookEndpoint.properties,
  signingSecret: Type.String({ description: '`whsec_` + base64 of 32 random bytes. Shown only in this response: store it now.' }),
}, { $id: 'CreatedWebhookEndpoint' });

// Bodies are checked by hand in the service (not by a Union/enum schema) so an unknown event type
// is answered with a message naming the bad value instead of a list of schema branches.
const EventList = Type.Array(Type.String(), { description: 'Event types to send, at least one, each once.' });
const Description = Type.String({ maxLength: 500 });

export const CreateEndpointBody = Type.Object({
  url: Type.String({ maxLength: 2048 }),
  events: EventList,
  description: Type.Optional(Description),
}, { additionalProperties: false });

export const UpdateEndpointBody = Type.Object({
  url: Type.Optional(Type.String({ maxLength: 2048 })),
  events: Type.Optional(EventList),
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('disabled')])),
  description: Type.Optional(Description),
}, { additionalProperties: false });

export const TestEventBody = Type.Object({
  eventType: Type.String({ description: 'The event type to send a sample of.' }),
  endpointID: Type.Optional(Type.String({ description: 'Send only to this endpoint (whatever it subscribes to); otherwise to every active endpoint subscribed to the type.' })),
}, { additionalProperties: false });

/** Seven days: the longest two secrets sign side by side. */
export const maxOverlapSeconds = 604_800;

export const RollSecretBody = Type.Object({
  overlapSeconds: Type.Optional(Type.Integer({
    minimum: 0,
    maximum: maxOverlapSeconds,
    description: 'How long the previous secret keeps signing `webhook-signature` beside the new one: 0 (stops now) to 604800 (7 days); default 86400 (24 hours). `X-Service-Signature` uses the new secret at once.',
  })),
}, { additionalProperties: false });

export const RolledSigningSecret = Type.Object({
  signingSecret: Type.String({ description: 'The new secret (`whsec_…`). Shown only in this answer: store it now.' }),
  previousSecretExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the previous secret stops signing; null when it stopped at once (overlap 0).' }),
}, { $id: 'RolledSigningSecret' });

export const RevealedSigningSecret = Type.Object({
  signingSecret: Type.String(),
}, { $id: 'RevealedSigningSecret' });

export const DeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]);

const deliveryFields = {
  id: Type.String(),
  endpointID: Type.String(),
  eventID: Type.String({ description: 'The event sent; also the `webhook-id` header and the body\'s `id`.' }),
  eventType: Type.String(),
  resourceType: Type.Optional(OneOf(['transaction', 'membership', 'payout'], { description: '`transaction`, `membership` or `payout`.' })),
  resourceID: Type.Optional(Type.String()),
  status: OneOf(['pending', 'succeeded', 'failed'], { description: '`pending` (waiting for its first or next attempt), `succeeded` or `failed` (out of attempts, 410 Gone, or its endpoint was disabled or deleted).' }),
  attempts: Type.Number({ description: 'Attempts made so far, resends included.' }),
  responseCode: Type.Optional(Type.Number({ description: 'HTTP status of the latest answer; absent when no receiver ever answered.' })),
  failureReason: Type.Optional(OneOf(['attempts_exhausted', 'endpoint_gone', 'endpoint_disabled', 'endpoint_deleted'], { description: 'For `failed`: `attempts_exhausted`, `endpoint_gone`, `endpoint_disabled` or `endpoint_deleted`.' })),
  mode: Mode,
  createdAt: Timestamp,
  lastAttemptAt: Type.Optional(Timestamp),
  nextAttemptAt: Type.Optional(Type.String({ format: 'date-time', description: 'For `pending`: when the next attempt is due.' })),
  deliveredAt: Type.Optional(Type.String({ format: 'date-time', description: 'When a receiver last answered 2xx.' })),
};

export const WebhookDelivery = Type.Object(deliveryFields, { $id: 'WebhookDelivery' });

export const DeliveryAttempt = Type.Object({
  number: Type.Number(),
  attemptedAt: Timestamp,
  durationMs: Type.Number(),
  responseCode: Type.Optional(Type.Number()),
  error: Type.Optional(Type.String({ description: 'Network error, `timeout: …`, or `refused: …` (the address is not allowed).' })),
  responseBody: Type.Optional(Type.String({ description: 'The first 1 KB of the answer.' })),
}, { $id: 'WebhookDeliveryAttempt' });

export const WebhookDeliveryDetail = Type.Object({
  ...deliveryFields,
  attemptLog: Type.Array(DeliveryAttempt, { description: 'Every attempt, oldest first.' }),
}, { $id: 'WebhookDeliveryDetail' });

export const DeliveryListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100 (default 20).' })),
  cursor: Type.Optional(Type.String({ description: '`nextCursor` of the previous page.' })),
  status: Type.Optional(DeliveryStatus),
  endpointID: Type.Optional(Type.String({ description: 'Only deliveries to this endpoint.' })),
  eventType: Type.Optional(Type.String({ description: 'Only deliveries of events of this type.' })),
  resourceID: Type.Optional(Type.String({ description: 'Only deliveries about this resource: a txref, membership id or payout id (the deliveries\' `resourceID`).' })),
  eventID: Type.Optional(Type.String({ description: 'Only the deliveries of this event (one per endpoint it went to).' })),
});

export type WebhookEndpoint = Static<typeof WebhookEndpoint>;
export type WebhookDelivery = Static<typeof WebhookDelivery>;
export type WebhookDeliveryDetail = Static<typeof WebhookDeliveryDetail>;
