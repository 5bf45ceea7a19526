import type { CheckoutField, HubCreateParams, Item, Product, ProductCreateParams, ProductUpdateParams, Tier } from '@creator-commerce/sdk';
import type { Hub } from './types.ts';
import { shippingBody, shippingToForm, type ShippingForm } from './shipping-form.ts';

/**
 * The catalog editors' form state and the request bodies built from it. The form holds what the
 * inputs show (text); the body sends numbers where the text is a number and the text otherwise,
 * so the API (the one validator, shared with catalog files) reports the problem beside the field.
 * Lists go whole and in order, each entry with its id when it has one (PATCH matches by id).
 */

export const productTypes = ['digital', 'course', 'event', 'service', 'membership', 'physical'] as const;
export const productStatuses = ['draft', 'published', 'archived'] as const;
export const visibilities = ['public', 'unlisted', 'private'] as const;
export const tierTypes = ['free', 'one_off', 'recurring', 'pay_what_you_want'] as const;
export const periods = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export const eventTypes = ['in_person', 'online', 'hybrid'] as const;
export const checkoutFieldTypes = ['text', 'email', 'phone', 'number', 'select', 'checkbox', 'date'] as const;

let counter = 0;
/** A key for React lists and, for a new item, the `ref` tiers point at before it has an id. */
const newKey = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export interface TierForm {
  key: string;
  id?: string;
  name: string;
  /** 'auto' lets the API choose from the price and recurrence. */
  type: string;
  price: string;
  currency: string;
  discount: string;
  /** 'none' for a one-time price. */
  periodic: string;
  interval: string;
  count: string;
  perks: string;
  buttonText: string;
  slots: string;
  noOfTickets: string;
  isDefault: boolean;
  archived: boolean;
  status: string;
  itemIDs: string[];
}

export interface ItemForm {
  key: string;
  id?: string;
  type: string;
  title: string;
  description: string;
  image: string;
  /** Minutes, as a creator thinks of a lesson; the API stores seconds. */
  duration: string;
  isAddon: boolean;
  price: string;
  currency: string;
  parentId: string;
  archived: boolean;
  /** What buyers get (a file or a link), as stored; changed by its own calls, not by saving the form (docs/files.md). */
  content?: Item['content'];
}

export interface CheckoutFieldForm {
  key: string;
  id?: string;
  label: string;
  type: string;
  required: boolean;
  options: string;
}

export interface ProductForm {
  type: string;
  title: string;
  description: string;
  imageUrl: string;
  visibility: string;
  status: string;
  keywords: string;
  eventType: string;
  venue: string;
  dateTime: string;
  endDate: string;
  hadEvent: boolean;
  tiers: TierForm[];
  items: ItemForm[];
  checkoutFields: CheckoutFieldForm[];
  /** A physical product's delivery zones and pickup points (ShippingEditor). */
  shipping: ShippingForm;
}

export interface HubForm {
  name: string;
  description: string;
  tiers: TierForm[];
}

const text = (v: number | string | undefined | null) => (v === undefined || v === null ? '' : String(v));

export function emptyTier(currency = 'USD', name = ''): TierForm {
  return {
    key: newKey('tier'), name, type: 'auto', price: '', currency, discount: '', periodic: 'none', interval: '1', count: '0',
    perks: '', buttonText: '', slots: '', noOfTickets: '1', isDefault: false, archived: false, status: 'active', itemIDs: [],
  };
}

export function emptyItem(): ItemForm {
  return { key: newKey('item'), type: 'file', title: '', description: '', image: '', duration: '', isAddon: false, price: '', currency: 'USD', parentId: 'none', archived: false };
}

export function emptyCheckoutField(): CheckoutFieldForm {
  return { key: newKey('field'), label: '', type: 'text', required: false, options: '' };
}

export function emptyProductForm(): ProductForm {
  return {
    type: 'digital', title: '', description: '', imageUrl: '', visibility: 'public', status: 'published', keywords: '',
    eventType: 'online', venue: '', dateTime: '', endDate: '', hadEvent: false,
    tiers: [emptyTier('USD', 'Standard')], items: [], checkoutFields: [], shipping: shippingToForm(undefined),
  };
}

export function emptyHubForm(): HubForm {
  return { name: '', description: '', tiers: [emptyTier('USD', 'Member')] };
}

/** ISO → the value of an `<input type="datetime-local">` in the reader's time zone. */
export function toLocalInput(iso?: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function fromLocalInput(v: string): string | undefined {
  if (!v) return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? v : d.toISOString();
}

export function tierToForm(t: Tier): TierForm {
  return {
    key: t.id, id: t.id, name: t.name, type: t.type || 'auto', price: text(t.price.amount), currency: t.price.currency,
    discount: t.discount ? text(t.discount.amount) : '', periodic: t.recurrence?.periodic ?? 'none',
    interval: text(t.recurrence?.interval ?? 1), count: text(t.recurrence?.count ?? 0), perks: t.perks.join('\n'),
    buttonText: t.buttonText ?? '', slots: text(t.slots), noOfTickets: text(t.noOfTickets || 1), isDefault: t.isDefault,
    archived: t.archived, status: t.status || 'active', itemIDs: [...t.itemIDs],
  };
}

export function productToForm(p: Product): ProductForm {
  return {
    type: p.type, title: p.title, description: p.description ?? '', imageUrl: p.imageUrl ?? '', visibility: p.visibility,
    status: p.status, keywords: p.keywords.join(', '),
    eventType: p.event?.eventType ?? 'online', venue: p.event?.venue ?? '', dateTime: toLocalInput(p.event?.dateTime), endDate: toLocalInput(p.event?.endDate),
    hadEvent: !!p.event,
    tiers: p.tiers.map(tierToForm),
    items: p.items.map((i: Item & { archived?: boolean }) => ({
      key: i.id, id: i.id, type: i.type, title: i.title, description: i.description ?? '', image: i.image ?? '', duration: i.duration === undefined ? '' : String(Math.round((i.duration / 60) * 100) / 100),
      isAddon: i.isAddon, price: i.price ? text(i.price.amount) : '', currency: i.price?.currency ?? p.tiers[0]?.price.currency ?? 'USD',
      parentId: i.parentId ?? 'none', archived: !!i.archived, ...(i.content ? { content: i.content } : {}),
    })),
    checkoutFields: p.checkoutFields.map((f: CheckoutField) => ({
      key: f.id, id: f.id, label: f.label, type: f.type, required: f.required, options: (f.options ?? []).join(', '),
    })),
    shipping: shippingToForm(p.shipping),
  };
}

export function hubToForm(h: Hub): HubForm {
  return { name: h.name, description: h.description ?? '', tiers: h.tiers.map(tierToForm) };
}

/** A number when the text is one; the text itself otherwise (the API then names the field). */
function num(v: string): number | string {
  const t = v.trim();
  return t !== '' && Number.isFinite(Number(t)) ? Number(t) : t;
}
const optionalNum = (v: string) => (v.trim() === '' ? undefined : num(v));
const lines = (v: string) => v.split('\n').map((s) => s.trim()).filter(Boolean);
const commaList = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);
const optionalText = (v: string) => (v.trim() === '' ? undefined : v.trim());

/** Minutes typed → the API's whole seconds; text that is not a number goes as it is, for the API to name. */
function seconds(minutes: string): number | string {
  const n = num(minutes);
  return typeof n === 'number' ? Math.round(n * 60) : n;
}

/** Items are referred to by id, or by the key (sent as `ref`) while they are new. */
export const itemRef = (i: ItemForm) => i.id ?? i.key;

export function tierBody(t: TierForm, items?: ItemForm[]) {
  const known = items ? new Set(items.map(itemRef)) : undefined;
  return {
    ...(t.id ? { id: t.id } : {}),
    name: t.name,
    ...(t.type !== 'auto' ? { type: t.type } : {}),
    price: { amount: num(t.price), currency: t.currency.trim().toUpperCase() },
    ...(t.discount.trim() ? { discount: { amount: num(t.discount) } } : {}),
    ...(t.periodic !== 'none' ? { recurrence: { periodic: t.periodic, interval: num(t.interval || '1'), count: num(t.count || '0') } } : {}),
    perks: lines(t.perks),
    ...(optionalText(t.buttonText) ? { buttonText: t.buttonText.trim() } : {}),
    ...(optionalNum(t.slots) !== undefined ? { slots: optionalNum(t.slots) } : {}),
    noOfTickets: num(t.noOfTickets || '1'),
    isDefault: t.isDefault,
    archived: t.archived,
    status: t.status,
    ...(known ? { itemIDs: t.itemIDs.filter((id) => known.has(id)) } : {}),
  };
}

/**
 * The body of POST /products (create) or PATCH /products/{id} (edit: clears what was emptied).
 * Typed as the SDK's params, though a number field typed as text goes as that text (`num`), so
 * the API's 400 names the field in its words: the API, not this form, is the judge of the body.
 */
export function productBody(f: ProductForm, mode: 'create'): ProductCreateParams;
export function productBody(f: ProductForm, mode: 'edit'): ProductUpdateParams;
export function productBody(f: ProductForm, mode: 'create' | 'edit'): ProductCreateParams | ProductUpdateParams {
  const hasEvent = f.type === 'event' || !!(f.venue.trim() || f.dateTime);
  const event = hasEvent
    ? { eventType: f.eventType, venue: f.venue, dateTime: fromLocalInput(f.dateTime) ?? '', ...(f.endDate ? { endDate: fromLocalInput(f.endDate) } : {}) }
    : undefined;
  const clear = mode === 'edit' ? null : undefined;
  return {
    type: f.type,
    title: f.title,
    description: f.description,
    status: f.status,
    visibility: f.visibility,
    ...(f.imageUrl.trim() ? { imageUrl: f.imageUrl.trim() } : clear === null ? { imageUrl: null } : {}),
    keywords: commaList(f.keywords),
    ...(event ? { event } : f.hadEvent && clear === null ? { event: null } : {}),
    tiers: f.tiers.map((t) => tierBody(t, f.items)),
    items: f.items.map((i) => ({
      ...(i.id ? { id: i.id } : { ref: i.key }),
      type: i.type,
      title: i.title,
      ...(optionalText(i.description) ? { description: i.description.trim() } : {}),
      ...(optionalText(i.image) ? { image: i.image.trim() } : {}),
      ...(optionalNum(i.duration) !== undefined ? { duration: seconds(i.duration) } : {}),
      isAddon: i.isAddon,
      ...(i.price.trim() ? { price: { amount: num(i.price), currency: i.currency.trim().toUpperCase() } } : {}),
      ...(i.parentId !== 'none' ? { parentId: i.parentId } : {}),
      ...(i.archived ? { archived: true } : {}),
    })),
    checkoutFields: f.checkoutFields.map((c) => ({
      ...(c.id ? { id: c.id } : {}),
      label: c.label,
      type: c.type,
      required: c.required,
      ...(c.type === 'select' ? { options: commaList(c.options) } : {}),
    })),
    ...shippingBody(f.shipping, f.type, mode),
  } as ProductCreateParams;
}

/** The body of POST /hubs or PATCH /hubs/{id}; like productBody, numbers typed as text go as text for the API to name. */
export function hubBody(f: HubForm): HubCreateParams {
  return { name: f.name, description: f.description, tiers: f.tiers.map((t) => tierBody(t)) } as HubCreateParams;
}
