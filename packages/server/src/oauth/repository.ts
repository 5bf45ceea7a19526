import { createHash } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import { parseAccountId } from './account.ts';

/**
 * The one table of the authorization server (migration 012): oidc-provider's storage adapter
 * and the reads the bearer resolver and the dashboard make. Nothing else touches oauth_records.
 */

/** Kinds whose id is a credential a client holds: stored as its SHA-256 only. */
const hashedKinds = new Set(['AccessToken', 'RefreshToken', 'AuthorizationCode', 'ClientCredentials', 'DeviceCode',
  'BackchannelAuthenticationRequest', 'RegistrationAccessToken', 'Session', 'Interaction', 'PushedAuthorizationRequest', 'ReplayDetection']);

export const storedId = (kind: string, id: string) => (hashedKinds.has(kind) ? createHash('sha256').update(id).digest('base64url') : id);

type Payload = Record<string, unknown>;

/** How long a dynamically registered client is kept when no creator approves it (docs/oauth-mcp.md). */
export const unapprovedClientTtlSeconds = 24 * 3600;

/** A client someone approved, or that an admin made, is kept until removed. */
export async function keepClient(db: Queryable, clientId: string) {
  await db.query("UPDATE oauth_records SET expires_at = NULL WHERE kind = 'Client' AND id = $1 AND expires_at IS NOT NULL", [clientId], 'oauth_keep_client');
}

/** oidc-provider's Adapter interface on our database; one instance per model name. */
export function adapterClass(db: Queryable) {
  return class DbAdapter {
    readonly kind: string;
    constructor(name: string) {
      this.kind = name;
    }

    async upsert(id: string, payload: Payload, expiresIn?: number) {
      // A registered client lives a day until a creator approves it (below); registration is open,
      // and a client nobody ever connected is only a row.
      if (this.kind === 'Client' && expiresIn === undefined) expiresIn = unapprovedClientTtlSeconds;
      const account = parseAccountId(payload.accountId);
      await db.query(
        `INSERT INTO oauth_records (kind, id, brand_id, grant_id, uid, user_code, payload, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $8::integer IS NULL THEN NULL ELSE clock_timestamp() + make_interval(secs => $8::integer) END)
         ON CONFLICT (kind, id) DO UPDATE SET brand_id = EXCLUDED.brand_id, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
           user_code = EXCLUDED.user_code, payload = EXCLUDED.payload, expires_at = EXCLUDED.expires_at`,
        [this.kind, storedId(this.kind, id), account?.brandId ?? null, payload.grantId ?? null, payload.uid ?? null,
          payload.userCode ?? null, JSON.stringify(payload), expiresIn ?? null],
        'oauth_upsert',
      );
      if (this.kind === 'Grant' && typeof payload.clientId === 'string') await keepClient(db, payload.clientId);
    }

    async find(id: string): Promise<Payload | undefined> {
      return findRecord(db, this.kind, 'id', storedId(this.kind, id));
    }

    async findByUid(uid: string) {
      return findRecord(db, this.kind, 'uid', uid);
    }

    async findByUserCode(userCode: string) {
      return findRecord(db, this.kind, 'user_code', userCode);
    }

    async consume(id: string) {
      await db.query('UPDATE oauth_records SET consumed_at = clock_timestamp() WHERE kind = $1 AND id = $2',
        [this.kind, storedId(this.kind, id)], 'oauth_consume');
    }

    async destroy(id: string) {
      await db.query('DELETE FROM oauth_records WHERE kind = $1 AND id = $2', [this.kind, storedId(this.kind, id)], 'oauth_destroy');
    }

    async revokeByGrantId(grantId: string) {
      await revokeGrant(db, grantId);
    }
  };
}

/** Text PostgreSQL can compare: an id with a NUL or an unpaired surrogate (`?client_id=%00`) finds nothing rather than failing. */
const storable = (value: unknown): value is string => typeof value === 'string' && !/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);

async function findRecord(db: Queryable, kind: string, column: 'id' | 'uid' | 'user_code', value: string) {
  if (!storable(value)) return undefined;
  const [row] = await db.query<{ payload: Payload; consumed: number | null }>(
    `SELECT payload, extract(epoch FROM consumed_at)::bigint AS consumed FROM oauth_records
     WHERE kind = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > clock_timestamp())`,
    [kind, value], `oauth_find_${column}`,
  );
  if (!row) return undefined;
  return row.consumed === null ? row.payload : { ...row.payload, consumed: Number(row.consumed) };
}

/** Whether any creator ever approved the client (a grant made for it still stands). */
export async function clientHasGrant(db: Queryable, clientId: string): Promise<boolean> {
  if (!storable(clientId)) return false;
  const rows = await db.query("SELECT 1 FROM oauth_records WHERE kind = 'Grant' AND payload->>'clientId' = $1 AND (expires_at IS NULL OR expires_at > clock_timestamp()) LIMIT 1", [clientId]);
  return rows.length > 0;
}

/**
 * How a client authenticates at the token endpoint ('none' for a public client); a client known
 * by its metadata document URL (not stored) is public. Undefined for an unknown client.
 */
export async function clientAuthMethod(db: Queryable, clientId: string): Promise<string | undefined> {
  if (/^https:\/\//.test(clientId)) return 'none';
  if (!storable(clientId)) return undefined;
  const [row] = await db.query<{ method: string | null }>("SELECT payload->>'token_endpoint_auth_method' AS method FROM oauth_records WHERE kind = 'Client' AND id = $1", [clientId]);
  return row ? row.method ?? 'client_secret_basic' : undefined;
}

/** Removes a grant and every code and token issued under it: the next use of any of them fails. */
export async function revokeGrant(db: Queryable, grantId: string) {
  await db.query(
    `DELETE FROM oauth_records WHERE (kind = 'Grant' AND id = $1)
       OR (grant_id = $1 AND kind IN ('AccessToken', 'RefreshToken', 'AuthorizationCode', 'ClientCredentials', 'DeviceCode', 'BackchannelAuthenticationRequest'))`,
    [grantId], 'oauth_revoke_grant',
  );
}

/** What the bearer resolver needs, read in one statement on every request: token, its live grant, the brand's plan. */
export interface BearerRow {
  token: Payload;
  grant: Payload;
  grant_id: string;
  brand_id: string;
  plan: 'free' | 'plus';
  token_expired: boolean;
}

export async function findBearer(db: Queryable, token: string): Promise<BearerRow | undefined> {
  const [row] = await db.query<BearerRow>(
    `SELECT t.payload AS token, g.payload AS grant, g.id AS grant_id, g.brand_id, b.plan,
            (t.expires_at IS NOT NULL AND t.expires_at <= clock_timestamp()) AS token_expired
     FROM oauth_records t
     JOIN oauth_records g ON g.kind = 'Grant' AND g.id = t.grant_id AND (g.expires_at IS NULL OR g.expires_at > clock_timestamp())
     JOIN brands b ON b.id = g.brand_id
     WHERE t.kind = 'AccessToken' AND t.id = $1`,
    [storedId('AccessToken', token)], 'oauth_find_bearer',
  );
  return row;
}

/** Marks the grant used, at most once a minute, so the dashboard can say when an app last acted. */
export async function touchGrant(db: Queryable, brandId: string, grantId: string) {
  await db.query(
    `UPDATE oauth_records SET last_used_at = clock_timestamp() WHERE brand_id = $1 AND kind = 'Grant' AND id = $2
       AND (last_used_at IS NULL OR last_used_at < clock_timestamp() - interval '1 minute')`,
    [brandId, grantId], 'oauth_touch_grant',
  );
}

export interface GrantRow {
  id: string;
  payload: Payload;
  client: Payload | null;
  created_at: Date;
  last_used_at: Date | null;
}

/** The brand's live grants (connected apps), newest first, with the client each was made for. */
export async function listGrants(db: Queryable, brandId: string): Promise<GrantRow[]> {
  return db.query<GrantRow>(
    `SELECT g.id, g.payload, c.payload AS client, g.created_at, g.last_used_at
     FROM oauth_records g LEFT JOIN oauth_records c ON c.kind = 'Client' AND c.id = g.payload->>'clientId'
     WHERE g.brand_id = $1 AND g.kind = 'Grant' AND (g.expires_at IS NULL OR g.expires_at > clock_timestamp())
     ORDER BY g.created_at DESC, g.id DESC`,
    [brandId],
  );
}

export async function findGrantOfBrand(db: Queryable, brandId: string, grantId: string) {
  const [row] = await db.query<{ id: string }>("SELECT id FROM oauth_records WHERE brand_id = $1 AND kind = 'Grant' AND id = $2", [brandId, grantId]);
  return row;
}

/** A kept value of the server's own (its signing keys), sealed by the caller. */
export async function findSetting(db: Queryable, id: string): Promise<string | undefined> {
  const [row] = await db.query<{ payload: { sealed: string } }>("SELECT payload FROM oauth_records WHERE kind = 'ServerSetting' AND id = $1", [id]);
  return row?.payload.sealed;
}

/** Stores the value unless another process stored one first; returns the one that is kept. */
export async function keepSetting(db: Queryable, id: string, sealed: string): Promise<string> {
  await db.query("INSERT INTO oauth_records (kind, id, payload) VALUES ('ServerSetting', $1, $2) ON CONFLICT DO NOTHING", [id, JSON.stringify({ sealed })]);
  return (await findSetting(db, id))!;
}

export async function replaceSetting(db: Queryable, id: string, sealed: string): Promise<void> {
  await db.query("UPDATE oauth_records SET payload = $2 WHERE kind = 'ServerSetting' AND id = $1", [id, JSON.stringify({ sealed })]);
}

/**
 * Deletes records past their expiry (codes, tokens, sessions, interactions; grants after a year
 * unused), in batches so one run never holds a long lock. Reads already ignore them.
 */
export async function purgeExpiredRecords(db: Queryable, batch = 1000): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM oauth_records WHERE (kind, id) IN (
         SELECT kind, id FROM oauth_records WHERE expires_at < clock_timestamp() - interval '1 minute' LIMIT $1)
       RETURNING 1)
     SELECT count(*)::integer AS n FROM gone`,
    [batch],
  );
  return Number(rows[0]?.n ?? 0);
}
