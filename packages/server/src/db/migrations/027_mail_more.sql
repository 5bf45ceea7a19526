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
