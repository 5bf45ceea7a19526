import type { Principal } from '../auth/principal.ts';
import { findProfile } from '../brands/repository.ts';
import { hasCheckoutLinks } from '../checkout-links/repository.ts';
import { hasPaymentLinks } from '../checkout/repository.ts';
import type { Queryable } from '../db/client.ts';
import { hasProducts } from '../products/repository.ts';
import { hasPaidTransaction } from '../transactions/repository.ts';
import { hasInvites } from '../users/links-repository.ts';
import { memberCount } from '../users/repository.ts';
import type { SetupState } from './schemas.ts';

/** The new brand's setup checklist on the dashboard's home: each step ticks itself from what is stored. */
export async function setupState(db: Queryable, principal: Principal, input: { paymentsConnected: boolean }): Promise<SetupState> {
  const { brandId } = principal;
  const [product, checkoutLink, paymentLink, testPaid, livePaid, profile, members, invites] = await Promise.all([
    hasProducts(db, brandId), hasCheckoutLinks(db, brandId), hasPaymentLinks(db, brandId),
    hasPaidTransaction(db, brandId, 'test'), hasPaidTransaction(db, brandId, 'live'),
    findProfile(db, brandId), memberCount(db, brandId), hasInvites(db, brandId),
  ]);
  return {
    productCreated: product,
    linkShared: checkoutLink || paymentLink,
    testPurchase: testPaid,
    profileSet: Boolean(profile?.display_name || profile?.slug),
    paymentsConnected: input.paymentsConnected,
    live: livePaid,
    teamInvited: members > 1 || invites,
  };
}
