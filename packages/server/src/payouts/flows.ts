import type { PayoutSettings } from '../config.ts';
import type { Db } from '../db/client.ts';
import * as repo from './repository.ts';
import { settleBalance } from './service.ts';

/**
 * Claims one balance whose payout run is due (in its mode's time) and settles it, in one
 * transaction. `brand` limits it to one brand's test-mode balance due by `until` (a test clock
 * advance). Returns whether there was a run.
 */
export async function runDuePayout(db: Db, settings: PayoutSettings, brand?: { brandId: string; until: Date }): Promise<boolean> {
  return db.transaction(async (tx) => {
    const due = await repo.claimDue(tx, settings.schedule, brand);
    if (!due) return false;
    await settleBalance(tx, due, due.run_at, settings);
    return true;
  });
}
