-- Attribution of what OAuth apps do (issue 13 item 7): the payment links an app creates record
-- how they were made (via) and the app (its OAuth client id); the transaction paying such a link
-- and the events recorded about it carry the app on. NULL: not made through an app.
ALTER TABLE payment_links ADD COLUMN via text, ADD COLUMN app_id text;
ALTER TABLE transactions ADD COLUMN app_id text;
ALTER TABLE events ADD COLUMN app_id text;
CREATE INDEX events_app_newest ON events (brand_id, app_id, created_at DESC) WHERE app_id IS NOT NULL;

-- The last requests each app made with its tokens (GET /dashboard/api/apps recentCalls): a small
-- bounded log, written at most a few times a second per app and trimmed to the newest rows.
CREATE TABLE oauth_app_calls (
  brand_id text NOT NULL,
  app_id text NOT NULL,
  id bigint GENERATED ALWAYS AS IDENTITY,
  method text NOT NULL,
  path text NOT NULL,
  status integer NOT NULL,
  at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (brand_id, app_id, id)
);
