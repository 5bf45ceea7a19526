import type { ErrorDetail } from '../errors.ts';
import { checkCheckoutFields, isEmail, isPhone, storable, unstorable, type Answer } from '../products/checkout-fields.ts';
import type { CheckoutFieldRow } from '../products/repository.ts';
import type { PaymentLinkBody } from './schemas.ts';

/**
 * The buyer's answers (`form.formData`) against the checkout fields of the products bought
 * (products/checkout-fields.ts has the one rule per field type), and the guests of a
 * multi-ticket event purchase. The schema has already checked fullName and email are strings.
 */

const builtIn = new Set(['fullName', 'email', 'phone']);

export interface BuyerForm {
  name: string;
  email: string;
  phone: string | null;
  /** The answers to the products' own checkout fields, keyed by field id. */
  answers: Record<string, Answer>;
}

export function checkForm(
  form: PaymentLinkBody['form'],
  fields: { productTitle: string; fields: CheckoutFieldRow[] }[],
  tickets: number,
  problems: ErrorDetail[],
): BuyerForm {
  const data = form.formData as Record<string, unknown> & { fullName: string; email: string; phone?: unknown };
  const at = (key: string) => `form.formData.${key}`;
  const titles = fields.map((p) => `"${p.productTitle}"`).join(' or ') || 'these items';
  const own = Object.fromEntries(Object.entries(data).filter(([key]) => !builtIn.has(key)));
  const checked = checkCheckoutFields(fields.flatMap((p) => p.fields), own, {
    requireAnswers: true,
    unknownField: () => `is not a checkout field of ${titles}`,
    missing: (field) => `is required by "${fields.find((p) => p.fields.includes(field))?.productTitle}" (${field.label})`,
  });
  for (const p of checked.problems) problems.push({ field: at(p.field!), message: p.message });

  const rawPhone = data.phone;
  let phone: string | null = null;
  if (rawPhone !== undefined && rawPhone !== null && rawPhone !== '') {
    if (typeof rawPhone !== 'string' || !isPhone(rawPhone.trim())) problems.push({ field: at('phone'), message: 'is not a phone number (digits, spaces, + ( ) . - only, at least 5 digits)' });
    else phone = rawPhone.trim();
  }
  const name = data.fullName.trim();
  if (!name) problems.push({ field: at('fullName'), message: 'may not be blank' });
  else if (!storable(name)) problems.push({ field: at('fullName'), message: unstorable });
  if (!isEmail(data.email.trim())) problems.push({ field: at('email'), message: 'is not a valid email address' });
  checkGuests(form.guests ?? [], tickets, problems);
  return { name, email: data.email.trim(), phone, answers: checked.answers };
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
    if (!isEmail(g.email.trim())) problems.push({ field: `form.guests[${i}].email`, index: i, message: 'is not a valid email address' });
  });
}
