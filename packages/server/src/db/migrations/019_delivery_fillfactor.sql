-- Room on each page of webhook_deliveries for the claim's update (issue 14 item 2). A claim sets
-- only locked_until and locked_by, which no index holds, so when the new row version fits on the
-- row's page PostgreSQL writes it as a heap-only tuple and none of the table's nine indexes gets
-- an entry. At the default fillfactor (100) pages filled by inserts had no room: every claim wrote
-- nine index entries. At 70, about one claim in five found room; at 50 all of them do (a claim
-- and the outcome's update each need a new version of the row on its page; see
-- docs/performance.md). The cost: the delivery log's heap pages stay about half full, so the
-- table (not its indexes) takes about twice the space. Applies to pages written from now on.
ALTER TABLE webhook_deliveries SET (fillfactor = 50);
