import type { ErrorDetail } from '../errors.ts';
import { everyPeriod } from '../subscriptions/periods.ts';
import type { HubRow } from '../hubs/repository.ts';
import { formatMoney, toMinor } from '../money.ts';
import type { ItemRow, ProductRow, TierRow } from '../products/repository.ts';
import type { PaymentLinkBody, PaymentLinkItem } from './schemas.ts';

/**
 * The amount of a payment link, computed from the catalog alone: the client names what is
 * bought, never what it costs. Everything is in minor units, in the one currency of the link.
 */

/** One entry of `items`, with what the catalog says about it. A hub plan has a hub and no product. */
export type PurchaseTarget =
  | { kind: 'product'; product: ProductRow; tier: TierRow; items: ItemRow[] }
  | { kind: 'hub'; hub: HubRow; tier: TierRow };

/** What a successful payment grants: memberships of the product and/or hub, on `tierId`. */
export interface Purchase {
  productId: string | null;
  hubId: string | null;
  tierId: string;
  count: number;
  /** On a recurring tier: what each renewal charges (minor units) and how often (docs/subscriptions.md). */
  recurrence?: Recurrence;
  /** A coupon's discount on the renewals (minor units each) and how many payments in all it lasts, null for all (coupons/apply.ts). */
  discount?: { amount: number; periods: number | null };
}

export interface Recurrence {
  periodic: 'daily' | 'weekly' | 'monthly' | 'yearly';
  interval: number;
  /** Billing periods in all, this first payment included; 0 renews until cancelled. */
  count: number;
  amount: number;
}

export interface LineItem {
  description: string;
  /** The product (or hub) and tier names, for the page's heading; absent on add-on lines. */
  product?: string;
  tier?: string;
  /** e.g. the items the buyer picked with `selected`, or the tickets a tier holds. */
  detail?: string;
  unitAmount: number;
  quantity: number;
  amount: number;
  /** On a recurring tier, what the buyer agrees to: "5.00 USD every month, 12 payments". */
  terms?: string;
}

export interface Priced {
  currency: string;
  amount: number;
  lineItems: LineItem[];
  purchases: Purchase[];
  /** Event tickets bought in all: the buyer holds one, `guests` the rest. */
  tickets: number;
}

/** What a buyer of a recurring tier agrees to, in words: "5.00 USD every month, 12 payments" or "…, then renews until cancelled". */
export function recurrenceTerms(r: Recurrence, currency: string): string {
  const every = everyPeriod(r.periodic, r.interval);
  const money = formatMoney(r.amount, currency);
  if (r.count === 1) return `${money} once, for one period (${every.replace('every ', '')}); it does not renew`;
  return r.count > 1
    ? `${money} ${every}, ${r.count} payments (today's and ${r.count - 1} renewal${r.count > 2 ? 's' : ''}), charged to this card`
    : `${money} ${every}, starting today, then renews until cancelled, charged to this card`;
}

const typeOf = (c: PurchaseTarget) => (c.kind === 'hub' ? 'membership' : c.product.type);

/** Checks every item against the catalog and prices the link; `problems` collects what is wrong, by field. */
export function priceLink(body: PaymentLinkBody, catalog: PurchaseTarget[], now: Date, problems: ErrorDetail[]): Priced {
  const lineItems: LineItem[] = [];
  const purchases: Purchase[] = [];
  const currencies = new Set<string>();
  let tickets = 0;
  const seen = new Map<string, number>();

  catalog.forEach((c, i) => {
    const input = body.items[i];
    const at = (field: string) => `items[${i}].${field}`;
    const problem = (field: string, message: string) => problems.push({ field: at(field), index: i, message });
    const ownerId = c.kind === 'hub' ? c.hub.id : c.product.id;
    const title = c.kind === 'hub' ? c.hub.name : c.product.title;

    if (seen.has(ownerId)) problem('id', `buys the same ${c.kind} as items[${seen.get(ownerId)}]; use \`count\` to buy more than one`);
    seen.set(ownerId, i);
    if (c.kind === 'product' && c.product.status !== 'published') problem('id', `product "${c.product.title}" is ${c.product.status} and not on sale`);
    if (input.type !== typeOf(c)) problem('type', `must be "${typeOf(c)}", the ${c.kind === 'hub' ? 'type of a hub plan' : 'product\'s type'}; got "${input.type}"`);

    const { tier } = c;
    if (tier.archived || tier.status !== 'active') problem('plan', `tier "${tier.name}" is ${tier.archived ? 'archived' : tier.status} and not on sale`);
    if (tier.time_bound && tier.time_bound.getTime() <= now.getTime()) problem('plan', `the offer of tier "${tier.name}" ended at ${tier.time_bound.toISOString()}`);
    currencies.add(tier.currency);

    const hubId = membershipHub(c, input, problem);
    const count = input.count ?? 1;
    const once = tier.recurrence_periodic !== null || c.kind === 'hub';
    if (count > 1 && once) problem('count', `tier "${tier.name}" is a ${c.kind === 'hub' ? 'hub plan' : 'recurring plan'}, bought once per person; count must be 1`);

    const unit = unitPrice(tier, input, problem);
    const isEvent = c.kind === 'product' && c.product.type === 'event';
    if (isEvent) tickets += tier.no_of_tickets * count;

    const details: string[] = [];
    if (isEvent && tier.no_of_tickets > 1) details.push(`${tier.no_of_tickets} tickets each`);
    if (input.selected?.length) {
      const names = selectedItems(c, input.selected, problem);
      if (names.length) details.push(`Selected: ${names.join(', ')}`);
    }
    const recurrence: Recurrence | undefined = tier.recurrence_periodic
      ? { periodic: tier.recurrence_periodic, interval: tier.recurrence_interval ?? 1, count: tier.recurrence_count ?? 0, amount: unit }
      : undefined;
    lineItems.push({
      description: `${title} (${tier.name})`,
      product: title,
      tier: tier.name,
      ...(details.length ? { detail: details.join('. ') } : {}),
      unitAmount: unit,
      quantity: count,
      amount: unit * count,
      ...(recurrence ? { terms: recurrenceTerms(recurrence, tier.currency) } : {}),
    });
    purchases.push({ productId: c.kind === 'product' ? c.product.id : null, hubId, tierId: tier.id, count, ...(recurrence ? { recurrence } : {}) });
  });

  lineItems.push(...addonLines(body.addons ?? [], catalog, currencies, problems));

  const [currency] = currencies;
  if (currencies.size > 1) {
    problems.push({ field: 'items', message: `a payment link is paid in one currency; these items are priced in ${[...currencies].join(' and ')}` });
  }
  if (body.currency !== undefined && currency !== undefined && body.currency !== currency) {
    problems.push({ field: 'currency', message: `these items are priced in ${currency}; the catalog has no prices in ${body.currency} and there is no conversion` });
  }
  const amount = lineItems.reduce((sum, l) => sum + l.amount, 0);
  if (amount > 1e12) problems.push({ field: 'items', message: 'the total is more than a payment link can hold' });
  return { currency: currency ?? 'USD', amount, lineItems, purchases, tickets };
}

/** The hub a purchase also joins: the one the item names (it must be the product's hub), or the hub whose plan is bought. */
function membershipHub(c: PurchaseTarget, input: PaymentLinkItem, problem: (field: string, message: string) => void): string | null {
  if (c.kind === 'hub') {
    if (input.hubID !== undefined && input.hubID !== c.hub.id) problem('hubID', `must be "${c.hub.id}", the hub whose plan is bought`);
    return c.hub.id;
  }
  if (input.hubID === undefined) {
    // A membership product that belongs to a hub is one of the hub's plans: buying it joins the hub.
    return c.product.type === 'membership' ? c.product.hub_id : null;
  }
  if (input.hubID !== c.product.hub_id) {
    problem('hubID', c.product.hub_id
      ? `product "${c.product.title}" belongs to hub "${c.product.hub_id}", not "${input.hubID}"`
      : `product "${c.product.title}" does not belong to a hub`);
    return null;
  }
  return input.hubID;
}

/** The price of one unit of the tier: its price less its discount, or the buyer's amount on a pay-what-you-want tier. */
function unitPrice(tier: TierRow, input: PaymentLinkItem, problem: (field: string, message: string) => void): number {
  const listed = tier.price_amount - (tier.discount_amount ?? 0);
  if (input.customAmount === undefined) return listed;
  if (tier.type !== 'pay_what_you_want') {
    problem('customAmount', `applies only to pay-what-you-want tiers; tier "${tier.name}" is ${tier.type} at ${formatMoney(listed, tier.currency)}`);
    return listed;
  }
  const custom = toMinor(input.customAmount, tier.currency);
  if (custom === null) {
    problem('customAmount', `has more decimals than ${tier.currency} allows`);
    return listed;
  }
  if (custom < listed) {
    problem('customAmount', `may not be below the tier price of ${formatMoney(listed, tier.currency)}`);
    return listed;
  }
  return custom;
}

function selectedItems(c: PurchaseTarget, selected: string[], problem: (field: string, message: string) => void): string[] {
  const names: string[] = [];
  const items = c.kind === 'product' ? c.items : [];
  selected.forEach((id, j) => {
    const item = items.find((x) => x.id === id);
    if (selected.indexOf(id) !== j) problem(`selected[${j}]`, `"${id}" is listed twice`);
    else if (!item || !c.tier.item_ids.includes(id)) problem(`selected[${j}]`, `"${id}" is not an item included in tier "${c.tier.name}"`);
    else names.push(item.title);
  });
  return names;
}

function addonLines(addons: string[], catalog: PurchaseTarget[], currencies: Set<string>, problems: ErrorDetail[]): LineItem[] {
  const lines: LineItem[] = [];
  addons.forEach((id, j) => {
    const field = `addons[${j}]`;
    if (addons.indexOf(id) !== j) return void problems.push({ field, index: j, message: `"${id}" is listed twice; an add-on is bought once` });
    let found: { item: ItemRow; title: string } | undefined;
    for (const c of catalog) {
      const item = c.kind === 'product' ? c.items.find((x) => x.id === id) : undefined;
      if (item && c.kind === 'product') found = { item, title: c.product.title };
    }
    if (!found) return void problems.push({ field, index: j, message: `"${id}" is not an item of the products in this link` });
    const { item } = found;
    if (!item.is_addon || item.price_amount === null || !item.currency) {
      return void problems.push({ field, index: j, message: `"${item.title}" is not an add-on of "${found.title}"` });
    }
    // Kept only for what was sold before (docs/catalog.md): no longer on sale.
    if (item.archived) return void problems.push({ field, index: j, message: `add-on "${item.title}" is archived and not on sale` });
    currencies.add(item.currency);
    lines.push({ description: `${item.title} (add-on)`, unitAmount: item.price_amount, quantity: 1, amount: item.price_amount });
  });
  return lines;
}
