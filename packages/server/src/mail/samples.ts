import type { MailData, MailKind } from './kinds.ts';

/**
 * One example of every kind of mail, with the data a real cause would give it: for the
 * screenshots in docs/email.md (scripts/email-screenshots.ts) and the template tests.
 */
export const mailSamples: { [K in MailKind]: MailData<K> } = {
  receipt: {
    buyerName: 'Ada Lovelace', item: 'Brushwork fundamentals (Standard)',
    lines: [{ description: 'Brushwork fundamentals — Standard', amount: 4950 }, { description: 'Launch discount', amount: -1000 }],
    amount: 3950, currency: 'USD', txref: 'tx_8Jw2kQp4Xn1RzV6mB3aL', paidAt: '2026-11-25T14:03:00.000Z', type: 'purchase', invoiceNumber: 'INV-0042',
    portalPath: '/portal/brush-and-co', invoicePath: '/portal/brush-and-co/invoices/tx_8Jw2kQp4Xn1RzV6mB3aL',
  },
  renewal_failed: {
    buyerName: 'Ada Lovelace', item: 'Studio Club (Monthly)', amount: 500, currency: 'USD', txref: 'tx_Qm7Tz2Lw9Hc4Xb1Nf8Ke', reason: 'The card was declined.',
    cardPath: '/portal/brush-and-co/memberships/mem_4Hq8Zr2Kx7Lp1Nc9/card',
  },
  membership_ended: { buyerName: 'Ada Lovelace', item: 'Studio Club (Monthly)', endedAt: '2026-12-30T00:00:00.000Z' },
  cancellation: { buyerName: 'Ada Lovelace', item: 'Studio Club (Monthly)', accessUntil: '2026-12-25T00:00:00.000Z' },
  refund: {
    buyerName: 'Ada Lovelace', item: 'Brushwork fundamentals (Standard)', amount: 1500, refundedTotal: 1500, paid: 3950, currency: 'USD',
    txref: 'tx_8Jw2kQp4Xn1RzV6mB3aL', refundId: 'rfd_2pQ8sW4eR6tY1uI3oP5a', reason: 'The second lesson video would not play.',
    refundedAt: '2026-11-27T10:15:00.000Z', accessEnded: false,
  },
  subscription_ending: { buyerName: 'Ada Lovelace', item: 'Studio Club (Twelve months)', endsAt: '2027-11-25T14:03:00.000Z', periods: 12 },
  endpoint_disabled: {
    url: 'https://hooks.example.com/commerce', endpointId: 'we_5rT8yU1iO3pA7sD9fG2h', mode: 'live',
    reason: 'failing: every delivery attempt since 2026-11-20T09:12:44Z failed', dashboardPath: '/dashboard/developers/webhooks/we_5rT8yU1iO3pA7sD9fG2h',
  },
  payout_settled: {
    payoutId: 'po_3kL9mN2bV5cX8zA1sD4f', amount: 118_430, fee: 7_570, currency: 'USD', transactionCount: 31,
    periodStart: '2026-11-24T00:00:00.000Z', periodEnd: '2026-11-25T00:00:00.000Z', mode: 'live', dashboardPath: '/dashboard/money/payouts',
  },
  new_content: {
    buyerName: 'Ada Lovelace', product: 'Brushwork fundamentals', item: 'Workbook (PDF)', change: 'replaced', portalPath: '/portal/brush-and-co',
    unsubscribeUrl: 'http://localhost:3000/mail/unsubscribe/eyJiIjoiYnJkXzEifQ.…',
  },
  order_shipped: {
    buyerName: 'Ada Lovelace', item: 'Brushwork fundamentals, printed (Hardcover)', txref: 'tx_8Jw2kQp4Xn1RzV6mB3aL', carrier: 'USPS',
    trackingNumber: '9400111899223197428490', trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223197428490',
    address: ['1 Market St', 'Suite 300', 'San Francisco CA 94105', 'United States'], shippedAt: '2026-11-26T10:00:00.000Z',
  },
  order_ready_for_pickup: {
    buyerName: 'Ada Lovelace', item: 'Brushwork fundamentals, printed (Hardcover)', txref: 'tx_8Jw2kQp4Xn1RzV6mB3aL', location: 'Our studio',
    address: ['500 Howard St', 'San Francisco CA 94105', 'United States'], openingHours: 'Mon–Fri 10:00–18:00',
  },
  portal_sign_in: { link: 'http://localhost:3000/portal/brush-and-co/enter?token=…', expiresAt: '2026-11-25T14:18:00.000Z' },
  team_invite: {
    brandName: 'Brush & Co', inviterName: 'Grace Hopper', role: 'developer',
    link: 'http://localhost:3000/dashboard/invite?token=…', expiresAt: '2026-12-02T14:03:00.000Z',
  },
  checkout_code: { buyerName: 'Ada Lovelace', code: '482915', expiresAt: '2026-11-25T14:13:00.000Z' },
  email_verification: { name: 'Ada Lovelace', link: 'http://localhost:3000/dashboard/verify-email?token=…', expiresAt: '2026-12-02T14:03:00.000Z' },
  password_reset: { link: 'http://localhost:3000/dashboard/reset-password?token=…', expiresAt: '2026-11-25T15:03:00.000Z' },
};
