import { Type, type Static } from 'typebox';
import { scopes, type Scope } from '../auth/principal.ts';
import { Mode } from '../http/shapes.ts';
import { NullableTimestamp, Timestamp } from '../http/shapes.ts';

const ScopeName = Type.Unsafe<Scope>({ type: 'string', enum: [...scopes] });

/** An API key as the dashboard and `key list` show it: never the key, never its hash. */
export const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  mode: Mode,
  scopes: Type.Array(ScopeName),
  prefix: Type.String({ description: '`svc_test_` or `svc_live_` and the next four characters.' }),
  lastFour: Type.Union([Type.String(), Type.Null()], { description: 'The key\'s last four characters (null for keys made before they were kept).' }),
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()], { description: 'When the key last authenticated a request, to the minute: each API process records it at most once a minute per key.' }),
  expiresAt: Type.Union([Timestamp, Type.Null()], { description: 'A rolled key\'s end of grace: refused from then on. Null: no end.' }),
  revokedAt: NullableTimestamp,
}, { $id: 'ApiKey' });

/** The one answer that shows the key itself: made now, shown once. */
export const CreatedApiKey = Type.Object({
  ...ApiKey.properties,
  key: Type.String({ description: 'The key. Shown only in this answer: store it now.' }),
}, { $id: 'CreatedApiKey' });

export const RolledApiKey = Type.Object({
  key: CreatedApiKey,
  previous: ApiKey,
}, { $id: 'RolledApiKey' });

// Scopes are checked by the service (not an enum here) so a bad one is named in the message.
export const CreateKeyBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  scopes: Type.Array(Type.String(), { description: 'At least one scope, each once.' }),
}, { additionalProperties: false });

/** Seven days: the longest a rolled key keeps working, so a leaked key cannot be kept alive by rolling. */
export const maxGraceSeconds = 604_800;

export const RollKeyBody = Type.Object({
  graceSeconds: Type.Integer({ minimum: 0, maximum: maxGraceSeconds, description: 'How long the old key keeps working: 0 (stops now) to 604800 (7 days).' }),
}, { additionalProperties: false });

export type ApiKey = Static<typeof ApiKey>;
export type CreatedApiKey = Static<typeof CreatedApiKey>;
