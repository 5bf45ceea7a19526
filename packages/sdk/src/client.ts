import { Requester, type ClientOptions, type RequestOptions } from './request.ts';
import { Hubs } from './resources/hubs.ts';
import { Memberships, Payouts, TestClock } from './resources/lifecycle.ts';
import { Emails } from './resources/emails.ts';
import { PaymentLinks, Payments } from './resources/checkout.ts';
import { Events, Imports } from './resources/events.ts';
import { Products } from './resources/products.ts';
import { Transactions } from './resources/transactions.ts';
import { Metrics } from './resources/metrics.ts';
import { Customers, Subscriptions } from './resources/customers.ts';
import { Webhooks } from './resources/webhooks.ts';
import { TestHelpers } from './resources/test-helpers.ts';
import { BrandProfile, CheckoutLinks } from './resources/storefront.ts';
import { Coupons } from './resources/coupons.ts';
import { Affiliates } from './resources/affiliates.ts';
import { Bookings } from './resources/bookings.ts';
import { CustomerSessions } from './resources/customer-sessions.ts';
import type { Ping } from './types.ts';

/**
 * The API client: `new Client({ apiKey, baseUrl })`, then one property per resource
 * (`client.products.list()`, `client.webhooks.deliveries.resend(id)`, …). Methods return the
 * envelope's `data`; errors are thrown as the classes in errors.ts.
 */
export class Client {
  readonly products: Products;
  readonly hubs: Hubs;
  readonly paymentLinks: PaymentLinks;
  readonly payments: Payments;
  readonly transactions: Transactions;
  readonly webhooks: Webhooks;
  readonly events: Events;
  readonly imports: Imports;
  readonly memberships: Memberships;
  readonly payouts: Payouts;
  /** Mail the service sends for the brand (receipts, notices), and its settings (docs/email.md). */
  readonly emails: Emails;
  readonly testClock: TestClock;
  /** Test mode only: paying a payment link from code. */
  readonly testHelpers: TestHelpers;
  readonly brand: BrandProfile;
  readonly checkoutLinks: CheckoutLinks;
  readonly coupons: Coupons;
  /** Affiliates and their commissions (docs/affiliates.md). */
  readonly affiliates: Affiliates;
  /** Bookings of bookable products (docs/bookings.md). */
  readonly bookings: Bookings;
  readonly customerSessions: CustomerSessions;
  /** The numbers of the dashboard's home: revenue per currency, MRR, new members, failed renewals. */
  readonly metrics: Metrics;
  /** Everyone who bought or joined, one per email (docs/customers.md). */
  readonly customers: Customers;
  /** Subscriptions with next renewal and MRR (docs/subscriptions.md). */
  readonly subscriptions: Subscriptions;
  readonly #r: Requester;

  constructor(options: ClientOptions) {
    this.#r = new Requester(options ?? {});
    this.products = new Products(this.#r);
    this.hubs = new Hubs(this.#r);
    this.paymentLinks = new PaymentLinks(this.#r);
    this.payments = new Payments(this.#r);
    this.transactions = new Transactions(this.#r);
    this.webhooks = new Webhooks(this.#r);
    this.events = new Events(this.#r);
    this.imports = new Imports(this.#r);
    this.memberships = new Memberships(this.#r);
    this.payouts = new Payouts(this.#r);
    this.emails = new Emails(this.#r);
    this.testClock = new TestClock(this.#r);
    this.testHelpers = new TestHelpers(this.#r);
    this.brand = new BrandProfile(this.#r);
    this.checkoutLinks = new CheckoutLinks(this.#r);
    this.coupons = new Coupons(this.#r);
    this.affiliates = new Affiliates(this.#r);
    this.bookings = new Bookings(this.#r);
    this.customerSessions = new CustomerSessions(this.#r);
    this.metrics = new Metrics(this.#r);
    this.customers = new Customers(this.#r);
    this.subscriptions = new Subscriptions(this.#r);
  }

  /** The API's address, `…/api/v1`. */
  get baseUrl(): string {
    return this.#r.baseUrl;
  }

  /** GET /ping: the brand, mode and scopes of the key. */
  ping(options?: RequestOptions): Promise<Ping> {
    return this.#r.request({ method: 'GET', path: '/ping', options });
  }
}
