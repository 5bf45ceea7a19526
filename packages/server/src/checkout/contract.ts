/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import type { Operation } from '../http/operation.ts';

/** POST /payment-links */
export const createPaymentLink: Operation = {
  id: 'createPaymentLink',
  sdk: 'const { link } = await client.paymentLinks.create({\n' +
    "  items: [{ id: 'prod_…', plan: 'tier_…', type: 'course' }],\n" +
    "  form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com' } },\n" +
    '});',
  body: { items: [{ id: 'prod_…', plan: 'tier_…', type: 'course' }], form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com' } } },
  mcp: {
    name: 'create_payment_link',
    description: "Create a payment link for one buyer: 1 to 20 items, each a tier (plan) of a product or hub of the brand, and the buyer's form (fullName, email, the product's checkout fields); returns the checkout URL to send them. It can be paid once.",
    hiddenInputs: ['utmRef', 'adClickID', 'adType', 'checkoutOtpVerificationSkipped', 'receive_emails']
  }
};

/** POST /payments/verify */
export const verifyPayment: Operation = {
  id: 'verifyPayment',
  sdk: "const transaction = await client.payments.verify({ txref: 'tx_…' });",
  body: { txref: 'tx_…' },
  errors: [404],
  mcp: {
    name: 'verify_payment',
    description: 'Ask the payment provider again whether a transaction (txref) was paid, and record the answer.',
    idempotent: true,
    openWorld: true
  }
};

/** POST /test/payment-links/{id}/pay */
export const payTestPaymentLink: Operation = {
  id: 'payTestPaymentLink',
  sdk: "const txn = await client.testHelpers.payPaymentLink('plink_…', { card: '4242 4242 4242 4242' });",
  body: { card: '4242 4242 4242 4242' },
  mcp: {
    name: 'pay_test_payment_link',
    description: 'Test mode only: pay a test payment link with a sandbox card (4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0000 0000 0259 succeeds and is then disputed), as a buyer on the hosted page would; returns the transaction.'
  }
};
