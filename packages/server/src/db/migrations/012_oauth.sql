-- The OAuth authorization server's records (oidc-provider's models: Grant, AccessToken,
-- RefreshToken, AuthorizationCode, Client, Interaction, Session, ...) in one table, so any API
-- process can answer any step of a flow. The provider looks records up by id before it knows
-- the brand, so (kind, id) is the key, like api_keys' hash; brand_id is filled for the records
-- that belong to a brand (grants and the tokens issued under them) and leads the index the
-- dashboard lists a brand's apps by.
-- Token-like ids (access and refresh tokens, codes, sessions, interactions) are stored as their
-- SHA-256, never as the value a client holds.
CREATE TABLE oauth_records (
  kind          text NOT NULL,
  id            text NOT NULL,
  brand_id      text REFERENCES brands (id),
  grant_id      text,
  uid           text,
  user_code     text,
  payload       jsonb NOT NULL,
  expires_at    timestamptz,
  consumed_at   timestamptz,
  last_used_at  timestamptz,
  created_at    timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (kind, id)
);
CREATE INDEX oauth_records_grant ON oauth_records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_records_uid ON oauth_records (uid) WHERE uid IS NOT NULL;
CREATE INDEX oauth_records_brand ON oauth_records (brand_id, kind, created_at DESC) WHERE brand_id IS NOT NULL;
CREATE INDEX oauth_records_expiry ON oauth_records (expires_at) WHERE expires_at IS NOT NULL;
