-- Mail (docs/email.md): the outbox of messages, each written in the transaction of what caused
-- it and sent by the worker; the log of every try; a brand's mail settings; the owners' notices
-- already sent about disabled webhook endpoints; and invoice numbers.

-- One message to one recipient. `brand_id` is '' for mail about a dashboard account that belongs
-- to no one brand (a password reset), so the brand still leads every key; there is no foreign key
-- for that reason. `data` is what the template needs; the rendered parts are kept once the worker
-- (or a first look) renders them, so what is shown is what went out.
CREATE TABLE mail_messages (
  brand_id         text NOT NULL,
  id               text NOT NULL,
  -- Test or live for mail caused by something that happened in a mode; null for account mail.
  mode             text CHECK (mode IN ('test', 'live')),
  kind             text NOT NULL,
  -- 'transactional' (receipts, access, security) or 'marketing' (only to buyers who opted in).
  class            text NOT NULL CHECK (class IN ('transactional', 'marketing')),
  to_address       text NOT NULL,
  to_name          text,
  subject          text NOT NULL,
  data             jsonb NOT NULL,
  html             text,
  text_body        text,
  headers          jsonb,
  -- queued: waiting for (another) try; sending: a worker holds it until lease_until;
  -- sent; failed: refused for good or out of tries; unsent: no mail server is configured.
  status           text NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'unsent')),
  status_detail    text,
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz,
  lease_until      timestamptz,
  -- What made it, once: a receipt per transaction, a notice per endpoint disabling, and so on.
  dedupe_key       text NOT NULL,
  sent_at          timestamptz,
  created_at       timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, id)
);
CREATE UNIQUE INDEX mail_messages_dedupe ON mail_messages (brand_id, dedupe_key);
CREATE INDEX mail_messages_newest ON mail_messages (brand_id, created_at DESC, id DESC);
-- The worker's claim: only messages still to send are in it.
CREATE INDEX mail_messages_due ON mail_messages (next_attempt_at) WHERE status IN ('queued', 'sending');

-- Every try to hand a message to the SMTP server, with its answer.
CREATE TABLE mail_attempts (
  brand_id    text NOT NULL,
  message_id  text NOT NULL,
  attempt     integer NOT NULL,
  outcome     text NOT NULL CHECK (outcome IN ('sent', 'failed', 'bounced', 'unsent')),
  response    text,
  at          timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, message_id, attempt)
);

-- A brand's mail settings; a brand without a row has the defaults (its name as the sender name,
-- no reply-to, the default colour, every kind on).
CREATE TABLE mail_settings (
  brand_id        text PRIMARY KEY REFERENCES brands (id),
  from_name       text,
  reply_to        text,
  brand_colour    text,
  disabled_kinds  text[] NOT NULL DEFAULT '{}',
  updated_at      timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp())
);

-- The owners were told that this endpoint was disabled for this reason (webhooks/claim.ts
-- disables endpoints in SQL; the mail domain finds them afterwards). The reason of a disabling
-- after failures names when the failures began, so a later disabling is a new row.
CREATE TABLE mail_endpoint_notices (
  brand_id     text NOT NULL REFERENCES brands (id),
  endpoint_id  text NOT NULL,
  reason       text NOT NULL,
  noticed_at   timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, endpoint_id, reason)
);

-- Invoice numbers: per brand and mode, 1, 2, 3… with no gap and no duplicate. The counter row is
-- updated in the transaction of the payment, so a rolled-back payment gives its number back.
CREATE TABLE invoice_counters (
  brand_id  text NOT NULL REFERENCES brands (id),
  mode      text NOT NULL CHECK (mode IN ('test', 'live')),
  last      integer NOT NULL,
  PRIMARY KEY (brand_id, mode)
);

CREATE TABLE invoices (
  brand_id        text NOT NULL REFERENCES brands (id),
  mode            text NOT NULL CHECK (mode IN ('test', 'live')),
  number          integer NOT NULL,
  transaction_id  text NOT NULL,
  txref           text NOT NULL,
  issued_at       timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  PRIMARY KEY (brand_id, mode, number)
);
CREATE UNIQUE INDEX invoices_transaction ON invoices (brand_id, transaction_id);
CREATE UNIQUE INDEX invoices_txref ON invoices (brand_id, txref);
