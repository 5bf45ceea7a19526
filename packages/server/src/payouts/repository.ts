import type { Queryable } from '../db/client.ts';
import { afterCursor, type PageRequest } from '../db/paging.ts';
import type { Mode } from '../auth/principal.ts';
import { notAdvancingSql, rowNowSql } from '../clock/repository.ts';

export interface PayoutRow {
  brand_id: string;
  id: string;
  mode: Mode;
  currency: string;
  amount: number;
  fee: number;
  transaction_count: number;
  /** Refunds deducted (minor units), and how many (migration 021). */
  refunded?: number;
  refund_count?: number;
  /** Affiliate commissions deducted (minor units), and how many (migration 025). */
  affiliate_commission?: number;
  commission_count?: number;
  period_start: Date;
  period_end: Date;
  settled_at: Date;
  created_at: Date;
  /** A payout never changes once settled: version 1, updated_at its creation (object-version.ts). */
  version: number;
  updated_at: Date;
}

export interface ScheduleRow {
  brand_id: string;
  mode: Mode;
  period_start: Date;
}

/** PAYOUT_SCHEDULE as boundaries: every `everyMs`, shifted by `offsetMs` from 1970-01-01T00:00Z. */
export interface Boundaries {
  everyMs: number;
  offsetMs: number;
}

/** The first boundary strictly after t. */
export function nextBoundary(t: Date, b: Boundaries): Date {
  return new Date((Math.floor((t.getTime() - b.offsetMs) / b.everyMs) + 1) * b.everyMs + b.offsetMs);
}

/** nextBoundary in SQL, for a column (the claim below; the payout lag in observability/backlog.ts). */
export const nextBoundarySql = (col: string, every: string, offset: string) =>
  `to_timestamp(((floor((extract(epoch FROM ${col}) * 1000 - ${offset}) / ${every}) + 1) * ${every} + ${offset}) / 1000.0)`;

/** Something became payable in this brand and mode at `at`: its balance waits for the next run. */
export async function notePayable(db: Queryable, brandId: string, mode: Mode, at: Date): Promise<void> {
  await db.query('INSERT INTO payout_schedules (brand_id, mode, period_start) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [brandId, mode, at]);
}

/**
 * Claims a balance whose next boundary has passed in its own mode's time (skipping rows another
 * worker holds, and test-mode balances of a brand whose clock is being advanced), or, with
 * `brand`, that brand's test-mode balance if due by `until`. Returns it with the boundary.
 */
export async function claimDue(tx: Queryable, b: Boundaries, brand?: { brandId: string; until: Date }): Promise<(ScheduleRow & { run_at: Date }) | undefined> {
  const runAt = nextBoundarySql('p.period_start', '$1::float8', '$2::float8');
  const [row] = brand
    ? await tx.query<ScheduleRow & { run_at: Date }>(
      `SELECT p.*, ${runAt} AS run_at FROM payout_schedules p
       WHERE p.brand_id = $3 AND p.mode = 'test' AND ${runAt} <= $4 FOR UPDATE SKIP LOCKED`,
      [b.everyMs, b.offsetMs, brand.brandId, brand.until],
    )
    : await tx.query<ScheduleRow & { run_at: Date }>(
      `SELECT p.*, ${runAt} AS run_at FROM payout_schedules p
       WHERE ${runAt} <= ${rowNowSql('p')} AND ${notAdvancingSql('p')} LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [b.everyMs, b.offsetMs],
    );
  return row;
}

export async function findSchedule(db: Queryable, brandId: string, mode: Mode): Promise<ScheduleRow | undefined> {
  const [row] = await db.query<ScheduleRow>('SELECT * FROM payout_schedules WHERE brand_id = $1 AND mode = $2', [brandId, mode]);
  return row;
}

export async function moveSchedule(db: Queryable, brandId: string, mode: Mode, periodStart: Date): Promise<void> {
  await db.query('UPDATE payout_schedules SET period_start = $3 WHERE brand_id = $1 AND mode = $2', [brandId, mode, periodStart]);
}

export async function deleteSchedule(db: Queryable, brandId: string, mode: Mode): Promise<void> {
  await db.query('DELETE FROM payout_schedules WHERE brand_id = $1 AND mode = $2', [brandId, mode]);
}

export async function insertPayout(db: Queryable, p: Omit<PayoutRow, 'created_at' | 'version' | 'updated_at'>): Promise<PayoutRow> {
  const [row] = await db.query<PayoutRow>(
    `INSERT INTO payouts (brand_id, id, mode, currency, amount, fee, transaction_count, period_start, period_end, settled_at, refunded, refund_count,
       affiliate_commission, commission_count)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING *`,
    [p.brand_id, p.id, p.mode, p.currency, p.amount, p.fee, p.transaction_count, p.period_start, p.period_end, p.settled_at, p.refunded ?? 0, p.refund_count ?? 0,
      p.affiliate_commission ?? 0, p.commission_count ?? 0],
  );
  return row;
}

export function listPayouts(db: Queryable, brandId: string, mode: Mode, page: PageRequest) {
  const after = afterCursor(page, 4);
  return db.query<PayoutRow>(
    `SELECT * FROM payouts WHERE brand_id = $1 AND mode = $2 ${after.sql} ORDER BY created_at DESC, id DESC LIMIT $3`,
    [brandId, mode, page.limit + 1, ...after.params],
  );
}

export async function findPayout(db: Queryable, brandId: string, mode: Mode, id: string) {
  const [row] = await db.query<PayoutRow>('SELECT * FROM payouts WHERE brand_id = $1 AND mode = $2 AND id = $3', [brandId, mode, id]);
  return row;
}
