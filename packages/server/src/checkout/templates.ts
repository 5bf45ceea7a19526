import { esc, layout } from '../pages/html.ts';
import type { PaymentDetailField } from '../payments/provider.ts';
import { formatMoney } from '../money.ts';
import type { TransactionRow } from '../transactions/repository.ts';
import type { PaymentLinkRow } from './repository.ts';

/**
 * The hosted checkout pages: plain server-rendered HTML with one small inline stylesheet. Forms
 * post without JavaScript and the layout is a single column that reads on a phone.
 */

const testBanner = '<p class="notice test" role="note">Test mode: the sandbox takes no real money.</p>';
// The result page's next steps and its one button (a link styled as the form's button).
const css = `.next-h{font-size:1rem;margin:1rem 0 .25rem}
a.button{display:block;text-align:center;margin-top:1rem;font-size:1.1rem;font-weight:600;padding:.8rem;border-radius:8px;background:#2b59c3;color:#fff;text-decoration:none}`;
const page = (title: string, mode: string, body: string) => layout(title, body, mode === 'test' ? testBanner : '', { css });

export interface PageContext {
  brandName: string;
  link: PaymentLinkRow;
  /** Where the page's form posts. */
  payAction: string;
  /** The provider whose own page takes the card (Stripe): our form is a button that goes there. */
  hostedBy?: string;
  /** A neutral note above the form (the buyer came back from the provider's page without paying). */
  note?: string;
  /** `_top` inside the overlay when the provider's own page takes the card (it refuses to be framed). */
  payTarget?: '_top';
  /** The brand's support address, for "questions" and "what to do" lines. */
  supportEmail?: string;
  /** The buyer portal of the brand (`/portal/{slug}`), where the buyer signs in to reach what they bought. */
  portalPath?: string;
}

/** What a buyer can do about a declined or failed payment, in words. */
function failureHelp(ctx: PageContext): string {
  return `<h3 class="next-h">What you can do</h3>
<ul>
<li>Check the card details you typed, then pay again.</li>
<li>Try another card: your bank can tell you why it declined this one.</li>
${ctx.supportEmail ? `<li>Still stuck? Write to ${esc(ctx.brandName)} at <a href="mailto:${esc(ctx.supportEmail)}">${esc(ctx.supportEmail)}</a>.</li>` : ''}
</ul>`;
}

/** A payment that failed on a link that can no longer be paid (closed, or paid another way). */
export function failedPage(ctx: PageContext, text: string): string {
  return page(`Payment failed: ${ctx.brandName}`, ctx.link.mode, `${summary(ctx)}
<section class="card" aria-label="Result">
<h2>Payment failed</h2>
<p class="notice error" role="alert">${esc(text)}</p>
<p>This checkout can no longer be paid. Ask ${esc(ctx.brandName)} for a new link${ctx.supportEmail ? ` at <a href="mailto:${esc(ctx.supportEmail)}">${esc(ctx.supportEmail)}</a>` : ''}.</p>
</section>`);
}

function summary({ brandName, link }: PageContext): string {
  const [first] = link.line_items;
  const title = first?.product ?? 'Your order';
  const tier = first?.tier;
  const rows = link.line_items.map((l) => `<tr><td>${esc(l.description)}${l.quantity > 1 ? ` &times; ${l.quantity}` : ''}`
    + `${l.detail ? `<span class="detail">${esc(l.detail)}</span>` : ''}</td>`
    + `<td class="amount">${esc(formatMoney(l.amount, link.currency))}</td></tr>`).join('\n');
  return `<p class="brand">${esc(brandName)}</p>
<h1>${esc(title)}</h1>
${tier ? `<p class="tier">${esc(tier)}</p>` : ''}
<section class="card" aria-label="Order summary">
<table>
<thead><tr><th scope="col">Item</th><th scope="col" class="amount">Amount</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot><tr><th scope="row">Total</th><th class="amount" id="total">${esc(formatMoney(link.amount, link.currency))}</th></tr></tfoot>
</table>
${link.line_items.filter((l) => l.terms).map((l) => `<p class="terms" id="terms">${esc(`${l.product ?? l.description}: ${l.terms}.`)}</p>`).join('\n')}
</section>`;
}

/** The checkout form; `error` is what went wrong with the last submission, shown above it. */
export function checkoutPage(ctx: PageContext, fields: PaymentDetailField[], error?: string, failed = false): string {
  const { link } = ctx;
  const free = link.amount === 0;
  const inputs = free ? '' : fields.map((f) => `<label for="${esc(f.name)}">${esc(f.label)}</label>
<input id="${esc(f.name)}" name="${esc(f.name)}" required${f.inputmode ? ` inputmode="${f.inputmode}"` : ''}`
    + `${f.autocomplete ? ` autocomplete="${esc(f.autocomplete)}"` : ''}${f.hint ? ` aria-describedby="${esc(f.name)}-hint"` : ''}>
${f.hint ? `<p class="hint" id="${esc(f.name)}-hint">${esc(f.hint)}</p>` : ''}`).join('\n');
  const elsewhere = !free && ctx.hostedBy;
  return page(`Checkout: ${ctx.brandName}`, link.mode, `${summary(ctx)}
<section class="card" aria-label="Payment">
<h2>${free ? 'Free: no payment needed' : 'Payment'}</h2>
<p>For ${esc(link.buyer_name)} (${esc(link.buyer_email)})</p>
${ctx.note ? `<p class="notice test" role="status">${esc(ctx.note)}</p>` : ''}
${error ? `<p class="notice error" role="alert">${esc(error)}</p>` : ''}
${failed ? failureHelp(ctx) : ''}
${elsewhere ? `<p class="hint">You enter your card on ${esc(ctx.hostedBy!)}'s secure page, then come back here.</p>` : ''}
<form method="post" action="${esc(ctx.payAction)}"${ctx.payTarget ? ` target="${ctx.payTarget}"` : ''}>
${inputs}
<button type="submit">${free ? 'Complete' : elsewhere ? `Continue to payment` : `Pay ${esc(formatMoney(link.amount, link.currency))}`}</button>
</form>
</section>`);
}

/**
 * Before paying, when the brand verifies buyers' addresses (checkout/email-code.ts): send the
 * code, then type it. `sent` says whether a code is on its way; `error` is what went wrong, in words.
 */
export function codePage(ctx: PageContext, actions: { send: string; verify: string }, sent: boolean, error?: string, note?: string): string {
  const { link } = ctx;
  return page(`Confirm your email: ${ctx.brandName}`, link.mode, `${summary(ctx)}
<section class="card" aria-label="Email verification">
<h2>Confirm your email address</h2>
<p>${sent
    ? `We emailed a 6-digit code to ${esc(link.buyer_email)}. Enter it to continue to payment. It works for 10 minutes.`
    : `${esc(ctx.brandName)} asks buyers to confirm their email address before paying. We will email a 6-digit code to ${esc(link.buyer_email)}.`}</p>
${note ? `<p class="notice test" role="status">${esc(note)}</p>` : ''}
${error ? `<p class="notice error" role="alert" id="code-error">${esc(error)}</p>` : ''}
${sent ? `<form method="post" action="${esc(actions.verify)}">
<label for="code">Code from the email</label>
<input id="code" name="code" required inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7"${error ? ' aria-invalid="true" aria-describedby="code-error"' : ''}>
<button type="submit">Confirm and continue</button>
</form>` : ''}
<form method="post" action="${esc(actions.send)}">
<button type="submit"${sent ? ' class="secondary"' : ''}>${sent ? 'Send a new code' : 'Email me a code'}</button>
</form>
</section>`);
}

/**
 * After a successful (or still processing) payment: what was bought and what happens next, truthfully
 * (issue 24). `receiptTo` is the address a receipt was really queued to for this payment (mail/);
 * `continueTo` is the brand's redirectUrl when the buyer is still here (the overlay).
 */
export function resultPage(ctx: PageContext, attempt: TransactionRow, after: { receiptTo?: string; continueTo?: string; booking?: string } = {}): string {
  const paid = attempt.status === 'succeeded';
  const heading = paid ? (attempt.amount === 0 ? 'You\'re all set' : 'Payment successful') : 'Payment processing';
  const text = paid
    ? `Thank you, ${esc(ctx.link.buyer_name)}. ${attempt.amount === 0 ? 'Your order is complete.' : `We received ${esc(formatMoney(attempt.amount, attempt.currency))}.`}`
    : 'The payment has not been confirmed yet. Refresh this page in a moment.';
  const bought = ctx.link.line_items.filter((l) => l.product).map((l) => `${l.product}${l.tier ? ` (${l.tier})` : ''}`);
  const recurring = ctx.link.line_items.some((l) => l.terms);
  const next = paid ? `<h3 class="next-h">What happens next</h3>
<ul>
<li>Your ${bought.length ? `purchase of ${esc(bought.join(', '))}` : 'purchase'} is confirmed for ${esc(ctx.link.buyer_email)}${ctx.link.guests.length ? `, and your ${ctx.link.guests.length === 1 ? 'guest is' : `${ctx.link.guests.length} guests are`} on the list` : ''}.</li>
${after.booking ? `<li>Your session is booked for <strong>${esc(after.booking)}</strong>.</li>` : ''}
${after.receiptTo ? `<li id="receipt-note">A receipt was emailed to ${esc(after.receiptTo)}.</li>` : ''}
${recurring ? '<li>Your plan renews as shown above until you cancel it.</li>' : ''}
${ctx.portalPath && !after.continueTo ? `<li>Your purchases page has what you bought: sign in there with ${esc(ctx.link.buyer_email)}.</li>` : ''}
<li>Keep the reference below: ${esc(ctx.brandName)} can find your order with it${ctx.supportEmail ? ` (questions: <a href="mailto:${esc(ctx.supportEmail)}">${esc(ctx.supportEmail)}</a>)` : ''}.</li>
</ul>
${after.continueTo ? `<p><a class="button" id="continue" href="${esc(after.continueTo)}" target="_top">Continue to ${esc(new URL(after.continueTo).host)}</a></p>`
    : ctx.portalPath ? `<p><a class="button" id="portal" href="${esc(ctx.portalPath)}" target="_top">Go to your purchases</a></p>` : ''}` : '';
  return page(`${heading}: ${ctx.brandName}`, ctx.link.mode, `${summary(ctx)}
<section class="card" aria-label="Result">
<h2>${heading}</h2>
<p class="notice ${paid ? 'success' : 'test'}" role="status">${text}</p>
${next}
<p>Reference: <code id="txref">${esc(attempt.txref)}</code></p>
</section>`);
}
