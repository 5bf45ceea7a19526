import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import * as repo from './repository.ts';
import { emailDetail, renderSummary } from './service.ts';

/**
 * The operator's view of the outbox (`npm run cli -- email list|show`): every brand's mail and the
 * account mail (password resets), which no brand's API key sees.
 */
export async function listOutbox(db: Db, input: { brandId?: string; limit: number }) {
  const rows = await repo.listAllMail(db, input.limit, input.brandId);
  return { items: rows.map((r) => ({ ...renderSummary(r), brandID: r.brand_id || null })) };
}

export async function showOutboxMessage(db: Db, id: string, publicUrl: string) {
  const row = await repo.findMailById(db, id);
  if (!row) throw new AppError('not_found', `No email with id ${id} exists.`);
  return { ...(await emailDetail(db, row, publicUrl)), brandID: row.brand_id || null };
}
