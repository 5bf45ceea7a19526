-- Customers and the subscriptions list (docs/customers.md). A customer is not a table: it is
-- everyone who holds a membership or made a paid transaction, one per normalised (lower-case)
-- email in a brand's mode, read from those rows when asked. These indexes serve that reading:
-- grouping and finding one person's rows by lower(email), and the subscriptions list newest first.
CREATE INDEX memberships_person ON memberships (brand_id, mode, lower(email));
CREATE INDEX transactions_person ON transactions (brand_id, mode, lower(customer_email));
CREATE INDEX subscriptions_person ON subscriptions (brand_id, mode, lower(customer_email));
CREATE INDEX subscriptions_newest ON subscriptions (brand_id, mode, created_at DESC, id DESC);
-- GET /customers/{id}: the id is a digest (customers/id.ts), found by these expression indexes
-- instead of hashing every email of the brand on each request.
CREATE INDEX memberships_customer ON memberships (brand_id, mode, ('cus_' || md5(brand_id || '/' || mode || '/' || lower(email))));
CREATE INDEX transactions_customer ON transactions (brand_id, mode, ('cus_' || md5(brand_id || '/' || mode || '/' || lower(customer_email))));
