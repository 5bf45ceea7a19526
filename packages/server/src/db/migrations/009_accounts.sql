-- Dashboard accounts (docs/dashboard.md): people who sign in, the brands they belong to, their
-- server-side sessions, one-time links (invites, password resets) and failed sign-ins.
-- Users and sessions are looked up before a brand is known (by email, by token hash), so like
-- api_keys they are keyed on their own; with Citus they would be reference tables. Every secret
-- (session, invite and reset tokens) is stored only as its SHA-256 hash.

CREATE TABLE users (
  id             text PRIMARY KEY,
  email          text NOT NULL,
  name           text NOT NULL,
  -- argon2id (PHC string); null until the person sets one through a reset link.
  password_hash  text,
  created_at     timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  updated_at     timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp())
);
CREATE UNIQUE INDEX users_email ON users (lower(email));

CREATE TABLE brand_members (
  brand_id    text NOT NULL REFERENCES brands (id),
  user_id     text NOT NULL REFERENCES users (id),
  role        text NOT NULL CHECK (role IN ('owner', 'developer')),
  created_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, user_id)
);
CREATE INDEX brand_members_user ON brand_members (user_id);

CREATE TABLE sessions (
  id            text PRIMARY KEY,
  token_hash    text NOT NULL UNIQUE,
  user_id       text NOT NULL REFERENCES users (id),
  brand_id      text NOT NULL REFERENCES brands (id),
  mode          text NOT NULL CHECK (mode IN ('test', 'live')),
  csrf_token    text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  -- Touched at most once a minute; the session ends after the idle timeout without a request.
  last_seen_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  -- The absolute end, whatever the activity.
  expires_at    timestamptz NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

CREATE TABLE invites (
  brand_id     text NOT NULL REFERENCES brands (id),
  id           text NOT NULL,
  token_hash   text NOT NULL UNIQUE,
  role         text NOT NULL CHECK (role IN ('owner', 'developer')),
  created_by   text NOT NULL REFERENCES users (id),
  created_at   timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  expires_at   timestamptz NOT NULL,
  accepted_by  text REFERENCES users (id),
  accepted_at  timestamptz,
  PRIMARY KEY (brand_id, id)
);

CREATE TABLE password_resets (
  id          text PRIMARY KEY,
  token_hash  text NOT NULL UNIQUE,
  user_id     text NOT NULL REFERENCES users (id),
  created_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX password_resets_user ON password_resets (user_id);

-- Failed sign-ins only, for throttling (15-minute window): by account (lower-cased email, known
-- or not) and by client address. A successful sign-in clears its account's count, not its address's.
CREATE TABLE sign_in_attempts (
  email       text NOT NULL,
  address     text NOT NULL,
  cleared     boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp())
);
CREATE INDEX sign_in_attempts_email ON sign_in_attempts (email, created_at);
CREATE INDEX sign_in_attempts_address ON sign_in_attempts (address, created_at);
