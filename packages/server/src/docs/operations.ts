/**
 * What the OpenAPI document says about each operation beyond its route schema: the operationId
 * (which the SDK's generated types are keyed by), the SDK method that calls it, and a body worth
 * showing in the curl sample. Kept here rather than in every routes.ts so the docs are one file
 * and route files stay about behaviour. A route missing from this table still gets an
 * operationId derived from its method and path, so adding a route never breaks the document.
 */
export interface OperationDoc {
  id: string;
  /** The SDK call, as the reference page shows it (after `const client = new Client({ apiKey })`). */
  sdk: string;
  /** A request body for the curl sample. */
  body?: unknown;
  /** Statuses this operation may answer beyond 400, 401, 403 and 429. */
  errors?: number[];
}

const withBody = [409, 413, 415];

export const operationDocs: Record<string, OperationDoc> = {
  'get /ping': { id: 'ping', sdk: 'const { brandID, mode, scopes } = await client.ping();' },
  'get /products': { id: 'listProducts', sdk: 'for await (const product of client.products.list({ limit: 50 })) {\n  console.log(product.id, product.title);\n}' },
  'get /products/{id}': { id: 'getProduct', sdk: "const product = await client.products.get('prod_…');", errors: [404] },
  'post /products': {
    id: 'createProduct',
    sdk: "const product = await client.products.create({\n  type: 'course',\n  title: 'Inking basics',\n  items: [{ ref: 'lesson-1', type: 'lesson', title: 'Pens' }],\n  tiers: [{ name: 'Standard', price: { amount: 30, currency: 'USD' }, itemIDs: ['lesson-1'] }],\n  checkoutFields: [{ label: 'Company name', type: 'text' }],\n});",
    body: {
      type: 'course', title: 'Inking basics',
      items: [{ ref: 'lesson-1', type: 'lesson', title: 'Pens' }],
      tiers: [{ name: 'Standard', price: { amount: 30, currency: 'USD' }, itemIDs: ['lesson-1'] }],
      checkoutFields: [{ label: 'Company name', type: 'text' }],
    },
    errors: withBody,
  },
  'patch /products/{id}': {
    id: 'updateProduct',
    sdk: "const product = await client.products.get('prod_…');\nconst updated = await client.products.update(product.id, {\n  title: 'Inking basics, revised',\n  // The whole list: tiers left out are deleted, or archived if they were ever sold.\n  tiers: [{ id: product.tiers[0].id, name: 'Standard', price: { amount: 25, currency: 'USD' } }],\n});",
    body: { title: 'Inking basics, revised', tiers: [{ id: 'tier_…', name: 'Standard', price: { amount: 25, currency: 'USD' } }] },
    errors: [404, ...withBody],
  },
  'get /hubs': { id: 'listHubs', sdk: 'for await (const hub of client.hubs.list()) {\n  console.log(hub.id, hub.name);\n}' },
  'get /hubs/{id}': { id: 'getHub', sdk: "const hub = await client.hubs.get('hub_…');\nconsole.log(hub.tiers.map((tier) => tier.name));", errors: [404] },
  'post /hubs': {
    id: 'createHub',
    sdk: "const hub = await client.hubs.create({\n  name: 'Studio Club',\n  tiers: [\n    { name: 'Free member', price: { amount: 0, currency: 'USD' } },\n    { name: 'Pro member', price: { amount: 12, currency: 'USD' }, recurrence: { periodic: 'monthly' } },\n  ],\n});",
    body: { name: 'Studio Club', tiers: [{ name: 'Free member', price: { amount: 0, currency: 'USD' } }, { name: 'Pro member', price: { amount: 12, currency: 'USD' }, recurrence: { periodic: 'monthly' } }] },
    errors: withBody,
  },
  'patch /hubs/{id}': {
    id: 'updateHub',
    sdk: "const hub = await client.hubs.update('hub_…', { description: 'Painting together, weekly.' });",
    body: { description: 'Painting together, weekly.' },
    errors: [404, ...withBody],
  },
  'put /products/{id}/items/{itemId}/file': {
    id: 'uploadItemFile',
    sdk: "import { openAsBlob } from 'node:fs';\nconst item = await client.products.items.uploadFile('prod_…', 'item_…', await openAsBlob('workbook.pdf', { type: 'application/pdf' }), { filename: 'workbook.pdf' });\nconsole.log(item.content?.version);",
    errors: [404, 413, 415],
  },
  'get /products/{id}/items/{itemId}/file': { id: 'downloadItemFile', sdk: "const bytes = await client.products.items.downloadFile('prod_…', 'item_…');", errors: [404] },
  'put /products/{id}/items/{itemId}/content': {
    id: 'setItemLink',
    sdk: "const item = await client.products.items.setLink('prod_…', 'item_…', { url: 'https://video.example.com/ink-night/recording' });",
    body: { url: 'https://video.example.com/ink-night/recording' },
    errors: [404, ...withBody],
  },
  'delete /products/{id}/items/{itemId}/content': { id: 'removeItemContent', sdk: "const item = await client.products.items.removeContent('prod_…', 'item_…');", errors: [404] },
  'post /customer-sessions': {
    id: 'createCustomerSession',
    sdk: "const session = await client.customerSessions.create({ email: 'ada@example.com', deepLink: 'mem_…', returnUrl: 'https://inkwell.example.com/account' });\n// Send the buyer to session.url (it works once, for 15 minutes).",
    body: { email: 'ada@example.com', returnUrl: 'https://inkwell.example.com/account' },
    errors: [404, ...withBody],
  },
  'post /memberships/{id}/resume': { id: 'resumeMembership', sdk: "const membership = await client.memberships.resume('mem_…');", errors: [404, 409] },
  'get /products/{id}/customers': { id: 'listProductCustomers', sdk: "for await (const customer of client.products.customers.list('prod_…', { status: 'cancelled' })) {\n  console.log(customer.email);\n}", errors: [404] },
  'post /products/{id}/customers/import': {
    id: 'importProductCustomers',
    sdk: "const { importID } = await client.products.customers.import('prod_…', {\n  records: [{ fullName: 'Ada Lovelace', email: 'ada@example.com' }],\n});",
    body: { records: [{ fullName: 'Ada Lovelace', email: 'ada@example.com' }] },
    errors: [404, ...withBody],
  },
  'get /hubs/{hubID}/members': { id: 'listHubMembers', sdk: "const [member] = (await client.hubs.members.list('hub_…', { email: 'ada@example.com' })).items;\nconsole.log(member?.status);", errors: [404] },
  'get /hubs/{hubID}/members/{id}': { id: 'getHubMember', sdk: "const member = await client.hubs.members.get('hub_…', 'mem_…');", errors: [404] },
  'post /hubs/{hubID}/members/import': {
    id: 'importHubMembers',
    sdk: "const { importID } = await client.hubs.members.import('hub_…', {\n  records: [{ fullName: 'Ada Lovelace', email: 'ada@example.com' }],\n});",
    body: { records: [{ fullName: 'Ada Lovelace', email: 'ada@example.com' }] },
    errors: [404, ...withBody],
  },
  'post /payment-links': {
    id: 'createPaymentLink',
    sdk: "const { link } = await client.paymentLinks.create({\n  items: [{ id: 'prod_…', plan: 'tier_…', type: 'course' }],\n  form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com' } },\n});",
    body: { items: [{ id: 'prod_…', plan: 'tier_…', type: 'course' }], form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com' } } },
    errors: [...withBody, 503],
  },
  'post /payments/verify': { id: 'verifyPayment', sdk: "const transaction = await client.payments.verify({ txref: 'tx_…' });", body: { txref: 'tx_…' }, errors: [404, ...withBody, 503] },
  'get /brand': { id: 'getBrand', sdk: "const brand = await client.brand.get();\nconsole.log(brand.storefrontUrl);" },
  'patch /brand': {
    id: 'updateBrand',
    sdk: "const brand = await client.brand.update({ displayName: 'Inkwell Studio', slug: 'inkwell', accentColor: '#6b21a8', timeZone: 'Europe/Lisbon' });",
    body: { displayName: 'Inkwell Studio', slug: 'inkwell', accentColor: '#6b21a8', timeZone: 'Europe/Lisbon' },
    errors: withBody,
  },
  'post /checkout-links': {
    id: 'createCheckoutLink',
    sdk: "const { url } = await client.checkoutLinks.create({\n  items: [{ id: 'prod_…', plan: 'tier_…' }],\n  name: 'Instagram bio',\n  maxSales: 100,\n});",
    body: { items: [{ id: 'prod_…', plan: 'tier_…' }], name: 'Instagram bio', maxSales: 100 },
    errors: withBody,
  },
  'get /checkout-links': { id: 'listCheckoutLinks', sdk: "for await (const link of client.checkoutLinks.list({ tier: 'tier_…' })) {\n  console.log(link.url, link.sales);\n}" },
  'get /checkout-links/{id}': { id: 'getCheckoutLink', sdk: "const link = await client.checkoutLinks.get('clink_…');", errors: [404] },
  'patch /checkout-links/{id}': {
    id: 'updateCheckoutLink',
    sdk: "const link = await client.checkoutLinks.update('clink_…', { status: 'disabled' });",
    body: { status: 'disabled' },
    errors: [404, ...withBody],
  },
  'post /coupons': {
    id: 'createCoupon',
    sdk: "const coupon = await client.coupons.create({\n  code: 'SPRING20',\n  percentOff: 20,\n  endsAt: '2026-06-01T00:00:00Z',\n  maxRedemptions: 100,\n  maxPerCustomer: 1,\n});",
    body: { code: 'SPRING20', percentOff: 20, endsAt: '2026-06-01T00:00:00Z', maxRedemptions: 100, maxPerCustomer: 1 },
    errors: withBody,
  },
  'get /coupons': { id: 'listCoupons', sdk: "for await (const coupon of client.coupons.list({ status: 'active' })) {\n  console.log(coupon.code, coupon.redemptions);\n}" },
  'get /coupons/{id}': { id: 'getCoupon', sdk: "const coupon = await client.coupons.get('cpn_…');\nconsole.log(coupon.revenue, coupon.recentRedemptions);", errors: [404] },
  'patch /coupons/{id}': {
    id: 'updateCoupon',
    sdk: "const coupon = await client.coupons.update('cpn_…', { maxRedemptions: 200 });",
    body: { maxRedemptions: 200 },
    errors: [404, ...withBody],
  },
  'delete /coupons/{id}': { id: 'archiveCoupon', sdk: "const coupon = await client.coupons.archive('cpn_…');", errors: [404, 409] },
  'post /affiliates': {
    id: 'createAffiliate',
    sdk: "const affiliate = await client.affiliates.create({\n  name: 'Rita Inks',\n  email: 'rita@example.com',\n  code: 'RITA10',\n  commissionPercent: 20,\n  recurring: true,\n});",
    body: { name: 'Rita Inks', email: 'rita@example.com', code: 'RITA10', commissionPercent: 20, recurring: true },
    errors: withBody,
  },
  'get /affiliates': { id: 'listAffiliates', sdk: "for await (const affiliate of client.affiliates.list({ status: 'active' })) {\n  console.log(affiliate.code, affiliate.stats);\n}" },
  'get /affiliates/{id}': { id: 'getAffiliate', sdk: "const { stats } = await client.affiliates.get('aff_…');", errors: [404] },
  'patch /affiliates/{id}': {
    id: 'updateAffiliate',
    sdk: "const affiliate = await client.affiliates.update('aff_…', { commissionPercent: 25 });",
    body: { commissionPercent: 25 },
    errors: [404, ...withBody],
  },
  'get /products/{id}/availability': {
    id: 'getProductAvailability',
    sdk: "const { slots } = await client.products.availability('prod_…', { from: '2026-12-01T00:00:00Z', to: '2026-12-08T00:00:00Z', timezone: 'America/New_York' });\nconsole.log(slots.map((slot) => slot.localStart));",
    errors: [404],
  },
  'get /bookings': { id: 'listBookings', sdk: "for await (const booking of client.bookings.list({ status: 'confirmed' })) {\n  console.log(booking.startsAt, booking.customer.email);\n}" },
  'get /bookings/{id}': { id: 'getBooking', sdk: "const booking = await client.bookings.get('bkg_…');", errors: [404] },
  'post /bookings/{id}/cancel': {
    id: 'cancelBooking', sdk: "const booking = await client.bookings.cancel('bkg_…', { reason: 'The coach is ill' });", body: { reason: 'The coach is ill' }, errors: [404, ...withBody],
  },
  'post /bookings/{id}/reschedule': {
    id: 'rescheduleBooking', sdk: "const booking = await client.bookings.reschedule('bkg_…', { startsAt: '2026-12-03T14:00:00.000Z' });",
    body: { startsAt: '2026-12-03T14:00:00.000Z' }, errors: [404, ...withBody],
  },
  'get /transactions': { id: 'listTransactions', sdk: 'const page = await client.transactions.list({ limit: 20 });\nconsole.log(page.items, page.hasMore, page.nextCursor);' },
  'get /transactions/totals': { id: 'getTransactionTotals', sdk: "const { items } = await client.transactions.totals({ status: 'succeeded', createdFrom: '2026-11-01T00:00:00Z' });" },
  'get /transactions/{id}': { id: 'getTransaction', sdk: "const transaction = await client.transactions.get('tx_…');", errors: [404] },
  'post /transactions/{id}/refund': {
    id: 'refundTransaction',
    sdk: "// Partial: 10.00 back, access kept. Leave out amount to refund all that is left (and end the access it bought).\nconst transaction = await client.transactions.refund('tx_…', { amount: 10, reason: 'Bought twice by mistake' });\nconsole.log(transaction.refundedAmount, transaction.refunds);",
    body: { amount: 10, reason: 'Bought twice by mistake' },
    errors: [404, 503, ...withBody],
  },
  'post /transactions/{id}/fulfilment': {
    id: 'setTransactionFulfilment',
    sdk: "const order = await client.transactions.fulfil('tx_…', { status: 'shipped', carrier: 'USPS', trackingNumber: '9400111899223197428490' });\nconsole.log(order.fulfilment?.status);",
    body: { status: 'shipped', carrier: 'USPS', trackingNumber: '9400111899223197428490', trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223197428490' },
    errors: [404, ...withBody],
  },
  'get /transactions/{id}/invoice': { id: 'getTransactionInvoice', sdk: "const pdf = await client.transactions.invoice('tx_…'); // Uint8Array\nawait writeFile('invoice.pdf', pdf);", errors: [404] },
  'get /webhooks': { id: 'listWebhookEndpoints', sdk: 'const endpoints = await client.webhooks.list().toArray({ max: 100 });' },
  'post /webhooks': {
    id: 'createWebhookEndpoint',
    sdk: "const endpoint = await client.webhooks.create({\n  url: 'https://example.com/hooks',\n  events: ['transaction.succeeded'],\n});\n// Store endpoint.signingSecret now: it is shown only once.",
    body: { url: 'https://example.com/hooks', events: ['transaction.succeeded'] },
    errors: withBody,
  },
  'get /webhooks/{id}': { id: 'getWebhookEndpoint', sdk: "const endpoint = await client.webhooks.get('we_…');", errors: [404] },
  'patch /webhooks/{id}': { id: 'updateWebhookEndpoint', sdk: "const endpoint = await client.webhooks.update('we_…', { status: 'disabled' });", body: { status: 'disabled' }, errors: [404, ...withBody] },
  'delete /webhooks/{id}': { id: 'deleteWebhookEndpoint', sdk: "const { deleted } = await client.webhooks.delete('we_…');", errors: [404, 409] },
  'post /webhooks/{id}/secret/roll': {
    id: 'rollWebhookSigningSecret',
    sdk: "const { signingSecret, previousSecretExpiresAt } = await client.webhooks.rollSecret('we_…', { overlapSeconds: 86400 });\n// Store signingSecret now; verify with [signingSecret, oldSecret] until previousSecretExpiresAt.",
    body: { overlapSeconds: 86400 },
    errors: [404, ...withBody],
  },
  'post /webhooks/test': { id: 'sendTestEvent', sdk: "const { created } = await client.webhooks.test({ eventType: 'transaction.succeeded' });", body: { eventType: 'transaction.succeeded' }, errors: [404, ...withBody] },
  'get /webhooks/deliveries': { id: 'listWebhookDeliveries', sdk: "for await (const delivery of client.webhooks.deliveries.list({ status: 'failed', eventType: 'transaction.succeeded' })) {\n  console.log(delivery.id, delivery.eventType);\n}" },
  'get /webhooks/deliveries/{id}': { id: 'getWebhookDelivery', sdk: "const delivery = await client.webhooks.deliveries.get('whd_…');", errors: [404] },
  'post /webhooks/deliveries/{id}/resend': { id: 'resendWebhookDelivery', sdk: "const delivery = await client.webhooks.deliveries.resend('whd_…');", errors: [404, 409] },
  'get /events': { id: 'listEvents', sdk: "for await (const event of client.events.list({ type: 'transaction.succeeded' })) {\n  console.log(event.id, event.created);\n}" },
  'get /events/{id}': { id: 'getEvent', sdk: "const event = await client.events.get('evt_…');", errors: [404] },
  'post /memberships/{id}/cancel': { id: 'cancelMembership', sdk: "const member = await client.memberships.cancel('mem_…', { atPeriodEnd: true });", body: { atPeriodEnd: true }, errors: [404, ...withBody] },
  'delete /hubs/{hubID}/members/{id}': { id: 'removeHubMember', sdk: "const member = await client.hubs.members.remove('hub_…', 'mem_…');", errors: [404, 409] },
  'get /payouts': { id: 'listPayouts', sdk: 'for await (const payout of client.payouts.list()) {\n  console.log(payout.id, payout.amount, payout.currency);\n}' },
  'get /payouts/{id}': { id: 'getPayout', sdk: "const payout = await client.payouts.get('po_…');", errors: [404] },
  'get /metrics/summary': { id: 'getMetricsSummary', sdk: "const summary = await client.metrics.summary();\nfor (const r of summary.revenue) console.log(r.currency, r.last30Days.net);" },
  'get /emails': { id: 'listEmails', sdk: "for await (const email of client.emails.list({ kind: 'receipt' })) {\n  console.log(email.id, email.to, email.status);\n}" },
  'get /emails/{id}': { id: 'getEmail', sdk: "const email = await client.emails.get('msg_…');\nconsole.log(email.text);", errors: [404] },
  'get /email-settings': { id: 'getEmailSettings', sdk: 'const settings = await client.emails.settings();' },
  'patch /email-settings': { id: 'updateEmailSettings', sdk: "const settings = await client.emails.updateSettings({ replyTo: 'help@example.com', buyerEmails: { cancellation: false } });", body: { replyTo: 'help@example.com', buyerEmails: { cancellation: false } }, errors: [...withBody] },
  'get /test-clock': { id: 'getTestClock', sdk: 'const { now } = await client.testClock.get();', errors: [404] },
  'post /test-clock/advance': { id: 'advanceTestClock', sdk: "const { now, jobsRun } = await client.testClock.advance({ by: '31d' });", body: { by: '31d' }, errors: [404, ...withBody] },
  'post /test/payment-links/{id}/pay': { id: 'payTestPaymentLink', sdk: "const txn = await client.testHelpers.payPaymentLink('plink_…', { card: '4242 4242 4242 4242' });", body: { card: '4242 4242 4242 4242' }, errors: [404, ...withBody] },
  'get /imports/{id}': { id: 'getImport', sdk: "const job = await client.imports.get('imp_…');\nconsole.log(job.status, job.created, job.pending);", errors: [404] },
};

/** `get /products/{id}/customers` → `getProductsIdCustomers`, for routes the table does not know yet. */
export function derivedOperationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}
