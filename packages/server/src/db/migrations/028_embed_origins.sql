-- The sites that may show this brand's checkout in the embeddable overlay (issue 24, item 6;
-- docs/checkout.md, "Embedding the checkout"): origins such as https://ink.example, answered as
-- the checkout pages' `Content-Security-Policy: frame-ancestors`. Empty: no site may frame them.
ALTER TABLE brands ADD COLUMN embed_origins text[] NOT NULL DEFAULT '{}';
