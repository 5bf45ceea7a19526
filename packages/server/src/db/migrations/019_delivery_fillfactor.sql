-- Room on each page of webhook_deliveries for the claim's update (issue 14 item 2). A claim sets
-- only locked_until and locked_by, which no index holds, so with free space on the row's page
-- PostgreSQL writes it as a heap-only tuple and none of the table's nine indexes gets an entry.
-- At the default fillfactor (100) pages filled by inserts have no room and every claim wrote
-- nine index entries. Applies to pages written from now on.
ALTER TABLE webhook_deliveries SET (fillfactor = 70);
