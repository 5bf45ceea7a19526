import type { PaymentLinkBody } from '../checkout/schemas.ts';
import type { CheckoutLinkRow } from './repository.ts';
import type { Offer } from './form-page.ts';
import { isBookable } from './slot-picker.ts';
import { shippingFromForm, shippingInputOf } from '../shipping/checkout-form.ts';

/**
 * The web checkout's form fields -> the body of POST /payment-links, so that the one service
 * (checkout/service.ts createPaymentLink, with checkout/form.ts and products/checkout-fields.ts)
 * judges a buyer's form exactly as it judges an API call. Here only what a form cannot say in
 * JSON is translated (a ticked box is `true`, a number field's text a number) and the limits the
 * API's schema enforces before its service runs are checked.
 */

const numberPattern = /^-?\d+(\.\d+)?$/;

export function toPaymentLinkBody(offer: Offer, values: Record<string, string>, link: CheckoutLinkRow): { body: PaymentLinkBody; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const text = (name: string, label: string, max: number) => {
    const v = (values[name] ?? '').trim();
    if (v.length > max) errors[name] = `${label} must be at most ${max} characters`;
    return v;
  };
  const formData: Record<string, string | number | boolean> = {
    fullName: text('fullName', 'Full name', 500),
    email: text('email', 'Email', 320),
  };
  if (!formData.fullName) errors.fullName = 'Full name is required';
  if (!formData.email) errors.email = 'Email is required';
  const phone = text('phone', 'Phone', 40);
  if (phone) formData.phone = phone;
  for (const f of offer.fields) {
    const raw = values[`field_${f.id}`];
    if (f.type === 'checkbox') {
      if (raw === 'on') formData[f.id] = true;
      continue;
    }
    if (raw === undefined || raw.trim() === '') continue;
    const v = raw.trim();
    formData[f.id] = f.type === 'number' && numberPattern.test(v) ? Number(v) : f.type === 'text' ? raw : v;
  }

  const guests: NonNullable<PaymentLinkBody['form']['guests']> = [];
  const extra = offer.product?.type === 'event' ? offer.tier.no_of_tickets - 1 : 0;
  for (let i = 1; i <= extra; i++) {
    const name = text(`guest${i}_name`, `Guest ${i} name`, 500);
    const email = text(`guest${i}_email`, `Guest ${i} email`, 320);
    if (!name) errors[`guest${i}_name`] = `Guest ${i} name is required`;
    if (!email) errors[`guest${i}_email`] = `Guest ${i} email is required`;
    guests.push({ id: `guest-${i}`, fullName: name || '-', email });
  }

  const item: PaymentLinkBody['items'][number] = {
    id: offer.product?.id ?? offer.hub!.id,
    plan: offer.tier.id,
    type: offer.product?.type ?? 'membership',
    // ?ref=CODE of the page's address: the affiliate the sale is attributed to (docs/affiliates.md).
    ...(values.ref ? { affiliate: values.ref.slice(0, 500) } : {}),
  };
  if (offer.tier.type === 'pay_what_you_want') {
    const amount = (values.customAmount ?? '').trim().replace(/,/g, '.');
    if (!amount) errors.customAmount = 'Your price is required';
    else if (!numberPattern.test(amount) || Number(amount) > 1e9) errors.customAmount = 'Your price must be an amount such as 25.00';
    else item.customAmount = Number(amount);
  }
  const addons = offer.items.filter((a) => a.is_addon && values[`addon_${a.id}`] === 'on').map((a) => a.id);

  // A bookable product: the slot picked (slot-picker.ts), in the buyer's zone for their confirmation.
  let booking: PaymentLinkBody['booking'];
  if (isBookable(offer)) {
    const startsAt = (values['booking.startsAt'] ?? '').trim();
    const timezone = (values['booking.timezone'] ?? '').trim();
    if (!startsAt) errors['booking.startsAt'] = 'Choose a time for your session';
    else if (Number.isNaN(Date.parse(startsAt)) || startsAt.length > 40) errors['booking.startsAt'] = 'The time chosen is not one of the times listed; choose one again';
    else booking = { startsAt, ...(timezone && timezone.length <= 64 ? { timezone } : {}) };
  }

  const coupon = text('coupon', 'Coupon', 100);

  const shipping = offer.shipping ? shippingFromForm(values) : {};
  // Delivered goods: the address's country is the buyer's country unless they typed another.
  const countryCode = (values.countryCode ?? '').trim() || (shipping.address?.country ?? '');
  if (!/^[A-Za-z]{2}$/.test(countryCode)) errors.countryCode = 'Country code must be two letters, such as US or PT';

  if (offer.shipping && !values.shipping) errors.shipping = 'Choose delivery or pickup';
  if (shipping.address && !shipping.address.country) errors.address_country = 'Country is required for delivery';

  const body: PaymentLinkBody = {
    items: [item],
    form: { formData: formData as PaymentLinkBody['form']['formData'], ...(guests.length ? { guests } : {}) },
    ...(addons.length ? { addons } : {}),
    ...(booking ? { booking } : {}),
    ...(coupon && !errors.coupon ? { coupon } : {}),
    ...(countryCode && !errors.countryCode ? { countryCode: countryCode.toUpperCase() } : {}),
    ...shipping,
    receive_emails: values.receive_emails === 'on',
    ...(link.redirect_url ? { redirectUrl: link.redirect_url } : {}),
    ...(values.utmRef ? { utmRef: values.utmRef.slice(0, 500) } : {}),
    ...(values.adClickID ? { adClickID: values.adClickID.slice(0, 500) } : {}),
    ...(values.adType === 'google' || values.adType === 'facebook' ? { adType: values.adType } : {}),
  };
  return { body, errors };
}

/** The form input a problem of the service (named by body field) belongs to, and its label; `_form` for the rest. */
export function fieldOfProblem(field: string | undefined, offer: Offer): { input: string; label: string } {
  const own = /^form\.formData\.(.+)$/.exec(field ?? '')?.[1];
  if (own === 'fullName') return { input: 'fullName', label: 'Full name' };
  if (own === 'email') return { input: 'email', label: 'Email' };
  if (own === 'phone') return { input: 'phone', label: 'Phone' };
  if (own) return { input: `field_${own}`, label: offer.fields.find((f) => f.id === own)?.label ?? own };
  const guest = /^form\.guests\[(\d+)\]\.(email|fullName)$/.exec(field ?? '');
  if (guest) {
    const n = Number(guest[1]) + 1;
    return guest[2] === 'email' ? { input: `guest${n}_email`, label: `Guest ${n} email` } : { input: `guest${n}_name`, label: `Guest ${n} name` };
  }
  if (/^items\[\d+\]\.customAmount$/.test(field ?? '')) return { input: 'customAmount', label: 'Your price' };
  if (field === 'countryCode') return { input: 'countryCode', label: 'Country code' };
  if (field === 'booking.startsAt' || field === 'booking') return { input: 'booking.startsAt', label: 'The time chosen' };
  if (field === 'booking.timezone') return { input: 'booking.timezone', label: 'Your time zone' };
  const shipping = shippingInputOf(field);
  if (shipping) return shipping;
  // The coupon's reasons start with 'coupon "X"' (coupons/apply.ts): they read as a sentence without a label.
  if (field === 'coupon') return { input: 'coupon', label: '' };
  if (/^items\[\d+\]\.affiliate$/.test(field ?? '')) return { input: '_form', label: 'Referral code (ref)' };
  return { input: '_form', label: '' };
}
