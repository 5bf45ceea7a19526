import type { Mode, Principal } from '../auth/principal.ts';
import { findBrand, findProfile } from '../brands/repository.ts';
import type { Queryable } from '../db/client.ts';
import { toPage, type PageRequest } from '../db/paging.ts';
import { invalid, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { buyerKinds, contentOf, mailKinds, type BrandLook, type MailData, type MailKind } from './kinds.ts';
import * as repo from './repository.ts';
import { defaultColour, renderMail, type RenderedMail } from './templates.ts';

/**
 * Queuing mail in the transaction of its cause, and the brand's view of it. Every function here
 * runs in its caller's transaction; the worker (jobs.ts) sends.
 */

/** Account mail (a password reset) belongs to no brand; its rows carry this brand id. */
export const accountBrand = '';

export interface QueueMail<K extends MailKind> {
  brandId: string;
  mode: Mode | null;
  kind: K;
  to: { email: string; name?: string | null };
  data: MailData<K>;
  /** One message per cause: `receipt:tx_…`, `endpoint:we_…:…`. */
  dedupeKey: string;
  /** Marketing-class mail goes only to people who said yes (`receive_emails: true`). */
  optedIn?: boolean;
}

/** The brand's name and colour, and its mail settings, as a template needs them. */
export async function brandLook(db: Queryable, brandId: string, publicUrl = ''): Promise<{ look: BrandLook; settings?: repo.MailSettingsRow }> {
  if (brandId === accountBrand) return { look: { name: 'Dashboard', colour: defaultColour, publicUrl } };
  // One after the other: a transaction's handle runs one query at a time.
  const brand = await findProfile(db, brandId);
  const settings = await repo.findSettings(db, brandId);
  return {
    look: { name: brand?.name ?? 'Dashboard', colour: settings?.brand_colour ?? defaultColour, publicUrl, ...(brand?.logo_url ? { logoUrl: brand.logo_url } : {}) },
    settings,
  };
}

/**
 * Queues one message, unless the brand turned this kind of buyer mail off or it is marketing to
 * someone who did not opt in. Returns whether it was queued.
 */
export async function queueMail<K extends MailKind>(tx: Queryable, m: QueueMail<K>): Promise<boolean> {
  const spec = mailKinds[m.kind];
  if (spec.class === 'marketing' && !m.optedIn) return false;
  const { look, settings } = await brandLook(tx, m.brandId);
  if (spec.audience === 'buyer' && settings?.disabled_kinds.includes(m.kind)) return false;
  const subject = contentOf(m.kind, m.data, look).subject;
  return repo.insertMail(tx, {
    brand_id: m.brandId, id: newId('msg'), mode: m.mode, kind: m.kind, class: spec.class,
    to_address: m.to.email, to_name: m.to.name ?? null, subject, data: m.data as unknown as Record<string, unknown>, dedupe_key: m.dedupeKey,
  });
}

/** Every owner of the brand gets the same notice (one message each). */
export async function queueOwnerMail<K extends MailKind>(tx: Queryable, m: Omit<QueueMail<K>, 'to' | 'dedupeKey'> & { dedupeKey: string }) {
  for (const owner of await repo.ownerAddresses(tx, m.brandId)) {
    await queueMail(tx, { ...m, to: { email: owner.email, name: owner.name }, dedupeKey: `${m.dedupeKey}:${owner.email.toLowerCase()}` });
  }
}

/** The From and Reply-To a brand's mail carries: its from-name over the service's address. */
export function envelopeOf(settings: repo.MailSettingsRow | undefined, look: BrandLook, from: string) {
  const name = (settings?.from_name ?? look.name).replace(/["\r\n]/g, '');
  return { from: { name, address: from }, replyTo: settings?.reply_to ?? undefined };
}

/**
 * The message as it went out (or would have): its stored parts once the worker rendered them,
 * rendered now otherwise (a message not yet picked up).
 */
export async function renderedOf(db: Queryable, row: repo.MailRow, publicUrl: string): Promise<RenderedMail & { headers: Record<string, string> }> {
  if (row.html !== null && row.text_body !== null) return { subject: row.subject, html: row.html, text: row.text_body, headers: row.headers ?? {} };
  const { look } = await brandLook(db, row.brand_id, publicUrl);
  const rendered = await renderMail(row.kind as MailKind, row.data, look);
  return { ...rendered, headers: { Subject: rendered.subject, To: row.to_address } };
}

export function renderSummary(row: repo.MailRow) {
  return {
    id: row.id,
    kind: row.kind,
    class: row.class,
    to: row.to_address,
    subject: row.subject,
    status: row.status,
    ...(row.status_detail ? { statusDetail: row.status_detail } : {}),
    attempts: row.attempts,
    ...(row.mode ? { mode: row.mode } : {}),
    createdAt: row.created_at.toISOString(),
    ...(row.sent_at ? { sentAt: row.sent_at.toISOString() } : {}),
    ...(row.next_attempt_at && row.status === 'queued' ? { nextAttemptAt: row.next_attempt_at.toISOString() } : {}),
  };
}

export async function listEmails(db: Queryable, principal: Principal, page: PageRequest, filter: { kind?: string; status?: string; to?: string }) {
  const rows = await repo.listMail(db, principal.brandId, principal.mode, page, filter);
  return toPage('emails', page, rows, renderSummary);
}

export async function getEmail(db: Queryable, principal: Principal, id: string, publicUrl: string) {
  const row = await repo.findMail(db, principal.brandId, id);
  // Account mail (mode null) carries one-time links: only the operator's CLI shows it.
  if (!row || row.mode !== principal.mode) throw notFound('email');
  return emailDetail(db, row, publicUrl);
}

/** One message whole: its parts, headers and the log of its tries (API and CLI). */
export async function emailDetail(db: Queryable, row: repo.MailRow, publicUrl: string) {
  const rendered = await renderedOf(db, row, publicUrl);
  const attempts = await repo.listAttempts(db, row.brand_id, row.id);
  return {
    ...renderSummary(row),
    html: rendered.html,
    text: rendered.text,
    headers: rendered.headers,
    log: attempts.map((a) => ({ attempt: a.attempt, outcome: a.outcome, ...(a.response ? { response: a.response } : {}), at: a.at.toISOString() })),
  };
}

export function renderSettings(brandId: string, row: repo.MailSettingsRow | undefined, brandName: string) {
  const off = row?.disabled_kinds ?? [];
  return {
    fromName: row?.from_name ?? null,
    replyTo: row?.reply_to ?? null,
    brandColour: row?.brand_colour ?? defaultColour,
    effectiveFromName: row?.from_name ?? brandName,
    buyerEmails: Object.fromEntries(buyerKinds.map((k) => [k, !off.includes(k)])) as Record<string, boolean>,
    checkoutEmailVerification: row?.checkout_email_verification ?? false,
    brandID: brandId,
  };
}

export async function getSettings(db: Queryable, principal: Principal) {
  const brand = await findBrand(db, principal.brandId);
  return renderSettings(principal.brandId, await repo.findSettings(db, principal.brandId), brand?.name ?? '');
}

export interface SettingsChange {
  fromName?: string | null;
  replyTo?: string | null;
  brandColour?: string | null;
  buyerEmails?: Record<string, boolean | undefined>;
  checkoutEmailVerification?: boolean;
}

export async function updateSettings(tx: Queryable, principal: Principal, change: SettingsChange) {
  const current = await repo.findSettings(tx, principal.brandId);
  const off = new Set(current?.disabled_kinds ?? []);
  for (const [kind, on] of Object.entries(change.buyerEmails ?? {})) {
    if (!(buyerKinds as string[]).includes(kind)) throw invalid(`buyerEmails.${kind}`, `is not a kind of buyer email; use one of ${buyerKinds.join(', ')}`);
    if (on === undefined) continue;
    if (on) off.delete(kind);
    else off.add(kind);
  }
  const pick = <T>(given: T | undefined, stored: T) => (given === undefined ? stored : given);
  const saved = await repo.saveSettings(tx, {
    brand_id: principal.brandId,
    from_name: pick(change.fromName, current?.from_name ?? null)?.trim() || null,
    reply_to: pick(change.replyTo, current?.reply_to ?? null)?.trim() || null,
    brand_colour: pick(change.brandColour, current?.brand_colour ?? null) || null,
    disabled_kinds: [...off].sort(),
    checkout_email_verification: pick(change.checkoutEmailVerification, current?.checkout_email_verification ?? false),
  });
  const brand = await findBrand(tx, principal.brandId);
  return renderSettings(principal.brandId, saved, brand?.name ?? '');
}
