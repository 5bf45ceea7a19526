import { esc, layout } from '../pages/html.ts';
import type { BrandProfileRow } from '../brands/repository.ts';
import type { CheckoutFieldRow, ItemRow, ProductRow, TierRow } from '../products/repository.ts';
import type { HubRow } from '../hubs/repository.ts';
import { formatMoney } from '../money.ts';
import { exponentOf, toMajor } from '../money.ts';
import { storefrontCss } from '../pages/storefront-css.ts';
import { dateTimeWords, durationWords, eventTypeWords, recurrenceWords, tierPrice } from '../pages/words.ts';
import { storefrontPath } from '../brands/profile.ts';
import { amountRangeOf } from './service.ts';
import { slotPickerHtml, type SlotPicker } from './slot-picker.ts';
import { shippingFieldset } from '../shipping/checkout-form.ts';
import type { ShippingSettings } from '../shipping/schemas.ts';

/**
 * The web checkout form behind a checkout link: what POST /payment-links carries, asked of the
 * buyer, rendered without scripts. Each error is shown beside its field (aria-describedby) and
 * summarised at the top; the values typed are kept when the form comes back.
 */

/** One tier the link sells, with what the catalog says about it. */
export interface Offer {
  tier: TierRow;
  product?: ProductRow;
  hub?: HubRow;
  items: ItemRow[];
  fields: CheckoutFieldRow[];
  left?: number;
  /** The checkout link's choices for this tier: add-ons ticked when the form opens, and the amounts a pay-what-you-want tier takes. */
  presetAddons?: string[];
  customAmountRange?: { min?: number; max?: number };
  /** A physical product's delivery zones and pickup points (docs/shipping.md). */
  shipping?: ShippingSettings;
}

export interface FormView {
  brand: BrandProfileRow;
  mode: 'test' | 'live';
  action: string;
  offers: Offer[];
  selected: Offer;
  /** What the buyer typed (or the defaults), by input name. */
  values: Record<string, string>;
  /** Problems by input name; `_form` for one that belongs to no input. */
  errors: Record<string, string>;
  /** Checkout-link level: the sales cap's places left, when it has one. */
  capLeft?: number;
  /** The coupon in the coupon field, in words ("SPRING20: 20% off"), when it names an active coupon. */
  couponNote?: string;
  /** A bookable product's open slots (slot-picker.ts). */
  slots?: SlotPicker;
}

const testBanner = '<p class="notice test" role="note">Test mode: the sandbox takes no real money. Pay with the test card 4242 4242 4242 4242.</p>';

const formCss = `
.field{margin:.9rem 0}.field label{margin:0 0 .25rem}.field .error-text{color:#8a1c13;font-weight:600;margin:.3rem 0 0;font-size:.95rem}
input[aria-invalid=true],select[aria-invalid=true]{border-color:#b3261e;border-width:2px}select{width:100%;font-size:1.1rem;padding:.7rem;border:1px solid #bbb;border-radius:8px;background:#fff}
.check{display:flex;gap:.6rem;align-items:flex-start}.check input{width:1.3rem;height:1.3rem;margin:.2rem 0 0;flex:none}.check label{font-weight:400;margin:0}
fieldset{border:1px solid #ddd;border-radius:8px;padding:.5rem 1rem 1rem;margin:1rem 0}legend{font-weight:600;padding:0 .3rem}
.option{display:flex;gap:.6rem;align-items:flex-start;border:1px solid #ddd;border-radius:8px;padding:.6rem;margin:.5rem 0}.option input{width:1.2rem;height:1.2rem;margin:.25rem 0 0;flex:none}
.optional{font-weight:400;color:#555}.summary-img{width:100%;max-height:14rem;object-fit:cover;border-radius:8px}`;

const input = (name: string, label: string, view: FormView, attrs: string, hint?: string, optional = false) => {
  const error = view.errors[name];
  const described = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  return `<div class="field"><label for="${esc(name)}">${esc(label)}${optional ? ' <span class="optional">(optional)</span>' : ''}</label>
<input id="${esc(name)}" name="${esc(name)}" value="${esc(view.values[name] ?? '')}" ${attrs}${error ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}>
${hint ? `<p class="hint" id="${esc(name)}-hint">${esc(hint)}</p>` : ''}${error ? `<p class="error-text" id="${esc(name)}-error">${esc(error)}</p>` : ''}</div>`;
};

function checkbox(name: string, label: string, view: FormView, checked: boolean, required = false) {
  const error = view.errors[name];
  return `<div class="field"><div class="check"><input type="checkbox" id="${esc(name)}" name="${esc(name)}" value="on"${checked ? ' checked' : ''}${required ? ' required' : ''}${error ? ` aria-invalid="true" aria-describedby="${esc(name)}-error"` : ''}>
<label for="${esc(name)}">${esc(label)}</label></div>${error ? `<p class="error-text" id="${esc(name)}-error">${esc(error)}</p>` : ''}</div>`;
}

/** One of the product's checkout fields, as the input its type calls for. */
function checkoutField(f: CheckoutFieldRow, view: FormView): string {
  const name = `field_${f.id}`;
  const req = f.required ? ' required' : '';
  switch (f.type) {
    case 'select': {
      const error = view.errors[name];
      const value = view.values[name] ?? '';
      return `<div class="field"><label for="${esc(name)}">${esc(f.label)}${f.required ? '' : ' <span class="optional">(optional)</span>'}</label>
<select id="${esc(name)}" name="${esc(name)}"${req}${error ? ` aria-invalid="true" aria-describedby="${esc(name)}-error"` : ''}>
<option value="">Choose…</option>${(f.options ?? []).map((o) => `<option${o === value ? ' selected' : ''}>${esc(o)}</option>`).join('')}
</select>${error ? `<p class="error-text" id="${esc(name)}-error">${esc(error)}</p>` : ''}</div>`;
    }
    case 'checkbox': return checkbox(name, f.label, view, view.values[name] === 'on', f.required);
    case 'number': return input(name, f.label, view, `type="text" inputmode="decimal"${req}`, undefined, !f.required);
    case 'date': return input(name, f.label, view, `type="date"${req}`, undefined, !f.required);
    case 'email': return input(name, f.label, view, `type="email" autocomplete="off"${req}`, undefined, !f.required);
    case 'phone': return input(name, f.label, view, `type="tel"${req}`, undefined, !f.required);
    default: return input(name, f.label, view, `type="text" maxlength="2000"${req}`, undefined, !f.required);
  }
}

const titleOf = (o: Offer) => o.product?.title ?? o.hub?.name ?? '';

function offerLabel(o: Offer): string {
  const price = tierPrice(o.tier);
  const every = recurrenceWords(o.tier);
  return `${o.tier.name}: ${price.pwyw ? `from ${price.now}` : price.now}${price.was ? ` (was ${price.was})` : ''}${every ? `, ${every}` : ''}`;
}

/** The amount the button states: the tier's price, or the buyer's own amount on a pay-what-you-want tier, plus ticked add-ons. */
export function payAmount(view: FormView): string {
  const { tier } = view.selected;
  let amount = tier.price_amount - (tier.discount_amount ?? 0);
  const custom = Number(view.values.customAmount);
  if (tier.type === 'pay_what_you_want' && view.values.customAmount && Number.isFinite(custom)) amount = Math.max(amount, Math.round(custom * 10 ** exponentOf(tier.currency)));
  for (const a of view.selected.items) if (a.is_addon && a.price_amount !== null && view.values[`addon_${a.id}`] === 'on') amount += a.price_amount;
  return formatMoney(amount, tier.currency);
}

export function checkoutFormPage(view: FormView): string {
  const { selected: o, brand } = view;
  const title = titleOf(o);
  const tz = brand.time_zone;
  const price = tierPrice(o.tier);
  const every = recurrenceWords(o.tier);
  const p = o.product;
  const errorList = Object.entries(view.errors);
  const guests = p?.type === 'event' ? o.tier.no_of_tickets - 1 : 0;
  const addons = o.items.filter((i) => i.is_addon && !i.archived && i.price_amount !== null && i.currency === o.tier.currency);
  const summary = `<section class="card" aria-label="What you are buying">
${p?.image_url ? `<img class="summary-img" src="${esc(p.image_url)}" alt="${esc(title)}">` : ''}
<p class="brand">${esc(brand.display_name ?? brand.name)}</p>
<h1>${esc(title)}</h1>
${p?.description ?? o.hub?.description ? `<p>${esc((p?.description ?? o.hub?.description)!)}</p>` : ''}
${p?.event_date_time ? `<p><strong>When:</strong> ${esc(dateTimeWords(p.event_date_time, tz))}${p.event_venue ? `<br><strong>Where:</strong> ${esc(p.event_venue)}` : ''}${p.event_type ? ` (${esc(eventTypeWords[p.event_type] ?? p.event_type)})` : ''}</p>` : ''}
<p class="tier">${esc(o.tier.name)}: <strong>${price.pwyw ? `from ${esc(price.now)}` : esc(price.now)}</strong>${price.was ? ` <span class="was">${esc(price.was)}</span>` : ''}${every ? `, billed ${esc(every)}` : ''}</p>
${o.tier.perks.length ? `<ul class="plain">${o.tier.perks.map((k) => `<li>${esc(k)}</li>`).join('')}</ul>` : ''}
${o.items.filter((i) => o.tier.item_ids.includes(i.id) && !i.is_addon).length ? `<p class="muted">Includes ${esc(o.items.filter((i) => o.tier.item_ids.includes(i.id) && !i.is_addon).map((i) => `${i.title}${i.duration !== null ? ` (${durationWords(i.duration)})` : ''}`).join(', '))}</p>` : ''}
${o.left !== undefined ? `<p><span class="badge">${o.left} left</span></p>` : view.capLeft !== undefined ? `<p><span class="badge">${view.capLeft} left</span></p>` : ''}
${o.tier.time_bound ? `<p class="muted">Sales end ${esc(dateTimeWords(o.tier.time_bound, tz))}</p>` : ''}
${view.couponNote ? `<p class="coupon-note" id="coupon-note"><span class="badge">Coupon ${esc(view.couponNote)}</span> is taken off your order; the next page shows the total.</p>` : ''}
</section>`;

  const tierChoice = view.offers.length > 1 ? `<fieldset><legend>Choose an option</legend>
${view.offers.map((x) => `<div class="option"><input type="radio" id="tier-${esc(x.tier.id)}" name="tier" value="${esc(x.tier.id)}"${x === o ? ' checked' : ''}${x.left === 0 ? ' disabled' : ''}>
<label for="tier-${esc(x.tier.id)}">${esc(titleOf(x))}, ${esc(offerLabel(x))}${x.left === 0 ? ' (sold out)' : x.left !== undefined ? ` (${x.left} left)` : ''}</label></div>`).join('\n')}
<button type="submit" name="choose" value="1" formnovalidate class="secondary">Update order</button>
</fieldset>` : `<input type="hidden" name="tier" value="${esc(o.tier.id)}">`;

  // Nothing left to buy through this link: say so instead of asking for details no one can use.
  if (view.offers.every((x) => x.left === 0)) {
    return layout(`Sold out: ${title}`, `${summary}
<section class="card" aria-labelledby="soldout-h">
<h2 id="soldout-h">Sold out</h2>
<p class="notice error" role="status">Sold out: "${esc(o.tier.name)}" has no places left. Nothing was charged.</p>
${brand.support_email ? `<p>Ask ${esc(brand.display_name ?? brand.name)} about more places: <a href="mailto:${esc(brand.support_email)}">${esc(brand.support_email)}</a>.</p>` : ''}
</section>`, view.mode === 'test' ? testBanner : '', {
      css: `${storefrontCss}${formCss}@media (min-width:60rem){main.checkout{max-width:62rem;display:grid;grid-template-columns:1fr 1.15fr;gap:0 1.5rem;align-items:start}main.checkout>.notice{grid-column:1/-1}}`,
      ...(brand.accent_color ? { accent: brand.accent_color } : {}),
    }).replace('<main>', '<main class="checkout">');
  }
  const range = amountRangeOf(o, o.tier);
  const decimal = (minor: number) => toMajor(minor, o.tier.currency).toFixed(exponentOf(o.tier.currency));
  const rangeHint = range.max !== undefined
    ? `From ${decimal(range.min)} to ${decimal(range.max)} ${o.tier.currency}.`
    : `At least ${decimal(range.min)} ${o.tier.currency}. Pay more if you like.`;
  // A physical product with delivery zones asks for an address with its country, which stands in
  // for the buyer's country code when they leave that empty (form-body.ts).
  const delivers = Boolean(o.shipping?.deliveryZones?.length);
  const body = `${summary}
<section class="card" aria-labelledby="details-h">
<h2 id="details-h">Your details</h2>
${errorList.length ? `<div class="notice error" role="alert"><p style="margin:0">Please fix ${errorList.length === 1 ? 'this' : `these ${errorList.length} things`}:</p><ul class="plain">${errorList.map(([name, msg]) => `<li>${name === '_form' ? esc(msg) : `<a href="#${esc(name)}">${esc(msg)}</a>`}</li>`).join('')}</ul></div>` : ''}
<form method="post" action="${esc(view.action)}" novalidate>
${tierChoice}
<input type="hidden" name="shown_tier" value="${esc(o.tier.id)}">
${input('fullName', 'Full name', view, 'type="text" autocomplete="name" required maxlength="500"')}
${input('email', 'Email', view, 'type="email" autocomplete="email" required maxlength="320"', 'Your receipt and access go to this address.')}
${input('phone', 'Phone', view, 'type="tel" autocomplete="tel" maxlength="40"', undefined, true)}
${o.fields.map((f) => checkoutField(f, view)).join('\n')}
${view.slots ? slotPickerHtml(view.slots, view.values, view.errors) : ''}
${price.pwyw ? input('customAmount', `Your price (${o.tier.currency})`, view, `type="text" inputmode="decimal" required`, rangeHint) : ''}
${guests > 0 ? `<fieldset><legend>Guests (this ticket admits ${o.tier.no_of_tickets}: you and ${guests} more)</legend>${Array.from({ length: guests }, (_, i) => `${input(`guest${i + 1}_name`, `Guest ${i + 1} name`, view, 'type="text" required maxlength="500"')}${input(`guest${i + 1}_email`, `Guest ${i + 1} email`, view, 'type="email" required maxlength="320"')}`).join('')}</fieldset>` : ''}
${addons.length ? `<fieldset><legend>Add-ons</legend>${addons.map((a) => checkbox(`addon_${a.id}`, `${a.title} (+${formatMoney(a.price_amount!, a.currency!)})`, view, view.values[`addon_${a.id}`] === 'on')).join('')}</fieldset>` : ''}
${o.shipping ? shippingFieldset(o.shipping, o.tier.currency, view) : ''}
${delivers
    ? input('countryCode', 'Country code', view, 'type="text" autocomplete="country" maxlength="2"', 'Two letters, such as US or PT. Left empty, your delivery address\'s country is used.', true)
    : input('countryCode', 'Country code', view, 'type="text" autocomplete="country" maxlength="2" required', 'Two letters, such as US or PT.')}
${checkbox('receive_emails', `Email me news and offers from ${brand.display_name ?? brand.name}`, view, view.values.receive_emails === 'on')}
${['utmRef', 'adClickID', 'adType', 'ref'].filter((k) => view.values[k]).map((k) => `<input type="hidden" name="${k}" value="${esc(view.values[k])}">`).join('\n')}
${input('coupon', 'Coupon', view, 'type="text" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="100"', 'If you have a code, type it here.', true)}
${(() => {
    const free = o.tier.price_amount - (o.tier.discount_amount ?? 0) === 0 && !price.pwyw && !addons.length;
    // Without scripts the button cannot follow the add-ons ticked, so it names the price before them;
    // the next page states the exact total on its Pay button.
    if (o.left === 0) return `<p class="notice error" role="status">Sold out: "${esc(o.tier.name)}" has no places left.</p>`;
    return free ? '<button type="submit">Continue</button>'
      : `<p class="hint" id="total-hint">${price.pwyw ? 'Your price' : esc(payAmount(view))}${[addons.length ? 'the add-ons you tick' : '', delivers ? 'delivery if you choose it' : ''].filter(Boolean).map((x, i) => (i ? ' and ' : ' plus ') + x).join('')}: you see the total and pay on the next page.</p>
<button type="submit" aria-describedby="total-hint">Continue to payment</button>`;
  })()}
</form>
</section>`;
  return layout(`Checkout: ${title}`, body, view.mode === 'test' ? testBanner : '', {
    css: `${storefrontCss}${formCss}@media (min-width:60rem){main.checkout{max-width:62rem;display:grid;grid-template-columns:1fr 1.15fr;gap:0 1.5rem;align-items:start}main.checkout>.notice{grid-column:1/-1}main.checkout>.card:first-of-type{position:sticky;top:1rem}}.secondary{background:#fff !important;color:#1c1c1e;border:1px solid #bbb;margin-top:.5rem;font-size:1rem;padding:.5rem}`,
    ...(brand.accent_color ? { accent: brand.accent_color } : {}),
  }).replace('<main>', '<main class="checkout">');
}

/** A checkout link that cannot sell (closed, ended, sold out): in the brand's look, with the way to its storefront. */
export function closedLinkPage(brand: BrandProfileRow, title: string, text: string): string {
  const name = brand.display_name ?? brand.name;
  return layout(`${title}: ${name}`, `<section class="card">
<p class="brand">${esc(name)}</p>
<h1>${esc(title)}</h1>
<p>${esc(text)}</p>
<p><a href="${esc(storefrontPath(brand))}">See what else ${esc(name)} sells</a></p>
${brand.support_email ? `<p class="muted">Questions: <a href="mailto:${esc(brand.support_email)}">${esc(brand.support_email)}</a></p>` : ''}
</section>`, '', { css: storefrontCss, ...(brand.accent_color ? { accent: brand.accent_color } : {}) });
}
