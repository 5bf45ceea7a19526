/**
 * A customer's id, as SQL: `cus_` and the md5 of brand, mode and the email in lower case. It is
 * a digest rather than a row's id so that no customers table has to be written on the checkout
 * path; md5 because it takes text, is immutable and is the same in PGlite and PostgreSQL (it
 * names, it does not protect: only the brand that knows the email ever sees the id).
 */
export function customerIdSql(brand: string, mode: string, email: string): string {
  return `'cus_' || md5(${brand} || '/' || ${mode} || '/' || lower(${email}))`;
}
