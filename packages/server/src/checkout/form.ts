import type { ErrorDetail } from '../errors.ts';
import type { CheckoutFieldRow } from '../products/repository.ts';
import type { PaymentLinkBody } from './schemas.ts';

/**
 * The buyer's answers (`form.formData`) against the checkout fields of the products bought, and
 * the guests of a multi-ticket event purchase. The schema has already checked fullName and email.
 */

const builtIn = new Set(['fullName', 'email', 'phone']);
const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const phoneShape = /^\+?[0-9][0-9 ().-]{3,30}$/;
const dateShape = /^\d{4}-\d{2}-\d{2}$/;

export interface BuyerForm {
  name: string;
  email: string;
  phone: string | null;
  /** The answers to the products' own checkout fields, keyed by field id. */
  answers: Record<string, string | number | boolean>;
}

export function checkForm(
  form: PaymentLinkBody['form'],
  fields: { productTitle: string; fields: CheckoutFieldRow[] }[],
  tickets: number,
  problems: ErrorDetail[],
): BuyerForm {
  const data = form.formData;
  const at = (key: string) => `form.formData.${key}`;
  const known = new Map<string, { field: CheckoutFieldRow; productTitle: string }>();
  for (const p of fields) for (const field of p.fields) known.set(field.id, { field, productTitle: p.productTitle });

  const answers: BuyerForm['answers'] = {};
  for (const [key, value] of Object.entries(data)) {
    if (builtIn.has(key)) continue;
    const entry = known.get(key);
    if (!entry) {
      problems.push({ field: at(key), message: `is not a checkout field of ${fields.map((p) => `"${p.productTitle}"`).join(' or ') || 'these items'}` });
      continue;
    }
    const wrong = checkValue(entry.field, value as string | number | boolean);
    if (wrong) problems.push({ field: at(key), message: wrong });
    else if (value !== '') answers[key] = value as string | number | boolean;
  }
  for (const [id, { field, productTitle }] of known) {
    const value = Object.hasOwn(data, id) ? (data as Record<string, unknown>)[id] : undefined; // a field named "constructor" is not answered by Object.prototype
    const missing = value === undefined || value === '' || (field.type === 'checkbox' && value === false);
    if (field.required && missing) problems.push({ field: at(id), message: `is required by "${productTitle}" (${field.label})` });
  }

  const phone = typeof data.phone === 'string' && data.phone.trim() !== '' ? data.phone.trim() : null;
  if (phone !== null && !phoneShape.test(phone)) problems.push({ field: at('phone'), message: 'is not a phone number (digits, spaces, + ( ) . - only)' });
  const name = data.fullName.trim();
  if (!name) problems.push({ field: at('fullName'), message: 'may not be blank' });
  if (!emailShape.test(data.email)) problems.push({ field: at('email'), message: 'is not a valid email address' });

  checkGuests(form.guests ?? [], tickets, problems);
  return { name, email: data.email.trim(), phone, answers };
}

function checkValue(field: CheckoutFieldRow, value: string | number | boolean): string | null {
  if (value === '') return null;
  switch (field.type) {
    case 'checkbox':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'number':
      return typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) ? null : 'must be a number';
    case 'select':
      return typeof value === 'string' && field.options?.includes(value) ? null : `must be one of ${(field.options ?? []).map((o) => `"${o}"`).join(', ')}`;
    case 'email':
      return typeof value === 'string' && emailShape.test(value) ? null : 'is not a valid email address';
    case 'phone':
      return typeof value === 'string' && phoneShape.test(value) ? null : 'is not a phone number';
    case 'date':
      return typeof value === 'string' && dateShape.test(value) && !Number.isNaN(Date.parse(value)) ? null : 'must be a date as YYYY-MM-DD';
    default:
      return typeof value === 'string' ? null : 'must be text';
  }
}

/** An event purchase of several tickets names one guest per ticket beyond the buyer's own. */
function checkGuests(guests: NonNullable<PaymentLinkBody['form']['guests']>, tickets: number, problems: ErrorDetail[]) {
  const needed = Math.max(tickets - 1, 0);
  if (needed === 0 && guests.length > 0) {
    problems.push({ field: 'form.guests', message: 'only applies to an event purchase of several tickets; this link holds '
      + (tickets === 1 ? 'one ticket, the buyer\'s' : 'no event tickets') });
    return;
  }
  if (guests.length !== needed) {
    problems.push({ field: 'form.guests', message: `this purchase holds ${tickets} tickets: name ${needed} guest${needed === 1 ? '' : 's'} (the buyer holds one ticket); got ${guests.length}` });
  }
  const ids = new Set<string>();
  guests.forEach((g, i) => {
    if (ids.has(g.id)) problems.push({ field: `form.guests[${i}].id`, index: i, message: `"${g.id}" is used by another guest` });
    ids.add(g.id);
    if (!emailShape.test(g.email)) problems.push({ field: `form.guests[${i}].email`, index: i, message: 'is not a valid email address' });
  });
}
