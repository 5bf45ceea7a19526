-- Imports that bring people back (docs/imports.md, What happened to each record): a person whose
-- membership was removed or expired is reactivated, not skipped, and the import keeps what
-- happened to each record, one row per batch (no personal data: the record's index in the
-- request, the outcome and the membership id).
ALTER TABLE imports
  ADD COLUMN reactivated_count integer NOT NULL DEFAULT 0,
  ADD COLUMN refused_count     integer NOT NULL DEFAULT 0;

CREATE TABLE import_outcomes (
  brand_id   text NOT NULL,
  import_id  text NOT NULL,
  position   integer NOT NULL,
  outcomes   json NOT NULL,
  PRIMARY KEY (brand_id, import_id, position),
  FOREIGN KEY (brand_id, import_id) REFERENCES imports (brand_id, id) ON DELETE CASCADE
);

-- Dashboard email verification (docs/dashboard.md, Confirming your address). Accounts made
-- before this, by the operator's CLI or through an invite count as confirmed (someone vouched for
-- them); sign-up sets NULL until the mailed link is followed.
ALTER TABLE users ADD COLUMN email_verified_at timestamptz DEFAULT date_trunc('milliseconds', clock_timestamp());

CREATE TABLE email_verifications (
  id          text PRIMARY KEY,
  token_hash  text NOT NULL UNIQUE,
  user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX email_verifications_user ON email_verifications (user_id);

-- Checkout email verification (docs/checkout.md, Email verification): a brand setting, and the
-- 6-digit code of each payment link, stored as a hash, with its tries and sends.
ALTER TABLE mail_settings ADD COLUMN checkout_email_verification boolean NOT NULL DEFAULT false;

CREATE TABLE checkout_codes (
  brand_id         text NOT NULL,
  payment_link_id  text NOT NULL,
  code_hash        text NOT NULL,
  expires_at       timestamptz NOT NULL,
  attempts         integer NOT NULL DEFAULT 0,
  sends            integer NOT NULL DEFAULT 1,
  sent_at          timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  verified_at      timestamptz,
  PRIMARY KEY (brand_id, payment_link_id)
);
