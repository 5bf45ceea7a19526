import type { components, operations } from './generated/openapi.ts';

/**
 * Friendly names for the generated types. Every request and response type below is read from
 * the generated file by operationId, so a change to the server's schemas reaches the SDK by
 * `npm run generate` alone.
 */

type Schemas = components['schemas'];
type OperationId = keyof operations;

/** The `data` of an operation's 2xx answer. */
export type ResponseData<K extends OperationId> = {
  [S in keyof operations[K]['responses']]: S extends 200 | 201 | 202
    ? operations[K]['responses'][S] extends { content: { 'application/json': { data: infer D } } } ? D : never
    : never;
}[keyof operations[K]['responses']];

/** An operation's JSON request body. */
export type RequestBody<K extends OperationId> = operations[K] extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : operations[K] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** An operation's query parameters. */
export type QueryParams<K extends OperationId> = NonNullable<operations[K]['parameters']['query']>;

export type EventType = Schemas['EventType'];
export type Product = Schemas['Product'];
export type ProductSummary = Schemas['ProductSummary'];
export type Tier = Schemas['Tier'];
export type Item = Schemas['Item'];
export type ItemContent = Schemas['ItemContent'];
export type ItemContentParams = RequestBody<'setItemLink'>;
export type CustomerSession = Schemas['CustomerSession'];
export type CustomerSessionParams = RequestBody<'createCustomerSession'>;
export type CheckoutField = Schemas['CheckoutField'];
export type Hub = Schemas['Hub'];
export type HubSummary = Schemas['HubSummary'];
export type TierInput = Schemas['TierInput'];
export type ItemInput = Schemas['ItemInput'];
export type CheckoutFieldInput = Schemas['CheckoutFieldInput'];
export type Membership = Schemas['Membership'];
export type Transaction = Schemas['Transaction'];
export type Refund = Schemas['Refund'];
export type TransactionRefundedData = Schemas['TransactionRefundedData'];
export type PaymentLink = Schemas['PaymentLink'];
export type Brand = Schemas['Brand'];
export type CheckoutLink = Schemas['CheckoutLink'];
export type Coupon = Schemas['Coupon'];
export type CouponWithRedemptions = Schemas['CouponWithRedemptions'];
export type Affiliate = Schemas['Affiliate'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type CreatedWebhookEndpoint = Schemas['CreatedWebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryDetail = Schemas['WebhookDeliveryDetail'];
export type WebhookDeliveryAttempt = Schemas['WebhookDeliveryAttempt'];
export type RolledSigningSecret = Schemas['RolledSigningSecret'];
export type Event = Schemas['Event'];
export type Import = Schemas['Import'];
export type ImportRecord = Schemas['ImportRecord'];
export type ImportRecordOutcome = Schemas['ImportRecordOutcome'];
export type Payout = Schemas['Payout'];
/** GET /payouts/{id}: the payout with its lines (payments, fees, refunds, affiliate commissions). */
export type PayoutDetail = Schemas['PayoutDetail'];
export type PayoutLine = Schemas['PayoutLine'];
export type MetricsSummary = Schemas['MetricsSummary'];
export type CurrencyRevenue = Schemas['CurrencyRevenue'];
export type RevenuePeriod = CurrencyRevenue['today'];
export type FailedRenewal = Schemas['FailedRenewal'];
export type EmailSummary = Schemas['EmailSummary'];
export type Email = Schemas['Email'];
export type EmailSettings = Schemas['EmailSettings'];
export type Subscription = Schemas['Subscription'];
export type MemberEventData = Schemas['MemberEventData'];
export type SubscriptionEventData = Schemas['SubscriptionEventData'];
export type Availability = Schemas['Availability'];
export type ProductAvailability = Schemas['ProductAvailability'];
export type Slot = Schemas['Slot'];
export type Booking = Schemas['Booking'];
/** One person who bought or joined (GET /customers), one per email in a mode. */
export type Customer = Schemas['Customer'];
/** GET /customers/{id}: the customer with memberships, subscriptions, transactions and emails sent. */
export type CustomerDetail = Schemas['CustomerDetail'];
/** One subscription as GET /subscriptions lists it (state, next renewal, MRR, customer). */
export type SubscriptionSummary = Schemas['SubscriptionSummary'];
/** A postal address: `{ line1, line2?, city, region?, postalCode?, country }` (docs/shipping.md). */
export type Address = NonNullable<Schemas['OrderShipping']['address']>;
export type ShippingSettings = Schemas['ShippingSettings'];
export type OrderShipping = Schemas['OrderShipping'];
export type Fulfilment = Schemas['Fulfilment'];

/** A webhook delivery body, discriminated on `type`: `if (event.type === 'transaction.succeeded') event.data.txref`. */
export type WebhookEvent = Schemas['WebhookEvent'];
/** The delivery body of one event type: `WebhookEventOf<'member.joined'>`. */
export type WebhookEventOf<T extends EventType> = Extract<WebhookEvent, { type: T }>;

export type Ping = ResponseData<'ping'>;
export type ListParams = QueryParams<'listProducts'>;
/** A hub's members: page, plus `email` (exact, ignoring case) and `status` filters. */
export type MemberListParams = QueryParams<'listHubMembers'>;
/** A product's customers: page, plus `email` (exact, ignoring case) and `status` (default `active`) filters. */
export type CustomerListParams = QueryParams<'listProductCustomers'>;
/** GET /customers: page, plus `q`, `product`, `hub`, `status` and `consent` filters. */
export type CustomerSearchParams = QueryParams<'listCustomers'>;
/** GET /subscriptions: page, plus `status` (active, past_due, cancelling, ended), `product`, `hub`, `tier` and `customer`. */
export type SubscriptionListParams = QueryParams<'listSubscriptions'>;
/** GET /transactions' page and filters (status, resourceID, createdFrom, createdBefore, q). */
export type TransactionListParams = QueryParams<'listTransactions'>;
export type TransactionTotalsParams = QueryParams<'getTransactionTotals'>;
export type TransactionTotals = Schemas['TransactionTotals'];
export type ProductCreateParams = RequestBody<'createProduct'>;
export type ProductUpdateParams = RequestBody<'updateProduct'>;
export type HubCreateParams = RequestBody<'createHub'>;
export type HubUpdateParams = RequestBody<'updateHub'>;
export type PaymentLinkCreateParams = RequestBody<'createPaymentLink'>;
export type PaymentVerifyParams = RequestBody<'verifyPayment'>;
export type RefundParams = RequestBody<'refundTransaction'>;
export type DisputeCloseParams = RequestBody<'closeTestDispute'>;
/** A fulfilment step: `{ status: 'shipped', carrier, trackingNumber, trackingUrl? }`, `{ status: 'ready_for_pickup' }` or `{ status: 'picked_up' }`. */
export type FulfilmentParams = RequestBody<'setTransactionFulfilment'>;
export type BrandUpdateParams = RequestBody<'updateBrand'>;
export type CheckoutLinkCreateParams = RequestBody<'createCheckoutLink'>;
export type CheckoutLinkUpdateParams = RequestBody<'updateCheckoutLink'>;
/** Checkout links: page, plus `tier` (only links naming that tier). */
export type CheckoutLinkListParams = QueryParams<'listCheckoutLinks'>;
export type CouponCreateParams = RequestBody<'createCoupon'>;
export type CouponUpdateParams = RequestBody<'updateCoupon'>;
/** Coupons: page, plus `status` and `code` filters. */
export type CouponListParams = QueryParams<'listCoupons'>;
export type AffiliateCreateParams = RequestBody<'createAffiliate'>;
export type AffiliateUpdateParams = RequestBody<'updateAffiliate'>;
/** Affiliates: page, plus `status`. */
export type AffiliateListParams = QueryParams<'listAffiliates'>;
export type ImportParams = RequestBody<'importHubMembers'>;
export type ImportQueued = ResponseData<'importHubMembers'>;
/** `records: true` also answers what happened to each record. */
export type ImportGetParams = QueryParams<'getImport'>;
export type WebhookEndpointCreateParams = RequestBody<'createWebhookEndpoint'>;
export type WebhookEndpointUpdateParams = RequestBody<'updateWebhookEndpoint'>;
export type WebhookEndpointDeleted = ResponseData<'deleteWebhookEndpoint'>;
export type WebhookTestParams = RequestBody<'sendTestEvent'>;
export type WebhookTestResult = ResponseData<'sendTestEvent'>;
export type DeliveryListParams = QueryParams<'listWebhookDeliveries'>;
export type WebhookSecretRollParams = RequestBody<'rollWebhookSigningSecret'>;
export type EventListParams = QueryParams<'listEvents'>;
/** The outbox: page, plus `kind`, `status` and `to` filters. */
export type EmailListParams = QueryParams<'listEmails'>;
export type EmailSettingsUpdateParams = RequestBody<'updateEmailSettings'>;
/** Open slots of a bookable product: `from`, `to` and the buyer's `timezone`. */
export type AvailabilityParams = QueryParams<'getProductAvailability'>;
/** Bookings: page, plus `status`, `productID` and `upcoming` filters. */
export type BookingListParams = QueryParams<'listBookings'>;
export type BookingCancelParams = RequestBody<'cancelBooking'>;
export type BookingRescheduleParams = RequestBody<'rescheduleBooking'>;
