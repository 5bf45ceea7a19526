// Compiled with `tsc --noEmit` (strict) by packaging.test.ts against the built package: the
// public types work as the README shows. `@ts-expect-error` lines must stay errors.
import {
  APIError, Client, ConnectionError, NotFoundError, RateLimitError, ServiceError, ValidationError, signTestWebhook, verifyWebhook,
  type ErrorCode, type Page, type ProductSummary, type WebhookEvent, type WebhookEventOf,
} from '@creator-commerce/sdk';

export async function examples(apiKey: string, secret: string, rawBody: string, headers: Headers) {
  const client = new Client({ apiKey, baseUrl: 'https://shop.example.com', maxRetries: 3, timeout: 10_000 });
  new Client({ accessToken: 'oauth-token' });

  const { brandID, mode } = await client.ping();
  const modeIs: 'test' | 'live' = mode;

  for await (const product of client.products.list({ limit: 50 })) {
    const title: string = product.title;
    // @ts-expect-error: the list form has no tiers
    product.tiers;
  }
  const page: Page<ProductSummary> = await client.products.list();
  const more: boolean = page.hasMore;
  const cursor: string = page.nextCursor;
  for await (const p of client.transactions.list().pages()) p.items.map((t) => t.txref);
  const refunded = await client.transactions.refund('tx_…', { amount: 10, reason: 'Bought twice' });
  refunded.refunds.map((r) => r.status);
  const all = await client.hubs.members.list('hub_1').toArray({ max: 1000 });
  all[0]?.membershipId;
  // @ts-expect-error: toArray needs a cap
  await client.products.list().toArray();

  const product = await client.products.get('prod_1', { timeout: 5_000, signal: AbortSignal.timeout(1_000) });
  product.tiers[0]?.price.amount;
  const link = await client.paymentLinks.create({
    items: [{ id: 'prod_1', plan: 'tier_1', type: 'course' }],
    form: { formData: { fullName: 'Ada', email: 'ada@example.com', company: 'Analytical' } },
  }, { idempotencyKey: 'order-42', maxRetries: 0 });
  const url: string = link.link;
  // @ts-expect-error: `form` is required
  await client.paymentLinks.create({ items: [] });
  await client.payments.verify({ txref: 'tx_1' });
  await client.products.customers.import('prod_1', { records: [{ fullName: 'Ada', email: 'ada@example.com', seats: 2 }] });
  const job = await client.imports.get('imp_1');
  const status: 'queued' | 'processing' | 'completed' | 'failed' = job.status;

  const endpoint = await client.webhooks.create({ url: 'https://example.com/hook', events: ['transaction.succeeded'] });
  endpoint.signingSecret;
  // @ts-expect-error: not an event type
  await client.webhooks.create({ url: 'https://example.com/hook', events: ['transaction.exploded'] });
  await client.webhooks.update(endpoint.id, { status: 'disabled' });
  await client.webhooks.deliveries.list({ status: 'failed', eventType: 'member.joined' }).toArray({ max: 10 });
  await client.webhooks.deliveries.resend('whd_1');
  await client.events.list({ type: 'payout.settled' });
  const { deleted } = await client.webhooks.delete(endpoint.id);

  const event: WebhookEvent = await verifyWebhook(rawBody, headers, [secret, 'whsec_old']);
  switch (event.type) {
    case 'transaction.succeeded':
      event.data.txref;
      break;
    case 'member.joined':
      event.data.membershipId;
      // @ts-expect-error: a membership has no txref
      event.data.txref;
      break;
    case 'subscription.renewed':
      event.data.subscription.currentPeriodEnd;
      break;
    case 'payout.settled':
      event.data.fee;
      break;
    case 'transaction.refunded':
      event.data.refund.amount;
      event.data.refundedAmount;
      break;
  }
  const joined: WebhookEventOf<'member.joined'> | undefined = event.type === 'member.joined' ? event : undefined;
  const { body, headers: signedHeaders } = await signTestWebhook(event, secret);
  await client.webhooks.verify(body, signedHeaders, secret);

  try {
    await client.products.get('prod_missing');
  } catch (err) {
    if (err instanceof NotFoundError) err.status;
    if (err instanceof ValidationError) err.details?.map((d) => d.field);
    if (err instanceof RateLimitError) err.retryAfter;
    if (err instanceof ServiceError) {
      const code: ErrorCode = err.code;
      if (code === 'scope_missing') err.message;
      err.requestId;
    }
    if (err instanceof ConnectionError || err instanceof APIError) err.headers;
  }
  return { brandID, modeIs, more, cursor, url, status, deleted, joined };
}
