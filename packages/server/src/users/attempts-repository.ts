import type { Queryable } from '../db/client.ts';

/** sign_in_attempts: failed sign-ins, counted per account and per address over a window. */

export async function recordFailure(db: Queryable, email: string, address: string, windowMs: number): Promise<void> {
  // Rows past the window count for nothing; drop this account's and address's old ones as we go.
  await db.query(
    `DELETE FROM sign_in_attempts WHERE (email = $1 OR address = $2)
       AND created_at < clock_timestamp() - make_interval(secs => $3::double precision / 1000)`,
    [email, address, windowMs],
  );
  await db.query('INSERT INTO sign_in_attempts (email, address) VALUES ($1, $2)', [email, address]);
}

/** After a successful sign-in the account starts afresh; the address's count stays. */
export async function clearAccount(db: Queryable, email: string): Promise<void> {
  await db.query('UPDATE sign_in_attempts SET cleared = true WHERE email = $1 AND NOT cleared', [email]);
}

/**
 * When the `limit`-th most recent failure within the window leaves it, for the account and for the
 * address (null when there are fewer failures than that): until then, sign-in is refused.
 */
export async function throttledUntil(db: Queryable, email: string, address: string, limit: number, windowMs: number): Promise<{ account: Date | null; address: Date | null }> {
  const [row] = await db.query<{ account: Date | null; address: Date | null }>(
    `SELECT
       (SELECT created_at FROM sign_in_attempts WHERE email = $1 AND NOT cleared
          AND created_at > clock_timestamp() - make_interval(secs => $4::double precision / 1000)
          ORDER BY created_at DESC OFFSET $3 - 1 LIMIT 1) + make_interval(secs => $4::double precision / 1000) AS account,
       (SELECT created_at FROM sign_in_attempts WHERE address = $2
          AND created_at > clock_timestamp() - make_interval(secs => $4::double precision / 1000)
          ORDER BY created_at DESC OFFSET $3 - 1 LIMIT 1) + make_interval(secs => $4::double precision / 1000) AS address`,
    [email, address, limit, windowMs],
  );
  return row;
}
