import type { BrandProfileRow } from '../brands/repository.ts';
import { esc, layout } from '../pages/html.ts';
import { storefrontCss } from '../pages/storefront-css.ts';
import type { PaymentDetailField } from '../payments/provider.ts';
import type { portalView } from './service.ts';

/**
 * The buyer portal's pages: server-rendered, no scripts, in the storefront's look (its CSS, the
 * brand's logo and accent colour). Every action is a small form that posts back to the portal.
 */

type View = Awaited<ReturnType<typeof portalView>>;

export interface PortalFrame {
  brand: BrandProfileRow;
  /** The portal's absolute address, e.g. https://pay.example.com/portal/inkwell. */
  home: string;
  mode?: 'test' | 'live';
}

const css = `${storefrontCss}
.row{display:flex;justify-content:space-between;gap:1rem;align-items:flex-start;flex-wrap:wrap}.row h3{margin:0;font-size:1.05rem}
.status{display:inline-block;font-size:.85rem;font-weight:600;border-radius:6px;padding:.05rem .5rem;background:#e7f6ec;color:#14532d}
.status.ending{background:#fff4d6;color:#6b4e00}.status.failing{background:#fde8e6;color:#8a1c13}
.card a.button{display:inline-block;margin:.5rem .5rem 0 0;padding:.5rem 1rem;font-size:1rem}.status.ended{background:#ececf1;color:#333}
form.inline{display:inline}form.inline button{width:auto;margin:.5rem 0 0;padding:.5rem 1rem;font-size:1rem}
button.quiet{background:#fff;color:#8a1c13;border:1px solid #c9c9d1}ul.files{list-style:none;padding:0;margin:.5rem 0 0}
ul.files li{display:flex;justify-content:space-between;gap:1rem;padding:.4rem 0;border-top:1px solid #eee}
table.tx td,table.tx th{padding:.4rem .5rem .4rem 0;font-size:.95rem}.nowrap{white-space:nowrap}.scroll{overflow-x:auto}.st-note{display:none}@media (max-width:480px){table.tx .st{display:none}table.tx .st-note{display:block;font-size:.8rem;color:#555}}.focus{outline:3px solid #2b59c3;outline-offset:2px}
.top{display:flex;justify-content:space-between;align-items:center;gap:1rem;flex-wrap:wrap}.top form button{width:auto;margin:0;padding:.4rem .9rem;font-size:.95rem}`;

const brandName = (b: BrandProfileRow) => b.display_name ?? b.name;

function frame(f: PortalFrame, title: string, body: string, signedInAs?: string, back?: string | null) {
  const logo = f.brand.logo_url ? `<img src="${esc(f.brand.logo_url)}" alt="">` : '';
  const signOut = signedInAs
    ? `<form method="post" action="${esc(f.home)}/sign-out"><span class="muted">${esc(signedInAs)}</span> <button type="submit" class="quiet">Sign out</button></form>` : '';
  const banner = f.mode === 'test' ? '<p class="notice test" role="status">Test mode: these are test purchases; nothing here was really charged.</p>' : '';
  return layout(`${title} · ${brandName(f.brand)}`, `<header class="top"><div class="site">${logo}<span class="name">${esc(brandName(f.brand))}</span></div>${signOut}</header>
${back ? `<p><a href="${esc(back)}">← Back to ${esc(brandName(f.brand))}</a></p>` : ''}
<h1>${esc(title)}</h1>
${body}
<footer>${f.brand.support_email ? `Questions? <a href="mailto:${esc(f.brand.support_email)}">${esc(f.brand.support_email)}</a>` : esc(brandName(f.brand))}</footer>`, banner, {
    css, accent: f.brand.accent_color ?? undefined,
  });
}

export function signInPage(f: PortalFrame, o: { sent?: string; error?: string; expired?: boolean; focus?: string | null } = {}) {
  const notice = o.sent
    ? `<p class="notice success" role="status">If ${esc(o.sent)} has purchases with ${esc(brandName(f.brand))}, a sign-in link is on its way. It works once, for 15 minutes.</p>`
    : o.expired ? '<p class="notice error" role="alert">That sign-in link has expired or was already used. Ask for a new one below.</p>'
      : o.error ? `<p class="notice error" role="alert">${esc(o.error)}</p>` : '';
  return frame(f, 'Your purchases', `${notice}<section class="card">
<h2>Sign in with your email</h2>
<p class="muted">We email you a link that signs you in, no password needed. Use the address you bought with.</p>
<form method="post" action="${esc(f.home)}/sign-in">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required>
${o.focus ? `<input type="hidden" name="focus" value="${esc(o.focus)}">` : ''}<button type="submit">Email me a sign-in link</button>
</form></section>`);
}

const day = (d: Date) => d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const shortDay = (d: Date) => d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

function membershipCard(f: PortalFrame, m: View['memberships'][number], items: View['items'], focus: string | null) {
  const ending = m.status === 'active' && m.cancel_at_period_end;
  const live = m.sub_status === 'active' || m.sub_status === 'past_due';
  // A renewal that failed and is being retried (dunning): the buyer may update the card or stop the retries.
  const failing = m.status === 'active' && m.sub_status === 'past_due' && !ending;
  const status = m.status !== 'active' ? `<span class="status ended">${esc(m.status)}</span>`
    : ending ? `<span class="status ending">Ends ${m.current_period_end ? esc(day(m.current_period_end)) : 'at period end'}</span>`
      : failing ? '<span class="status failing">Payment failed</span>'
        : '<span class="status">Active</span>';
  const renews = failing
    ? `<p>We could not charge your card for the renewal${m.price ? ` (${esc(m.price)})` : ''}. ${m.next_billing_at ? `We will try again on ${esc(day(m.next_billing_at))}. ` : ''}Update your card and we try it again at once; or stop the retries, which ends your membership now.</p>`
    : m.status === 'active' && live && !ending && m.current_period_end ? `<p class="muted">Renews on ${esc(day(m.current_period_end))}${m.price ? ` at ${esc(m.price)}` : ''}.</p>` : '';
  const action = (path: string, label: string, cls = '') =>
    `<form class="inline" method="post" action="${esc(f.home)}/memberships/${encodeURIComponent(m.id)}/${path}"><button type="submit"${cls ? ` class="${cls}"` : ''}>${esc(label)}</button></form>`;
  const cardLink = m.status === 'active' && live && !ending && m.provider
    ? `<a class="button" href="${esc(f.home)}/memberships/${encodeURIComponent(m.id)}/card">Update card</a>` : '';
  const buttons = m.status === 'active' && live
    ? ending ? action('resume', 'Keep my membership')
      : `${cardLink}${action('cancel', failing ? 'Stop retrying and end my membership' : 'Cancel at period end', 'quiet')}` : '';
  const mine = items.filter((i) => i.product_id === m.product_id);
  const files = mine.length ? `<ul class="files">${mine.map((i) => `<li id="${esc(i.id)}"${focus === i.id ? ' class="focus"' : ''}><span>${esc(i.title)}</span>${
    i.href ? `<a href="${esc(i.href)}"${i.file_key ? ` download="${esc(i.file_name ?? '')}"` : ' rel="noopener"'}>${i.file_key ? 'Download' : 'Open'}<span class="visually-hidden"> ${esc(i.title)}</span></a>` : ''}</li>`).join('')}</ul>` : '';
  const focused = focus !== null && (focus === m.id || focus === m.subscription_id);
  return `<section class="card${focused ? ' focus' : ''}" id="${esc(m.id)}"><div class="row"><h3>${esc(m.name)}${m.tier_name ? ` <span class="muted">· ${esc(m.tier_name)}</span>` : ''}</h3>${status}</div>
${renews}${ending ? `<p class="muted">You keep access until ${m.current_period_end ? esc(day(m.current_period_end)) : 'the period ends'} and will not be charged again.</p>` : ''}${files}${buttons}</section>`;
}

export function homePage(f: PortalFrame, view: View, o: { email: string; focus: string | null; back: string | null; notice?: string }) {
  const notice = o.notice ? `<p class="notice success" role="status">${esc(o.notice)}</p>` : '';
  const memberships = view.memberships.length
    ? view.memberships.map((m) => membershipCard(f, m, view.items, o.focus)).join('\n')
    : '<section class="card"><p>You have no memberships or purchases with access yet.</p></section>';
  const rows = view.transactions.map((t) => `<tr id="${esc(t.txref)}"${o.focus === t.txref ? ' class="focus"' : ''}><td class="nowrap">${esc(shortDay(t.created_at))}</td><td class="st">${esc(t.status)}</td><td class="amount">${esc(t.total)}${t.status === 'succeeded' ? '' : `<span class="st-note"> ${esc(t.status)}</span>`}</td><td>${
    t.invoice_number !== null ? `<a href="${esc(f.home)}/invoices/${encodeURIComponent(t.txref)}">Invoice<span class="visually-hidden"> ${esc(t.txref)}</span></a>` : ''}</td></tr>`).join('');
  const payments = view.transactions.length
    ? `<section class="card"><h2>Payments</h2><div class="scroll"><table class="tx"><thead><tr><th>Date</th><th class="st">Status</th><th class="amount">Amount</th><th>Receipt</th></tr></thead><tbody>${rows}</tbody></table></div></section>` : '';
  return frame(f, 'Your purchases', `${notice}<h2>Memberships and purchases</h2>\n${memberships}\n${payments}`, o.email, o.back);
}

/** The sandbox's card form (a provider whose card form is ours): the card the subscription renews with from now on. */
export function cardPage(
  f: PortalFrame,
  o: { membershipId: string; name: string; failing: boolean; fields: PaymentDetailField[]; error?: string; email: string },
) {
  const notice = o.error ? `<p class="notice error" role="alert">${esc(o.error)}</p>` : '';
  const inputs = o.fields.map((d) => `<label for="${esc(d.name)}">${esc(d.label)}</label>
<input id="${esc(d.name)}" name="${esc(d.name)}"${d.autocomplete ? ` autocomplete="${esc(d.autocomplete)}"` : ''}${d.inputmode ? ` inputmode="${esc(d.inputmode)}"` : ''} required${d.hint ? ` aria-describedby="${esc(d.name)}-hint"` : ''}>
${d.hint ? `<p class="muted" id="${esc(d.name)}-hint">${esc(d.hint)}</p>` : ''}`).join('\n');
  return frame(f, 'Update your card', `${notice}<section class="card">
<h2>${esc(o.name)}</h2>
<p class="muted">${o.failing ? 'Your last renewal payment failed. When you save a new card, we charge it for that renewal at once.' : 'Your next renewal is charged to the new card; nothing is charged now.'}</p>
<form method="post" action="${esc(f.home)}/memberships/${encodeURIComponent(o.membershipId)}/card">
${inputs}
<button type="submit">Save card</button>
</form>
<p><a href="${esc(f.home)}?focus=${encodeURIComponent(o.membershipId)}#${encodeURIComponent(o.membershipId)}">Back to your purchases</a></p></section>`, o.email);
}
