-- What an invoice names its seller by beyond the brand's name (issue 23): the business's postal
-- address and its tax number (VAT, GST, EIN…), both free text the creator writes once in the
-- brand profile and every invoice prints.
ALTER TABLE brands ADD COLUMN postal_address text, ADD COLUMN tax_id text;
