import type { Principal } from '../auth/principal.ts';
import { findProfile } from '../brands/repository.ts';
import type { Queryable } from '../db/client.ts';
import { portalPath } from '../brands/profile.ts';
import { consentingAudience } from '../memberships/repository.ts';
import { queueMail } from './service.ts';
import { unsubscribeUrl } from './unsubscribe.ts';

/**
 * The marketing mail "new in <product>" (docs/email.md, Marketing mail): when a creator replaces
 * an item's file or gives an item content and asks to tell buyers (`?notifyBuyers=true`), every
 * buyer in the key's mode who can open the item and said yes to the brand's mail
 * (`receive_emails: true`) gets one message, queued in the transaction of the change. One per
 * buyer and version of the item: asking again for the same version mails nobody twice.
 * Returns how many were queued.
 */
export async function queueContentNews(
  tx: Queryable,
  principal: Principal,
  change: { itemId: string; item: string; product: string; version: string; change: 'replaced' | 'added' },
  keys: { serverKey: Buffer; publicUrl: string },
): Promise<number> {
  const brand = await findProfile(tx, principal.brandId);
  let queued = 0;
  for (const buyer of await consentingAudience(tx, principal.brandId, principal.mode, change.itemId)) {
    const sent = await queueMail(tx, {
      brandId: principal.brandId, mode: principal.mode, kind: 'new_content', to: { email: buyer.email, name: buyer.name },
      optedIn: true,
      data: {
        buyerName: buyer.name, product: change.product, item: change.item, change: change.change,
        ...(brand ? { portalPath: portalPath(brand) } : {}),
        unsubscribeUrl: unsubscribeUrl(keys.serverKey, keys.publicUrl, { brandId: principal.brandId, mode: principal.mode, email: buyer.email }),
      },
      dedupeKey: `news:${change.itemId}:${change.version}:${buyer.email}`,
    });
    if (sent) queued += 1;
  }
  return queued;
}
