import { Type } from 'typebox';
import { AppError } from '../errors.ts';

/**
 * Keyset pagination, newest first, on (created_at, id) (DESIGN.md, Lists).
 *
 * The cursor is opaque to clients: base64url of `["v1", list, created_at ms, id]`. Naming the list
 * in it means a cursor from one list is refused by another instead of silently skipping rows.
 * A row inserted while a client pages either sorts before the cursor (and is not shown) or
 * after it (and is), so every row that existed when paging began is seen exactly once.
 */
export const PageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100 (default 20).' })),
  cursor: Type.Optional(Type.String({ description: '`nextCursor` of the previous page.' })),
});

export interface PageRequest {
  limit: number;
  after?: { createdAt: Date; id: string };
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  nextCursor: string;
}

export function pageRequest(list: string, query: { limit?: number; cursor?: string }): PageRequest {
  const limit = query.limit ?? 20;
  if (!query.cursor) return { limit };
  return { limit, after: decodeCursor(list, query.cursor) };
}

const earliestCursorMs = Date.UTC(2000, 0, 1);
const latestCursorMs = Date.UTC(10000, 0, 1);

function decodeCursor(list: string, cursor: string) {
  const invalid = () =>
    new AppError('validation_failed', 'Invalid query parameter `cursor`: pass the `nextCursor` from a previous page of this list.', [
      { field: 'cursor', message: 'not a cursor issued for this list' },
    ]);
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parts) || parts.length !== 4 || parts[0] !== 'v1' || parts[1] !== list) throw invalid();
  const [, , ms, id] = parts;
  // Every row we could have issued a cursor for was created between these; a timestamp outside
  // them (9e15 is not even a valid Date) was not issued by us.
  if (!Number.isSafeInteger(ms) || ms < earliestCursorMs || ms >= latestCursorMs) throw invalid();
  if (typeof id !== 'string' || !/^[a-z]+_[A-Za-z0-9_-]{1,64}$/.test(id)) throw invalid();
  return { createdAt: new Date(ms), id };
}

/**
 * Builds a page from rows fetched with LIMIT page.limit + 1: the extra row only says whether
 * there is more.
 */
export function toPage<R extends { created_at: Date; id: string }, T>(
  list: string,
  req: PageRequest,
  rows: R[],
  render: (row: R) => T,
): Page<T> {
  const hasMore = rows.length > req.limit;
  const shown = hasMore ? rows.slice(0, req.limit) : rows;
  const last = shown.at(-1);
  const nextCursor = hasMore && last
    ? Buffer.from(JSON.stringify(['v1', list, last.created_at.getTime(), last.id])).toString('base64url')
    : '';
  return { items: shown.map(render), hasMore, nextCursor };
}

/**
 * The WHERE fragment and parameters for "older than the cursor", numbered from `next`.
 * Used as `... AND (created_at, id) < ($n, $n+1)` so the (brand, created_at DESC, id DESC) index serves it.
 */
export function afterCursor(req: PageRequest, next: number): { sql: string; params: unknown[] } {
  if (!req.after) return { sql: '', params: [] };
  return { sql: `AND (created_at, id) < ($${next}, $${next + 1})`, params: [req.after.createdAt, req.after.id] };
}
