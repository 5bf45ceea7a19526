/**
 * The events the embeddable checkout overlay (`/embed.js`, docs/checkout.md "Embedding the
 * checkout") posts to the creator's page, as `event.data` of `message` events on `window`.
 * `checkout.opened` and `checkout.closed` come from the overlay script on the page itself
 * (`event.origin` is the page's own); `checkout.completed` comes from the checkout inside the frame
 * (`event.origin` is the service's), so read it only from there: `checkoutEventOf` checks both.
 */

export const checkoutEventSource = 'creator-commerce-checkout';

export interface CheckoutOpenedEvent {
  source: typeof checkoutEventSource;
  type: 'checkout.opened';
  /** The checkout link opened. */
  url: string;
}

export interface CheckoutCompletedEvent {
  source: typeof checkoutEventSource;
  type: 'checkout.completed';
  /** The payment's reference: check it with `client.payments.verify({ txref })` before granting anything. */
  txref: string;
  /** In minor units (1200 is 12.00 USD). */
  amount: number;
  currency: string;
  /** The checkout link's `redirectUrl` with `txref` and `status` added, when it has one: the overlay stays on the service's result page. */
  redirectUrl?: string;
}

export interface CheckoutClosedEvent {
  source: typeof checkoutEventSource;
  type: 'checkout.closed';
  url: string;
  /** Whether a payment succeeded while the overlay was open. */
  completed: boolean;
}

export type CheckoutEvent = CheckoutOpenedEvent | CheckoutCompletedEvent | CheckoutClosedEvent;

/** Minimal shape of a DOM `MessageEvent`, so this module needs no DOM types. */
export interface MessageLike { data: unknown; origin: string }

/**
 * The overlay's event carried by a `message` event, or undefined for any other message.
 * `serviceUrl` is where the service runs (the address /embed.js was loaded from); `pageOrigin`
 * defaults to `location.origin` in a browser.
 */
export function checkoutEventOf(message: MessageLike, serviceUrl: string, pageOrigin?: string): CheckoutEvent | undefined {
  const data = message.data as Partial<CheckoutEvent> | null;
  if (!data || typeof data !== 'object' || data.source !== checkoutEventSource) return undefined;
  const own = pageOrigin ?? (globalThis as { location?: { origin: string } }).location?.origin;
  const expected = data.type === 'checkout.completed' ? new URL(serviceUrl).origin : own;
  if (message.origin !== expected) return undefined;
  return data.type === 'checkout.opened' || data.type === 'checkout.completed' || data.type === 'checkout.closed' ? data as CheckoutEvent : undefined;
}
