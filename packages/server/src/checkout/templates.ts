import type { PaymentDetailField } from '../payments/provider.ts';
import { formatMoney } from './pricing.ts';
import type { AttemptRow, PaymentLinkRow } from './repository.ts';

/**
 * The hosted checkout pages: plain server-rendered HTML with one small inline stylesheet. Forms
 * post without JavaScript and the layout is a single column that reads on a phone.
 */

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => escapes[c]);

const style = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c1c1e;background:#f4f4f6}
main{max-width:32rem;margin:0 auto;padding:1rem}.card{background:#fff;border-radius:12px;padding:1.25rem;margin:1rem 0;box-shadow:0 1px 3px #0002}
.brand{font-weight:600;color:#555;margin:.5rem 0 0}h1{font-size:1.4rem;margin:.25rem 0}h2{font-size:1.1rem;margin:0 0 .5rem}
.tier{color:#555;margin:0}table{width:100%;border-collapse:collapse}td,th{padding:.4rem 0;vertical-align:top;text-align:left}
td.amount,th.amount{text-align:right;white-space:nowrap;padding-left:1rem}tfoot th{border-top:1px solid #ddd;font-size:1.1rem}
.detail{display:block;color:#666;font-size:.9rem}label{display:block;font-weight:600;margin:.5rem 0 .25rem}
input{width:100%;font-size:1.1rem;padding:.7rem;border:1px solid #bbb;border-radius:8px}
button{width:100%;margin-top:1rem;font-size:1.1rem;font-weight:600;padding:.8rem;border:0;border-radius:8px;background:#2b59c3;color:#fff}
.hint{color:#555;font-size:.9rem;margin:.4rem 0 0}.notice{padding:.75rem 1rem;border-radius:8px;margin:1rem 0}
.error{background:#fdecea;color:#8a1c13}.success{background:#e7f6ec;color:#14532d}.test{background:#fff4d6;color:#6b4e00;text-align:center}
a{color:#2b59c3}`;

function layout(title: string, mode: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)}</title>
<style>${style}</style>
</head>
<body>
<main>
${mode === 'test' ? '<p class="notice test" role="note">Test mode: the sandbox takes no real money.</p>' : ''}
${body}
</main>
</body>
</html>`;
}

export interface PageContext {
  brandName: string;
  link: PaymentLinkRow;
  /** Where the page's form posts. */
  payAction: string;
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
</section>`;
}

/** The checkout form; `error` is what went wrong with the last submission, shown above it. */
export function checkoutPage(ctx: PageContext, fields: PaymentDetailField[], error?: string): string {
  const { link } = ctx;
  const free = link.amount === 0;
  const inputs = free ? '' : fields.map((f) => `<label for="${esc(f.name)}">${esc(f.label)}</label>
<input id="${esc(f.name)}" name="${esc(f.name)}" required${f.inputmode ? ` inputmode="${f.inputmode}"` : ''}`
    + `${f.autocomplete ? ` autocomplete="${esc(f.autocomplete)}"` : ''}${f.hint ? ` aria-describedby="${esc(f.name)}-hint"` : ''}>
${f.hint ? `<p class="hint" id="${esc(f.name)}-hint">${esc(f.hint)}</p>` : ''}`).join('\n');
  return layout(`Checkout: ${ctx.brandName}`, link.mode, `${summary(ctx)}
<section class="card" aria-label="Payment">
<h2>${free ? 'Free: no payment needed' : 'Payment'}</h2>
<p>For ${esc(link.buyer_name)} (${esc(link.buyer_email)})</p>
${error ? `<p class="notice error" role="alert">${esc(error)}</p>` : ''}
<form method="post" action="${esc(ctx.payAction)}">
${inputs}
<button type="submit">${free ? 'Complete' : 'Pay'}</button>
</form>
</section>`);
}

/** After a successful (or still processing) payment. A failed one shows the checkout form again instead. */
export function resultPage(ctx: PageContext, attempt: AttemptRow): string {
  const paid = attempt.status === 'succeeded';
  const heading = paid ? (attempt.amount === 0 ? 'You\'re all set' : 'Payment successful') : 'Payment processing';
  const text = paid
    ? `Thank you, ${esc(ctx.link.buyer_name)}. ${attempt.amount === 0 ? 'Your order is complete.' : `We received ${esc(formatMoney(attempt.amount, attempt.currency))}.`}`
    : 'The payment has not been confirmed yet. Refresh this page in a moment.';
  return layout(`${heading}: ${ctx.brandName}`, ctx.link.mode, `${summary(ctx)}
<section class="card" aria-label="Result">
<h2>${heading}</h2>
<p class="notice ${paid ? 'success' : 'test'}" role="status">${text}</p>
<p>Reference: <code id="txref">${esc(attempt.txref)}</code></p>
</section>`);
}

export function messagePage(title: string, message: string): string {
  return layout(title, 'live', `<section class="card"><h1>${esc(title)}</h1><p>${esc(message)}</p></section>`);
}
