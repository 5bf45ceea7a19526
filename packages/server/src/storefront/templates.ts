import { esc, layout } from '../pages/html.ts';
import type { BrandProfileRow } from '../brands/repository.ts';
import type { HubRow } from '../hubs/repository.ts';
import type { ItemRow, ProductRow, TierRow } from '../products/repository.ts';
import { storefrontCss } from '../pages/storefront-css.ts';
import { dateTimeWords, durationWords, eventTypeWords, recurrenceWords, tierPrice } from '../pages/words.ts';

/**
 * The public storefront pages: server-rendered HTML without scripts, in the hosted checkout's
 * look (pages/html.ts) with the brand's logo and accent colour, and the tags search engines and
 * link previews read (canonical URL, Open Graph, Twitter card).
 */

export interface BrandView {
  brand: BrandProfileRow;
  /** The storefront's absolute address, e.g. https://pay.example.com/s/ink-studio. */
  home: string;
}

const brandName = (b: BrandProfileRow) => b.display_name ?? b.name;

function head(o: { title: string; description: string; url: string; image?: string | null; type: string; siteName: string }): string {
  const description = o.description.replace(/\s+/g, ' ').trim().slice(0, 200);
  const tags: [string, string][] = [
    ['og:type', o.type], ['og:title', o.title], ['og:description', description], ['og:url', o.url], ['og:site_name', o.siteName],
    ...(o.image ? [['og:image', o.image] as [string, string]] : []),
  ];
  const twitter: [string, string][] = [
    ['twitter:card', o.image ? 'summary_large_image' : 'summary'], ['twitter:title', o.title], ['twitter:description', description],
    ...(o.image ? [['twitter:image', o.image] as [string, string]] : []),
  ];
  return `<link rel="canonical" href="${esc(o.url)}">
<meta name="description" content="${esc(description)}">
${tags.map(([k, v]) => `<meta property="${k}" content="${esc(v)}">`).join('\n')}
${twitter.map(([k, v]) => `<meta name="${k}" content="${esc(v)}">`).join('\n')}
`;
}

function page(view: BrandView, o: { title: string; description: string; url: string; image?: string | null; type: string; indexable: boolean; home?: boolean }, body: string) {
  const { brand } = view;
  const logo = brand.logo_url ? `<img src="${esc(brand.logo_url)}" alt="">` : '';
  const header = o.home
    ? `<header class="site">${logo}<h1 class="name">${esc(brandName(brand))}</h1></header>`
    : `<header class="site">${logo}<a class="name" href="${esc(view.home)}">${esc(brandName(brand))}</a></header>`;
  const footer = `<footer>${brand.support_email ? `Questions? <a href="mailto:${esc(brand.support_email)}">${esc(brand.support_email)}</a>` : esc(brandName(brand))}</footer>`;
  return layout(o.title, `${header}\n${body}\n${footer}`, '', {
    head: head({ ...o, siteName: brandName(brand) }),
    indexable: o.indexable,
    ...(brand.accent_color ? { accent: brand.accent_color } : {}),
    css: storefrontCss,
  }).replace('<main>', '<main class="wide">');
}

/** "From 20.00 USD" for a card: the cheapest tier on sale. */
function fromPrice(tiers: TierRow[]): string {
  if (!tiers.length) return '';
  const cheapest = [...tiers].sort((a, b) => (a.price_amount - (a.discount_amount ?? 0)) - (b.price_amount - (b.discount_amount ?? 0)))[0];
  const price = tierPrice(cheapest);
  return tiers.length > 1 && price.now !== 'Free' ? `From ${price.now}` : price.now;
}

export function storefrontPage(view: BrandView, products: { row: ProductRow; tiers: TierRow[]; url: string }[], hubs: { row: HubRow; tiers: TierRow[]; url: string }[]): string {
  const name = brandName(view.brand);
  const cards = products.map(({ row, tiers, url }) => `<li class="card">
${row.image_url ? `<img class="cover" src="${esc(row.image_url)}" alt="">` : ''}
<h3><a href="${esc(url)}">${esc(row.title)}</a></h3>
<p class="muted">${esc(typeLabel(row, view.brand.time_zone))}</p>
${row.description ? `<p>${esc(truncate(row.description, 140))}</p>` : ''}
<p class="price">${esc(fromPrice(tiers))}</p>
</li>`).join('\n');
  const hubCards = hubs.map(({ row, tiers, url }) => `<li class="card">
<h3><a href="${esc(url)}">${esc(row.name)}</a></h3>
${row.description ? `<p>${esc(truncate(row.description, 140))}</p>` : ''}
<p class="price">${esc(fromPrice(tiers))}</p>
</li>`).join('\n');
  return page(view, { title: name, description: `${name}: ${products.map((p) => p.row.title).slice(0, 5).join(', ') || 'shop'}`, url: view.home, image: view.brand.logo_url, type: 'website', indexable: true, home: true }, `
${products.length ? `<section aria-labelledby="products-h"><h2 id="products-h">Products</h2><ul class="grid">${cards}</ul></section>` : '<p class="card">Nothing is on sale yet. Come back soon.</p>'}
${hubs.length ? `<section aria-labelledby="hubs-h"><h2 id="hubs-h" style="margin-top:1.5rem">Memberships</h2><ul class="grid">${hubCards}</ul></section>` : ''}`);
}

const typeLabel = (row: ProductRow, timeZone: string | null = null) => `${row.type.charAt(0).toUpperCase()}${row.type.slice(1)}${row.event_date_time
  ? ` · ${new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: timeZone ?? 'UTC' }).format(row.event_date_time)}` : ''}`;
const truncate = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** What a tier card needs beyond the tier: places left (tiers with slots) and where its button goes. */
export interface TierOffer {
  tier: TierRow;
  left?: number;
  buyUrl?: string;
}

function tierCard(offer: TierOffer, items: ItemRow[], timeZone: string | null): string {
  const { tier } = offer;
  const price = tierPrice(tier);
  const recurrence = recurrenceWords(tier);
  const included = items.filter((i) => tier.item_ids.includes(i.id) && !i.is_addon && !i.archived);
  const ended = tier.time_bound !== null && tier.time_bound.getTime() <= Date.now();
  const soldOut = offer.left === 0;
  const action = ended
    ? '<p class="badge soldout">Sales have ended</p>'
    : soldOut ? '<p class="badge soldout">Sold out</p>'
      : offer.buyUrl ? `<a class="button" href="${esc(offer.buyUrl)}">${esc(tier.button_text ?? (price.free ? 'Get it free' : 'Buy'))}<span class="visually-hidden"> ${esc(tier.name)}</span></a>`
        : '<p class="muted">Not on sale online yet.</p>';
  return `<section class="card" aria-labelledby="tier-${esc(tier.id)}">
<h3 id="tier-${esc(tier.id)}">${esc(tier.name)}</h3>
<p class="price">${price.pwyw ? `Pay what you want, from ${esc(price.now)}` : esc(price.now)}${price.was ? `<span class="was"><span class="visually-hidden">was </span>${esc(price.was)}</span>` : ''}</p>
${price.saving ? `<p class="muted">You save ${esc(price.saving)}</p>` : ''}
${recurrence ? `<p class="muted">Billed ${esc(recurrence)}</p>` : ''}
${tier.no_of_tickets > 1 ? `<p class="muted">${tier.no_of_tickets} tickets per purchase</p>` : ''}
${tier.perks.length ? `<ul class="plain">${tier.perks.map((p) => `<li>${esc(p)}</li>`).join('')}</ul>` : ''}
${included.length ? `<p class="muted">Includes ${esc(included.map((i) => i.title).join(', '))}</p>` : ''}
${offer.left !== undefined && offer.left > 0 ? `<p><span class="badge">${offer.left} left</span></p>` : ''}
${tier.time_bound && !ended ? `<p class="muted">Sales end ${esc(dateTimeWords(tier.time_bound, timeZone))}</p>` : ''}
${action}
</section>`;
}

export function productPage(view: BrandView, product: ProductRow, url: string, offers: TierOffer[], items: ItemRow[]): string {
  const tz = view.brand.time_zone;
  const content = items.filter((i) => !i.is_addon && !i.archived);
  const addons = items.filter((i) => i.is_addon && !i.archived && i.price_amount !== null && i.currency);
  const event = product.event_date_time ? `<section class="card" aria-labelledby="when-h"><h2 id="when-h">When and where</h2><dl class="event">
<dt>Starts</dt><dd>${esc(dateTimeWords(product.event_date_time, tz))}</dd>
${product.event_end_date ? `<dt>Ends</dt><dd>${esc(dateTimeWords(product.event_end_date, tz))}</dd>` : ''}
${product.event_venue ? `<dt>Venue</dt><dd>${esc(product.event_venue)}</dd>` : ''}
${product.event_type ? `<dt>Format</dt><dd>${esc(eventTypeWords[product.event_type] ?? product.event_type)}</dd>` : ''}
</dl></section>` : '';
  return page(view, {
    title: `${product.title} · ${brandName(view.brand)}`, description: product.description ?? product.title, url, image: product.image_url, type: 'product',
    indexable: product.visibility === 'public',
  }, `
${product.image_url ? `<img class="hero" src="${esc(product.image_url)}" alt="${esc(product.title)}">` : ''}
<h1>${esc(product.title)}</h1>
<p class="muted">${esc(typeLabel(product, tz))}</p>
${product.description ? `<p>${esc(product.description)}</p>` : ''}
${product.keywords.length ? `<ul class="tags" aria-label="Tags">${product.keywords.map((k) => `<li>${esc(k)}</li>`).join('')}</ul>` : ''}
${event}
${content.length ? `<section class="card" aria-labelledby="inside-h"><h2 id="inside-h">What's inside</h2><ul class="plain">${content.map((i) => `<li>${esc(i.title)}${i.duration !== null ? ` <span class="muted">(${esc(durationWords(i.duration))})</span>` : ''}</li>`).join('')}</ul></section>` : ''}
${addons.length ? `<section class="card" aria-labelledby="addons-h"><h2 id="addons-h">Add-ons at checkout</h2><ul class="plain">${addons.map((i) => `<li>${esc(i.title)}: ${esc(tierPrice({ price_amount: i.price_amount!, currency: i.currency!, discount_amount: null, type: 'one_off' } as TierRow).now)}</li>`).join('')}</ul></section>` : ''}
<h2>Choose an option</h2>
${offers.length ? `<div class="tiers">${offers.map((o) => tierCard(o, items, tz)).join('\n')}</div>` : '<p class="card">Nothing is on sale right now.</p>'}`);
}

export function hubPage(view: BrandView, hub: HubRow, url: string, offers: TierOffer[], products: { row: ProductRow; url: string }[]): string {
  return page(view, { title: `${hub.name} · ${brandName(view.brand)}`, description: hub.description ?? hub.name, url, type: 'website', indexable: true }, `
<h1>${esc(hub.name)}</h1>
${hub.description ? `<p>${esc(hub.description)}</p>` : ''}
<h2>Membership plans</h2>
${offers.length ? `<div class="tiers">${offers.map((o) => tierCard(o, [], view.brand.time_zone)).join('\n')}</div>` : '<p class="card">No plans are open right now.</p>'}
${products.length ? `<section aria-labelledby="hubprod-h"><h2 id="hubprod-h" style="margin-top:1.5rem">In this membership</h2><ul class="plain">${products.map((p) => `<li><a href="${esc(p.url)}">${esc(p.row.title)}</a></li>`).join('')}</ul></section>` : ''}`);
}
