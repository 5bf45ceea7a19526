import type { ErrorDetail } from '@creator-commerce/sdk';

/**
 * The API's validation errors (`400 validation_failed`, `data.details[]`) by field path, so each
 * shows beside its input, in the words a creator reads rather than the validator's
 * (`must NOT have fewer than 1 characters` becomes "Enter a title"). Paths come as
 * `tiers[1].price.amount` from the schema check and may come as `tiers.1.price.amount` from a
 * rule; both are read as the bracket form. Every editor of the catalog (product, hub, tier, item,
 * checkout field, coupon, affiliate) reads its errors through here, so the words live in one place.
 */
export function normalisePath(path: string): string {
  return path.replace(/^\//, '').replaceAll('/', '.').replace(/\.(\d+)(?=\.|\[|$)/g, '[$1]').replace(/^body\./, '');
}

interface Noun {
  /** What the field holds, as a sentence names it after "The": "price", "start date and time". */
  noun: string;
  /** How a person fills it: typed in, or picked from a list. */
  verb?: 'Enter' | 'Choose' | 'Add';
  /** The article before the noun when asking for it: "Enter a title", "Choose the billing period". */
  article?: 'a' | 'an' | 'the' | '';
}

/**
 * The field names of the catalog's and coupons' bodies (catalog/fields.ts, coupons/schemas.ts),
 * read from the end of the path: `tiers[0].price.amount` is found as `price.amount`.
 */
const nouns: Record<string, Noun> = {
  title: { noun: 'title', article: 'a' },
  name: { noun: 'name', article: 'a' },
  description: { noun: 'description', article: 'a' },
  type: { noun: 'type', verb: 'Choose', article: 'a' },
  status: { noun: 'status', verb: 'Choose', article: 'a' },
  visibility: { noun: 'visibility', verb: 'Choose', article: '' },
  keywords: { noun: 'keywords', article: '' },
  imageUrl: { noun: 'image address', article: 'an' },
  image: { noun: 'image address', article: 'an' },
  currency: { noun: 'currency', verb: 'Choose', article: 'a' },
  price: { noun: 'price', article: 'a' },
  'price.amount': { noun: 'price', article: 'a' },
  'price.currency': { noun: 'currency', verb: 'Choose', article: 'a' },
  discount: { noun: 'discount', article: 'a' },
  'discount.amount': { noun: 'discount', article: 'a' },
  'discount.currency': { noun: 'discount\'s currency', verb: 'Choose', article: 'the' },
  recurrence: { noun: 'billing', verb: 'Choose', article: '' },
  'recurrence.periodic': { noun: 'billing period', verb: 'Choose', article: 'a' },
  'recurrence.interval': { noun: 'billing interval', article: 'a' },
  'recurrence.count': { noun: 'number of periods', article: 'the' },
  perks: { noun: 'perk', article: 'a' },
  buttonText: { noun: 'button text', article: '' },
  slots: { noun: 'number of places', article: 'the' },
  noOfTickets: { noun: 'number of tickets per purchase', article: 'the' },
  itemIDs: { noun: 'included item', verb: 'Choose', article: 'an' },
  duration: { noun: 'duration', article: 'a' },
  parentId: { noun: 'item it sits inside', verb: 'Choose', article: 'the' },
  label: { noun: 'question', article: 'a' },
  options: { noun: 'choices', article: 'the' },
  tiers: { noun: 'tier', verb: 'Add', article: 'a' },
  items: { noun: 'item', verb: 'Add', article: 'an' },
  event: { noun: 'event\'s date, time and venue', article: 'the' },
  'event.eventType': { noun: 'event type', verb: 'Choose', article: 'an' },
  'event.venue': { noun: 'venue or link', article: 'a' },
  'event.dateTime': { noun: 'start date and time', article: 'a' },
  'event.endDate': { noun: 'end date and time', article: 'an' },
  code: { noun: 'code', article: 'a' },
  percentOff: { noun: 'percent off', article: 'the' },
  amountsOff: { noun: 'amount off', article: 'the' },
  'amountsOff.amount': { noun: 'amount off', article: 'the' },
  'amountsOff.currency': { noun: 'currency', verb: 'Choose', article: 'a' },
  minimumAmounts: { noun: 'minimum order', article: 'a' },
  'minimumAmounts.amount': { noun: 'minimum order', article: 'a' },
  'minimumAmounts.currency': { noun: 'currency', verb: 'Choose', article: 'a' },
  durationPeriods: { noun: 'number of payments discounted', article: 'the' },
  maxRedemptions: { noun: 'total uses', article: 'the' },
  maxPerCustomer: { noun: 'uses per customer', article: 'the' },
  startsAt: { noun: 'start date', article: 'a' },
  endsAt: { noun: 'end date', article: 'an' },
  appliesTo: { noun: 'products and hubs it applies to', verb: 'Choose', article: 'the' },
  email: { noun: 'email address', article: 'an' },
  commissionPercent: { noun: 'commission', article: 'a' },
};

/** The noun of a path: the longest ending of it (indexes dropped) that the table knows. */
function nounOf(path: string): Noun {
  const parts = path.replace(/\[\d+\]/g, '').split('.').filter(Boolean);
  for (let i = 0; i < parts.length; i++) {
    const known = nouns[parts.slice(i).join('.')];
    if (known) return known;
  }
  const last = parts.at(-1) ?? '';
  // camelCase to words: an unknown field still reads as words, not as a key.
  return { noun: last.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase() || 'value', article: 'a' };
}

const ask = (n: Noun) => `${n.verb ?? 'Enter'} ${n.article ? `${n.article} ` : ''}${n.noun}`;
const sentence = (s: string) => {
  const t = s.trim();
  return t ? t[0].toUpperCase() + t.slice(1) : t;
};

/** One API message about one field, as a sentence a creator reads beside that field. */
export function inWords(path: string, message: string): string {
  const n = nounOf(normalisePath(path));
  const The = `The ${n.noun}`;
  const m = message.trim().replace(/\.$/, '');
  let r: RegExpMatchArray | null;
  if (/^must NOT have fewer than 1 (characters|items)$/.test(m) || /^must have required property/.test(m) || m === 'is missing' || m === 'is required') return ask(n);
  if ((r = m.match(/^must NOT have fewer than (\d+) items$/))) return `${n.verb ?? 'Add'} at least ${r[1]} ${n.noun}s`;
  if ((r = m.match(/^must NOT have fewer than (\d+) characters$/))) return `${The} needs at least ${r[1]} characters`;
  if ((r = m.match(/^must NOT have more than (\d+) characters$/))) return `${The} can be at most ${r[1]} characters long`;
  if ((r = m.match(/^must NOT have more than (\d+) items$/))) return `Use at most ${r[1]}`;
  if ((r = m.match(/^must be >= (-?[\d.]+)$/))) return `${The} must be ${r[1]} or more`;
  if ((r = m.match(/^must be > (-?[\d.]+)$/))) return `${The} must be more than ${r[1]}`;
  if ((r = m.match(/^must be <= (-?[\d.]+)$/))) return `${The} must be ${r[1]} or less`;
  if ((r = m.match(/^must be < (-?[\d.]+)$/))) return `${The} must be less than ${r[1]}`;
  if (m === 'must be integer') return `Enter the ${n.noun} as a whole number`;
  if (m === 'must be number' || m === 'must be number,null' || m === 'must be integer,null') return `Enter the ${n.noun} as a number`;
  if (m === 'must be string' || m === 'must be string,null') return ask(n);
  if (m === 'must be boolean') return `Tick or untick the ${n.noun}`;
  if (/^must match format "uri"$/.test(m) || /^must match pattern "\^https\?/.test(m)) return 'Enter a full web address, starting with https://';
  if (/^must match format "(date-time|date)"$/.test(m)) return ask(n);
  if (/^must match format "email"$/.test(m)) return 'Enter an email address, such as name@example.com';
  if (/^must match pattern "\^\[A-Z\]\{3\}\$"$/.test(m)) return 'Choose a currency';
  if (/^must match pattern/.test(m)) return `${The} has characters it cannot have`;
  if (/^must be one of /.test(m) || /^must be equal to one of the allowed values$/.test(m)) return ask({ ...n, verb: 'Choose' });
  if (m === 'is not a known field') return `${sentence(n.noun)} is not something this form can set`;
  // The service's own rules (catalog/rules.ts, coupons) already speak of the thing; say which.
  if ((r = m.match(/^has more decimals than (\w+) allows$/))) return `${The} has more decimals than ${r[1]} allows`;
  if (m === 'is more than the price') return 'The discount is more than the price';
  if (m === 'at most one tier may be isDefault') return 'Only one tier can be the default';
  if (m === 'all tiers of a product must use one currency') return 'Use one currency for every tier';
  if (m === 'is required for an add-on') return 'Enter a price: buyers pay for an add-on';
  if (m === 'is required for an event product') return 'Enter the event\'s date, time and venue';
  if (m === 'is required for a select field') return 'Enter the choices buyers pick from';
  if ((r = m.match(/^must be the price's currency, (\w+)$/))) return `Use the price's currency, ${r[1]}`;
  if ((r = m.match(/^"(.+)" is not an item of this product$/))) return 'Choose an item of this product';
  if ((r = m.match(/^gives the id "(.+)", which is built in; do not declare it$/))) return `Checkout always asks this (${r[1]}): remove the question or word it differently`;
  if ((r = m.match(/^gives the id "(.+)", as checkoutFields\[\d+\] does; ids must be unique$/))) return 'Another question has the same wording: make each one different';
  // A rule that starts with its verb ("must …", "is …") reads after the noun; one that is already a sentence stays.
  return /^(must|is|has|cannot|can|should|needs?) /.test(m) ? `${The} ${m}` : sentence(m);
}

export class FieldErrors {
  readonly byPath: Map<string, string>;
  constructor(details: ErrorDetail[] = []) {
    this.byPath = new Map();
    for (const d of details) {
      const path = normalisePath(d.field ?? '');
      if (!this.byPath.has(path)) this.byPath.set(path, inWords(path, d.message));
    }
  }

  /** The message for exactly this field. */
  get(path: string): string | undefined {
    return this.byPath.get(path);
  }

  /** Messages for paths under `prefix` that no input shows (e.g. a whole tier), in words. */
  under(prefix: string, shown: (path: string) => boolean): string[] {
    return [...this.byPath].filter(([p]) => (p === prefix || p.startsWith(`${prefix}.`) || p.startsWith(`${prefix}[`)) && !shown(p)).map(([, m]) => m);
  }

  get size() { return this.byPath.size; }
}

export const noErrors = new FieldErrors();

/** The line above a form that the API refused: a count when the fields say what is wrong, else the API's own sentence. */
export function formProblem(errors: FieldErrors): string | undefined {
  if (!errors.size) return undefined;
  return errors.size === 1 ? 'One field needs a change: see the message beside it.' : `${errors.size} fields need a change: see the messages beside them.`;
}
