import { toMajor } from '../money.ts';

/**
 * Every kind of mail the service sends, in one table: who it goes to, its class, and its content
 * as plain blocks (a heading, paragraphs, a table of facts, a button). templates.ts renders the
 * same blocks twice, as MJML HTML and as the plain-text part, so the two never disagree.
 */

export interface MailContent {
  subject: string;
  /** One line shown by mail programs after the subject. */
  preview: string;
  heading: string;
  paragraphs: string[];
  /** Label / value rows (what was bought, amount, reference…). */
  facts?: [string, string][];
  button?: { label: string; url: string };
  /** A quieter last line (why you got this mail). */
  footer?: string;
  /** Marketing mail: the one-click unsubscribe address, linked under the footer (and in List-Unsubscribe). */
  unsubscribeUrl?: string;
}

/** What every template may use about the brand it speaks for. */
export interface BrandLook {
  name: string;
  colour: string;
  /** The service's PUBLIC_URL, for links into the dashboard. */
  publicUrl: string;
  /** The brand's logo (its profile's https logoUrl), shown above its name. */
  logoUrl?: string;
}

interface KindSpec<D> {
  /** buyer: the brand's customers (a brand may turn these off); owner: the brand's owners; account: a dashboard user. */
  audience: 'buyer' | 'owner' | 'account';
  class: 'transactional' | 'marketing';
  /** false: a buyer kind the brand cannot turn off (the checkout's code, the portal's sign-in link: without them nobody could pay or get in). */
  optional?: false;
  title: string;
  content(data: D, brand: BrandLook): MailContent;
}

const money = (minor: number, currency: string) => {
  const major = toMajor(minor, currency);
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(major);
  } catch {
    return `${major} ${currency}`;
  }
};
const time = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const day = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

export interface ReceiptLine { description: string; amount: number }

export interface ReceiptData {
  buyerName: string;
  item: string;
  /** What was bought, line by line (minor units), when the payment came from a link. */
  lines?: ReceiptLine[];
  /** Minor units. */
  amount: number;
  currency: string;
  txref: string;
  paidAt: string;
  type: 'purchase' | 'renewal';
  invoiceNumber?: string;
  invoiceUrl?: string;
  /** The session a bookable product's payment booked (docs/bookings.md); the mail carries it as an .ics file too. */
  booking?: ReceiptBooking;
  /** The brand's buyer portal (`/portal/{brand}`, under PUBLIC_URL), where the buyer signs in by email (portal/). */
  portalPath?: string;
  /** The invoice's PDF in the portal (`/portal/{brand}/invoices/{txref}`): signed in, it opens; else sign-in leads back to it. */
  invoicePath?: string;
}

export interface ReceiptBooking { id: string; title: string; startsAt: string; endsAt: string; timezone: string }

/** "Tuesday 8 June 2027, 04:00–04:30 (America/New_York)": a session in the buyer's zone. */
export function sessionWhen(b: ReceiptBooking): string {
  const zone = b.timezone;
  const opts = { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;
  try {
    const date = new Date(b.startsAt).toLocaleDateString('en-GB', { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
    return `${date}, ${new Date(b.startsAt).toLocaleTimeString('en-GB', opts)}–${new Date(b.endsAt).toLocaleTimeString('en-GB', opts)} (${zone})`;
  } catch {
    return `${time(b.startsAt)} – ${time(b.endsAt)}`;
  }
}

export interface RenewalFailedData {
  buyerName: string;
  item: string;
  amount: number;
  currency: string;
  txref: string;
  reason: string | null;
  /** The buyer portal's "Update card" for this membership (`/portal/{brand}/memberships/{id}/card`, under PUBLIC_URL). */
  cardPath?: string;
}

export interface MembershipEndedData { buyerName: string; item: string; endedAt: string }

export interface CancellationData {
  buyerName: string;
  item: string;
  /** Access lasts until then (cancelled at period end), or null when it ended now. */
  accessUntil: string | null;
}

export interface RefundData {
  buyerName: string;
  item: string;
  /** Minor units: this refund, and all refunds of the payment so far. */
  amount: number;
  refundedTotal: number;
  /** Minor units: what was paid. */
  paid: number;
  currency: string;
  txref: string;
  refundId: string;
  reason: string | null;
  refundedAt: string;
  /** The refund ended the access the payment bought. */
  accessEnded: boolean;
}

export interface SubscriptionEndingData {
  buyerName: string;
  item: string;
  /** The end of the last paid period: access ends then, nothing more is charged. */
  endsAt: string;
  /** Periods paid, all of them (the tier's count). */
  periods: number;
}

export interface EndpointDisabledData { url: string; endpointId: string; mode: string; reason: string; dashboardPath: string }

export interface PayoutSettledData {
  payoutId: string; amount: number; fee: number; currency: string; transactionCount: number;
  periodStart: string; periodEnd: string; mode: string; dashboardPath: string;
}

export interface TeamInviteData { brandName: string; inviterName: string; role: string; link: string; expiresAt: string }

export interface PasswordResetData { link: string; expiresAt: string }

export interface CheckoutCodeData { buyerName: string; code: string; expiresAt: string }

export interface EmailVerificationData { name: string; link: string; expiresAt: string }
/** Marketing: what a creator added or replaced in a product a buyer has, when they chose to tell buyers (mail/content-news.ts). */
export interface NewContentData {
  buyerName: string;
  product: string;
  item: string;
  /** A new file in place of the old one, or content where there was none. */
  change: 'replaced' | 'added';
  /** The buyer portal (`/portal/{brand}` under PUBLIC_URL), where it is downloaded. */
  portalPath?: string;
  /** The signed one-click unsubscribe address (mail/unsubscribe.ts). */
  unsubscribeUrl: string;
}

/** A physical order on its way (docs/shipping.md): where it goes and how to follow it. */
export interface OrderShippedData {
  buyerName: string;
  item: string;
  txref: string;
  carrier: string;
  trackingNumber: string;
  trackingUrl?: string;
  /** The address, one line per part, as it goes on the parcel. */
  address: string[];
  shippedAt: string;
}

/** A physical order waiting at its pickup point. */
export interface OrderReadyForPickupData {
  buyerName: string;
  item: string;
  txref: string;
  location: string;
  address: string[];
  openingHours: string;
}

/** The buyer portal's one-time sign-in link (portal/, docs/portal.md). */
export interface PortalSignInData { link: string; expiresAt: string }

function spec<D>(s: KindSpec<D>): KindSpec<D> {
  return s;
}

export const mailKinds = {
  receipt: spec<ReceiptData>({
    audience: 'buyer',
    class: 'transactional',
    title: 'Receipt for a payment or renewal',
    content: (d, brand) => ({
      subject: `Your receipt from ${brand.name}`,
      preview: `${money(d.amount, d.currency)} for ${d.item}`,
      heading: d.type === 'renewal' ? 'Your membership renewed' : 'Thank you for your purchase',
      paragraphs: [
        `Hi ${d.buyerName}, we received your payment of ${money(d.amount, d.currency)}.`,
        ...(d.booking ? [`Your booking is confirmed: ${sessionWhen(d.booking)}. The attached calendar file (booking.ics) adds it to your calendar.`] : []),
      ],
      facts: [
        ...(d.lines?.length ? d.lines.map((l): [string, string] => [l.description, money(l.amount, d.currency)]) : [['Item', d.item] as [string, string]]),
        ...(d.booking ? [['When', sessionWhen(d.booking)] as [string, string]] : []),
        ['Total', money(d.amount, d.currency)],
        ['Date', day(d.paidAt)],
        ['Reference', d.txref],
        ...(d.invoiceNumber ? [['Invoice', d.invoiceNumber] as [string, string]] : []),
      ],
      ...(d.portalPath ? { paragraphs: [
        `Hi ${d.buyerName}, we received your payment of ${money(d.amount, d.currency)}.`,
        `Your purchases, downloads and invoices are in your account with ${brand.name}: ${brand.publicUrl}${d.portalPath} (sign in with this email address).`,
      ] } : {}),
      ...(d.invoiceUrl || d.invoicePath ? { button: { label: 'View invoice', url: d.invoiceUrl ?? `${brand.publicUrl}${d.invoicePath}` } }
        : d.portalPath ? { button: { label: 'Your purchases and downloads', url: `${brand.publicUrl}${d.portalPath}` } } : {}),
      footer: `You get this receipt because you paid ${brand.name}. Keep it for your records.`,
    }),
  }),
  renewal_failed: spec<RenewalFailedData>({
    audience: 'buyer',
    class: 'transactional',
    title: 'A renewal payment failed',
    content: (d, brand) => ({
      subject: `Your ${brand.name} renewal payment failed`,
      preview: `We could not charge ${money(d.amount, d.currency)} for ${d.item}`,
      heading: 'Your renewal payment failed',
      paragraphs: [
        `Hi ${d.buyerName}, we could not charge ${money(d.amount, d.currency)} for ${d.item}${d.reason ? `: ${d.reason.charAt(0).toLowerCase()}${d.reason.slice(1)}` : '.'}`,
        'Your access continues while we try again over the next days. If every try fails, your membership ends and we will tell you.',
        ...(d.cardPath ? ['Update your card and we try again at once. You can also stop the retries there, which ends your membership.'] : []),
      ],
      facts: [['Item', d.item], ['Amount', money(d.amount, d.currency)], ['Reference', d.txref]],
      ...(d.cardPath ? { button: { label: 'Update your card', url: `${brand.publicUrl}${d.cardPath}` } } : {}),
      footer: `You get this mail because you have a membership with ${brand.name}.`,
    }),
  }),
  membership_ended: spec<MembershipEndedData>({
    audience: 'buyer',
    class: 'transactional',
    title: 'A membership ended',
    content: (d, brand) => ({
      subject: `Your ${brand.name} membership has ended`,
      preview: `${d.item} ended on ${day(d.endedAt)}`,
      heading: 'Your membership has ended',
      paragraphs: [`Hi ${d.buyerName}, your membership ${d.item} ended on ${day(d.endedAt)}. Thank you for being a member.`],
      footer: `You get this mail because you had a membership with ${brand.name}.`,
    }),
  }),
  cancellation: spec<CancellationData>({
    audience: 'buyer',
    class: 'transactional',
    title: 'Cancellation confirmation',
    content: (d, brand) => ({
      subject: `Your ${brand.name} membership is cancelled`,
      preview: d.accessUntil ? `Access until ${day(d.accessUntil)}` : 'Your access has ended',
      heading: 'Your cancellation is confirmed',
      paragraphs: [
        d.accessUntil
          ? `Hi ${d.buyerName}, ${d.item} will not renew. You keep access until ${day(d.accessUntil)}, and you will not be charged again.`
          : `Hi ${d.buyerName}, ${d.item} is cancelled and your access has ended. You will not be charged again.`,
      ],
      footer: `You get this mail because you had a membership with ${brand.name}.`,
    }),
  }),
  refund: spec<RefundData>({
    audience: 'buyer',
    class: 'transactional',
    title: 'Refund confirmation',
    content: (d, brand) => ({
      subject: `Your refund from ${brand.name}`,
      preview: `${money(d.amount, d.currency)} back for ${d.item}`,
      heading: 'Your refund is on its way',
      paragraphs: [
        `Hi ${d.buyerName}, ${brand.name} refunded ${money(d.amount, d.currency)} of your payment for ${d.item}${d.reason ? `: ${d.reason}` : '.'}`,
        'It goes back to the card you paid with; banks usually show it within 5 to 10 business days.',
        d.accessEnded ? `Your access to ${d.item} has ended with this refund.` : `Your access to ${d.item} is not affected.`,
      ],
      facts: [
        ['Item', d.item],
        ['Refunded', money(d.amount, d.currency)],
        ...(d.refundedTotal !== d.amount ? [['Refunded in all', `${money(d.refundedTotal, d.currency)} of ${money(d.paid, d.currency)}`] as [string, string]] : []),
        ['Date', day(d.refundedAt)],
        ['Payment', d.txref],
        ['Refund', d.refundId],
      ],
      footer: `You get this mail because you paid ${brand.name}. Keep it with your receipt.`,
    }),
  }),
  subscription_ending: spec<SubscriptionEndingData>({
    audience: 'buyer',
    class: 'transactional',
    title: 'A subscription enters its last period',
    content: (d, brand) => ({
      subject: `Your ${brand.name} subscription ends on ${day(d.endsAt)}`,
      preview: `${d.item}: this is the last period`,
      heading: `Your subscription ends on ${day(d.endsAt)}`,
      paragraphs: [
        `Hi ${d.buyerName}, this is the last of the ${d.periods} periods of ${d.item} you signed up for.`,
        `You keep access until ${day(d.endsAt)}. It will not renew and you will not be charged again.`,
      ],
      facts: [['Item', d.item], ['Ends', day(d.endsAt)], ['Periods', String(d.periods)]],
      footer: `You get this mail because you have a membership with ${brand.name}.`,
    }),
  }),
  endpoint_disabled: spec<EndpointDisabledData>({
    audience: 'owner',
    class: 'transactional',
    title: 'A webhook endpoint was disabled (to owners)',
    content: (d, brand) => ({
      subject: `A webhook endpoint of ${brand.name} was disabled`,
      preview: d.url,
      heading: 'A webhook endpoint was disabled',
      paragraphs: [
        `We stopped sending events to ${d.url} (${d.mode} mode): ${d.reason}.`,
        'Events are still recorded. Fix the receiver, enable the endpoint again, and resend what it missed from the delivery log.',
      ],
      facts: [['Endpoint', d.endpointId], ['URL', d.url], ['Mode', d.mode]],
      button: { label: 'Open the endpoint', url: `${brand.publicUrl}${d.dashboardPath}` },
      footer: `You get this mail because you are an owner of ${brand.name}.`,
    }),
  }),
  payout_settled: spec<PayoutSettledData>({
    audience: 'owner',
    class: 'transactional',
    title: 'A payout was settled (to owners)',
    content: (d, brand) => ({
      subject: `${brand.name}: payout of ${money(d.amount, d.currency)} settled`,
      preview: `${d.transactionCount} transactions, ${day(d.periodStart)} to ${day(d.periodEnd)}`,
      heading: 'A payout was settled',
      paragraphs: [`${money(d.amount, d.currency)} (after ${money(d.fee, d.currency)} in fees) from ${d.transactionCount} transactions was settled${d.mode === 'test' ? ' in test mode' : ''}.`],
      facts: [
        ['Payout', d.payoutId], ['Net amount', money(d.amount, d.currency)], ['Fees', money(d.fee, d.currency)],
        ['Transactions', String(d.transactionCount)], ['Period', `${day(d.periodStart)} – ${day(d.periodEnd)}`],
      ],
      button: { label: 'See payouts', url: `${brand.publicUrl}${d.dashboardPath}` },
      footer: `You get this mail because you are an owner of ${brand.name}.`,
    }),
  }),
  new_content: spec<NewContentData>({
    audience: 'buyer',
    class: 'marketing',
    title: 'New content in a product (marketing: only to buyers who opted in)',
    content: (d, brand) => ({
      subject: `New in ${d.product}: ${d.item}`,
      preview: d.change === 'replaced' ? `A new version of ${d.item}` : `${d.item} is ready for you`,
      heading: `New in ${d.product}`,
      paragraphs: [
        d.change === 'replaced'
          ? `Hi ${d.buyerName}, ${brand.name} published a new version of ${d.item} in ${d.product}, which you have. Your downloads give you the new one from now on.`
          : `Hi ${d.buyerName}, ${brand.name} added ${d.item} to ${d.product}, which you have. It is ready for you now.`,
        ...(d.portalPath ? [`Open it from your purchases with ${brand.name} (sign in with this email address).`] : []),
      ],
      ...(d.portalPath ? { button: { label: 'Open my purchases', url: `${brand.publicUrl}${d.portalPath}` } } : {}),
      footer: `You get this mail because you agreed to hear from ${brand.name} when you bought ${d.product}.`,
      unsubscribeUrl: d.unsubscribeUrl,
    }),
  }),
  portal_sign_in: spec<PortalSignInData>({
    audience: 'buyer',
    class: 'transactional',
    optional: false,
    title: 'Sign-in link to the buyer portal',
    content: (d, brand) => ({
      subject: `Your sign-in link for ${brand.name}`,
      preview: 'See your purchases, downloads and memberships',
      heading: `Sign in to ${brand.name}`,
      paragraphs: [
        `Use this link to see your purchases and memberships with ${brand.name}, download what you bought, and manage your subscription.`,
        `The link works once, until ${time(d.expiresAt)}.`,
      ],
      button: { label: 'Open my purchases', url: d.link },
      footer: 'If you did not ask for this link, ignore this mail: nobody can sign in without it.',
    }),
  }),
  order_shipped: spec<OrderShippedData>({
    audience: 'buyer',
    class: 'transactional',
    title: 'An order was shipped',
    content: (d, brand) => ({
      subject: `Your ${brand.name} order is on its way`,
      preview: `${d.item}, sent with ${d.carrier}: ${d.trackingNumber}`,
      heading: 'Your order is on its way',
      paragraphs: [
        `Hi ${d.buyerName}, ${brand.name} sent ${d.item} with ${d.carrier} on ${day(d.shippedAt)}.`,
        `It goes to: ${d.address.join(', ')}.`,
      ],
      facts: [['Item', d.item], ['Carrier', d.carrier], ['Tracking number', d.trackingNumber], ['Reference', d.txref]],
      ...(d.trackingUrl ? { button: { label: 'Track the parcel', url: d.trackingUrl } } : {}),
      footer: `You get this mail because you bought a physical product from ${brand.name}.`,
    }),
  }),
  order_ready_for_pickup: spec<OrderReadyForPickupData>({
    audience: 'buyer',
    class: 'transactional',
    title: 'An order is ready for pickup',
    content: (d, brand) => ({
      subject: `Your ${brand.name} order is ready for pickup`,
      preview: `${d.item} is waiting at ${d.location}`,
      heading: 'Your order is ready for pickup',
      paragraphs: [
        `Hi ${d.buyerName}, ${d.item} is waiting for you at ${d.location}, ${d.address.join(', ')}.`,
        `Opening hours: ${d.openingHours}. Bring this mail or the reference below.`,
      ],
      facts: [['Item', d.item], ['Where', [d.location, ...d.address].join(', ')], ['Opening hours', d.openingHours], ['Reference', d.txref]],
      footer: `You get this mail because you bought a physical product from ${brand.name}.`,
    }),
  }),
  team_invite: spec<TeamInviteData>({
    audience: 'account',
    class: 'transactional',
    title: 'Team invite (dashboard)',
    content: (d) => ({
      subject: `${d.inviterName} invited you to ${d.brandName}`,
      preview: `Join ${d.brandName} as ${d.role}`,
      heading: `Join ${d.brandName}`,
      paragraphs: [`${d.inviterName} invited you to the dashboard of ${d.brandName} as ${d.role === 'owner' ? 'an owner' : 'a developer'}.`, `The link works once, until ${day(d.expiresAt)}.`],
      button: { label: 'Accept the invite', url: d.link },
      footer: 'If you did not expect this invite, ignore this mail.',
    }),
  }),
  password_reset: spec<PasswordResetData>({
    audience: 'account',
    class: 'transactional',
    title: 'Password reset (dashboard)',
    content: (d) => ({
      subject: 'Set a new password',
      preview: 'A link to set a new password for your dashboard account',
      heading: 'Set a new password',
      paragraphs: [`Someone (we hope you) asked to set a new password for your dashboard account. The link works once, until ${time(d.expiresAt)}.`],
      button: { label: 'Set a new password', url: d.link },
      footer: 'If you did not ask for this, ignore this mail: your password stays as it is.',
    }),
  }),
  checkout_code: spec<CheckoutCodeData>({
    audience: 'buyer',
    class: 'transactional',
    optional: false,
    title: 'Checkout email verification code',
    content: (d, brand) => ({
      subject: `${d.code} is your ${brand.name} checkout code`,
      preview: 'Enter it on the checkout page to continue to payment',
      heading: 'Your checkout code',
      paragraphs: [
        `Hi ${d.buyerName}, enter this code on the ${brand.name} checkout page to confirm your email address and continue to payment. It works for 10 minutes.`,
      ],
      facts: [['Code', d.code], ['Works until', time(d.expiresAt)]],
      footer: 'If you did not start a checkout, ignore this mail: nobody can pay or sign up with your address without this code.',
    }),
  }),
  email_verification: spec<EmailVerificationData>({
    audience: 'account',
    class: 'transactional',
    title: 'Confirm your email address (dashboard sign-up)',
    content: (d) => ({
      subject: 'Confirm your email address',
      preview: 'One click to confirm the address of your new dashboard account',
      heading: 'Confirm your email address',
      paragraphs: [
        `Hi ${d.name}, thank you for signing up. Confirm that this address is yours, so we can send you payout notices and let you invite your team by mail.`,
        `The link works once, until ${day(d.expiresAt)}.`,
      ],
      button: { label: 'Confirm my address', url: d.link },
      footer: 'If you did not sign up, ignore this mail: nothing is sent to this address again unless someone confirms it.',
    }),
  }),
};

export type MailKind = keyof typeof mailKinds;
export type MailData<K extends MailKind> = Parameters<(typeof mailKinds)[K]['content']>[0];

export const mailKindNames = Object.keys(mailKinds) as MailKind[];
/** The kinds a brand may turn off: mail to its buyers. */
export const buyerKinds = mailKindNames.filter((k) => mailKinds[k].audience === 'buyer' && (mailKinds[k] as KindSpec<unknown>).optional !== false);
export const isMailKind = (s: string): s is MailKind => (mailKindNames as string[]).includes(s);

export function contentOf(kind: MailKind, data: unknown, brand: BrandLook): MailContent {
  return (mailKinds[kind].content as (d: unknown, b: BrandLook) => MailContent)(data, brand);
}
