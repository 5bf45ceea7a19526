import type { Mode } from '../auth/principal.ts';
import type { Queryable } from '../db/client.ts';
import { afterCursor, type PageRequest } from '../db/paging.ts';
import { workChannel } from '../worker/notify.ts';

export type MailStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'unsent';

export interface MailRow {
  brand_id: string;
  id: string;
  mode: Mode | null;
  kind: string;
  class: 'transactional' | 'marketing';
  to_address: string;
  to_name: string | null;
  subject: string;
  data: Record<string, unknown>;
  html: string | null;
  text_body: string | null;
  headers: Record<string, string> | null;
  status: MailStatus;
  status_detail: string | null;
  attempts: number;
  next_attempt_at: Date | null;
  lease_until: Date | null;
  dedupe_key: string;
  sent_at: Date | null;
  created_at: Date;
}

export type NewMail = Pick<MailRow, 'brand_id' | 'id' | 'mode' | 'kind' | 'class' | 'to_address' | 'to_name' | 'subject' | 'data' | 'dedupe_key'>;

/**
 * Queues a message in the caller's transaction and wakes the worker when it commits. A message
 * with the same dedupe key (the same receipt, the same notice) is not queued twice: false then.
 */
export async function insertMail(tx: Queryable, m: NewMail): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO mail_messages (brand_id, id, mode, kind, class, to_address, to_name, subject, data, status, next_attempt_at, dedupe_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'queued', clock_timestamp(), $10)
     ON CONFLICT (brand_id, dedupe_key) DO NOTHING RETURNING id`,
    [m.brand_id, m.id, m.mode, m.kind, m.class, m.to_address, m.to_name, m.subject, m.data, m.dedupe_key],
  );
  if (rows.length) await tx.query('SELECT pg_notify($1, $2)', [workChannel, 'mail']);
  return rows.length > 0;
}

/**
 * Claims up to `limit` due messages (FOR UPDATE SKIP LOCKED: any number of workers) and leases
 * them: a worker killed while sending leaves them to be claimed again when the lease runs out.
 */
export function claimDueMail(db: Queryable, leaseMs: number, limit: number): Promise<MailRow[]> {
  return db.query<MailRow>(
    `UPDATE mail_messages m SET status = 'sending', attempts = m.attempts + 1,
       lease_until = clock_timestamp() + $1 * interval '1 millisecond',
       next_attempt_at = clock_timestamp() + $1 * interval '1 millisecond'
     FROM (SELECT brand_id, id FROM mail_messages
           WHERE status IN ('queued', 'sending') AND next_attempt_at <= clock_timestamp()
           ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED) due
     WHERE m.brand_id = due.brand_id AND m.id = due.id
     RETURNING m.*`,
    [leaseMs, limit],
  );
}

export async function saveRendered(db: Queryable, brandId: string, id: string, r: { html: string; text: string; headers: Record<string, string> }) {
  await db.query('UPDATE mail_messages SET html = $3, text_body = $4, headers = $5 WHERE brand_id = $1 AND id = $2', [brandId, id, r.html, r.text, r.headers]);
}

/** Records one try and where the message stands after it; only while this worker's lease holds. */
export async function recordAttempt(
  db: Queryable,
  m: Pick<MailRow, 'brand_id' | 'id' | 'attempts'>,
  outcome: 'sent' | 'failed' | 'bounced' | 'unsent',
  response: string | null,
  next: { status: MailStatus; retryInMs?: number; detail: string | null },
): Promise<void> {
  await db.query(
    `WITH a AS (
       INSERT INTO mail_attempts (brand_id, message_id, attempt, outcome, response) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING
     )
     UPDATE mail_messages SET status = $6, status_detail = $7, lease_until = NULL,
       next_attempt_at = CASE WHEN $8::bigint IS NULL THEN NULL ELSE clock_timestamp() + $8::bigint * interval '1 millisecond' END,
       sent_at = CASE WHEN $6 = 'sent' THEN clock_timestamp() ELSE sent_at END
     WHERE brand_id = $1 AND id = $2 AND attempts = $3`,
    [m.brand_id, m.id, m.attempts, outcome, response, next.status, next.detail, next.retryInMs ?? null],
  );
}

/**
 * The brand's mail in one mode. Account mail (team invites: mode null) is left out: it carries a
 * one-time link that joins the brand, which an API key that reads customers must not get.
 */
export function listMail(db: Queryable, brandId: string, mode: Mode, page: PageRequest, filter: { kind?: string; status?: string; to?: string } = {}) {
  const after = afterCursor(page, 7);
  return db.query<MailRow>(
    `SELECT * FROM mail_messages
     WHERE brand_id = $1 AND mode = $2
       AND ($4::text IS NULL OR kind = $4) AND ($5::text IS NULL OR status = $5) AND ($6::text IS NULL OR lower(to_address) = lower($6))
       ${after.sql}
     ORDER BY created_at DESC, id DESC
     LIMIT $3`,
    [brandId, mode, page.limit + 1, filter.kind ?? null, filter.status ?? null, filter.to ?? null, ...after.params],
  );
}

export async function findMail(db: Queryable, brandId: string, id: string): Promise<MailRow | undefined> {
  const [row] = await db.query<MailRow>('SELECT * FROM mail_messages WHERE brand_id = $1 AND id = $2', [brandId, id]);
  return row;
}

/** The operator's view (CLI): every brand's mail and the account mail, newest first. */
export function listAllMail(db: Queryable, limit: number, brandId?: string) {
  return db.query<MailRow>(
    `SELECT * FROM mail_messages WHERE ($2::text IS NULL OR brand_id = $2) ORDER BY created_at DESC, id DESC LIMIT $1`,
    [limit, brandId ?? null],
  );
}

export async function findMailById(db: Queryable, id: string): Promise<MailRow | undefined> {
  const [row] = await db.query<MailRow>('SELECT * FROM mail_messages WHERE id = $1', [id]);
  return row;
}

export interface AttemptRow { attempt: number; outcome: 'sent' | 'failed' | 'bounced' | 'unsent'; response: string | null; at: Date }

export function listAttempts(db: Queryable, brandId: string, id: string) {
  return db.query<AttemptRow>('SELECT attempt, outcome, response, at FROM mail_attempts WHERE brand_id = $1 AND message_id = $2 ORDER BY attempt', [brandId, id]);
}

export interface MailSettingsRow {
  brand_id: string;
  from_name: string | null;
  reply_to: string | null;
  brand_colour: string | null;
  disabled_kinds: string[];
  /** Checkout email verification on (migration 027). */
  checkout_email_verification: boolean;
  updated_at: Date;
}

export async function findSettings(db: Queryable, brandId: string): Promise<MailSettingsRow | undefined> {
  const [row] = await db.query<MailSettingsRow>('SELECT * FROM mail_settings WHERE brand_id = $1', [brandId]);
  return row;
}

export async function saveSettings(db: Queryable, s: Omit<MailSettingsRow, 'updated_at'>): Promise<MailSettingsRow> {
  const [row] = await db.query<MailSettingsRow>(
    `INSERT INTO mail_settings (brand_id, from_name, reply_to, brand_colour, disabled_kinds, checkout_email_verification) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (brand_id) DO UPDATE SET from_name = $2, reply_to = $3, brand_colour = $4, disabled_kinds = $5, checkout_email_verification = $6,
       updated_at = date_trunc('milliseconds', clock_timestamp())
     RETURNING *`,
    [s.brand_id, s.from_name, s.reply_to, s.brand_colour, s.disabled_kinds, s.checkout_email_verification],
  );
  return row;
}

/** Email addresses of the brand's owners who confirmed them (an unconfirmed one may be a stranger's). */
export async function ownerAddresses(db: Queryable, brandId: string): Promise<{ email: string; name: string }[]> {
  return db.query(
    `SELECT u.email, u.name FROM brand_members m JOIN users u ON u.id = m.user_id
     WHERE m.brand_id = $1 AND m.role = 'owner' AND u.email_verified_at IS NOT NULL ORDER BY m.created_at`,
    [brandId],
  );
}

export interface DisabledEndpoint { brand_id: string; id: string; mode: Mode; url: string; disabled_reason: string }

/**
 * Endpoints the service disabled (they carry a reason; a brand's own disabling does not) in the
 * last week whose owners were not told yet, claimed by recording the notice: of two workers that
 * find the same endpoint, only one gets it back.
 */
export function claimEndpointNotices(tx: Queryable, limit: number): Promise<DisabledEndpoint[]> {
  return tx.query<DisabledEndpoint>(
    `WITH found AS (
       SELECT w.brand_id, w.id, w.mode, w.url, w.disabled_reason FROM webhook_endpoints w
       WHERE w.status = 'disabled' AND w.disabled_reason IS NOT NULL
         AND w.updated_at > clock_timestamp() - interval '7 days'
         AND NOT EXISTS (SELECT 1 FROM mail_endpoint_notices n
                         WHERE n.brand_id = w.brand_id AND n.endpoint_id = w.id AND n.reason = w.disabled_reason)
       LIMIT $1
     ), noted AS (
       INSERT INTO mail_endpoint_notices (brand_id, endpoint_id, reason)
       SELECT brand_id, id, disabled_reason FROM found ON CONFLICT DO NOTHING
       RETURNING brand_id, endpoint_id
     )
     SELECT f.* FROM found f JOIN noted n ON n.brand_id = f.brand_id AND n.endpoint_id = f.id`,
    [limit],
  );
}

/**
 * The receipt queued for a payment, if one was (the brand may have turned receipts off): the
 * checkout's result page says "a receipt was emailed" only when this finds one that was not given up on.
 */
export async function findReceiptOf(db: Queryable, brandId: string, txref: string): Promise<Pick<MailRow, 'status' | 'to_address'> | undefined> {
  const [row] = await db.query<Pick<MailRow, 'status' | 'to_address'>>(
    `SELECT status, to_address FROM mail_messages WHERE brand_id = $1 AND dedupe_key = $2 AND kind = 'receipt'`,
    [brandId, `receipt:${txref}`],
  );
  return row;
}
