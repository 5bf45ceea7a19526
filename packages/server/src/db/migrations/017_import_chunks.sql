-- The records still to process, in chunks of consecutive records (issue 14: imports at 50,000
-- records/s). One row per person cost an index entry, a foreign-key check and a WAL record each,
-- which made queuing 10,000 records slower than importing them. A chunk holds up to a hundred
-- records, already validated and normalised: [{"index", "name", "email", "phone"?, "fields"}, …]
-- in request order. `position` is the index of its first record, `size` how many it holds.
--
-- Stored as json, not jsonb: it is written once and read back whole, never queried inside, and
-- json keeps the text as sent, so neither side converts it.
--
-- As before, a batch deletes what it takes in the transaction that writes the memberships, so a
-- crash rolls both back together and a restarted worker resumes where the last commit left off.
CREATE TABLE import_chunks (
  brand_id   text NOT NULL,
  import_id  text NOT NULL,
  position   integer NOT NULL,
  size       integer NOT NULL CHECK (size > 0),
  records    json NOT NULL,
  PRIMARY KEY (brand_id, import_id, position),
  FOREIGN KEY (brand_id, import_id) REFERENCES imports (brand_id, id) ON DELETE CASCADE
);

-- Records queued before this migration become chunks of one, in their order.
INSERT INTO import_chunks (brand_id, import_id, position, size, records)
SELECT brand_id, import_id, position, 1, json_build_array(record) FROM import_records;

DROP TABLE import_records;
