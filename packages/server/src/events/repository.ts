import type { Queryable } from '../db/client.ts';
import { afterCursor, type PageRequest } from '../db/paging.ts';
import type { Mode } from '../auth/principal.ts';

export interface EventRow {
  brand_id: string;
  id: string;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
}

/** One page of the mode's events, newest first, optionally of one type; limit + 1 rows. */
export function listEvents(db: Queryable, brandId: string, mode: Mode, type: string | undefined, page: PageRequest) {
  const after = afterCursor(page, 5);
  return db.query<EventRow>(
    `SELECT brand_id, id, type, data, created_at FROM events
     WHERE brand_id = $1 AND mode = $2 AND ($4::text IS NULL OR type = $4) ${after.sql}
     ORDER BY created_at DESC, id DESC LIMIT $3`,
    [brandId, mode, page.limit + 1, type ?? null, ...after.params],
  );
}

export async function findEvent(db: Queryable, brandId: string, mode: Mode, id: string): Promise<EventRow | undefined> {
  const [row] = await db.query<EventRow>(
    'SELECT brand_id, id, type, data, created_at FROM events WHERE brand_id = $1 AND mode = $2 AND id = $3',
    [brandId, mode, id],
  );
  return row;
}
