import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';
import type { Mode } from '../keys/scopes.ts';
import type { EventType } from './types.ts';

export interface NewEvent {
  brandId: string;
  mode: Mode;
  type: EventType;
  /** What the event is about, rendered exactly as the API renders it (a Transaction, a Membership…). */
  data: Record<string, unknown>;
}

/** Channel the worker listens on; a NOTIFY is delivered only when the transaction that sent it commits. */
export const workChannel = 'service_work';

/**
 * Records an event in the caller's transaction (the outbox): it exists if and only if the change
 * that caused it commits.
 */
export async function recordEvent(tx: Queryable, event: NewEvent): Promise<{ id: string; createdAt: Date }> {
  const id = newId('evt');
  const [row] = await tx.query<{ created_at: Date }>(
    'INSERT INTO events (brand_id, id, mode, type, data) VALUES ($1, $2, $3, $4, $5) RETURNING created_at',
    [event.brandId, id, event.mode, event.type, event.data],
  );
  await tx.query(`SELECT pg_notify('${workChannel}', 'event')`);
  return { id, createdAt: row.created_at };
}
