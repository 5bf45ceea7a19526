/**
 * CSV as RFC 4180 describes it, so a spreadsheet opens an export as the list showed it: fields
 * joined by commas, rows ended by CRLF, and a field quoted (its quotes doubled) when it holds a
 * comma, a quote, a line break or leading/trailing space. A field a spreadsheet would run as a
 * formula (starting with =, +, -, @, tab or CR) gets a leading apostrophe, as OWASP advises for
 * CSV exports, since names and emails here are typed by buyers.
 *
 * No DOM or React here: csv.test.ts runs it under Node.
 */

export type CsvValue = string | number | boolean | null | undefined;

/** One column: its header and how to read it from a row. */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvValue;
}

const formulaStart = /^[=+\-@\t\r]/;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  // A negative number is data, not a formula; anything else starting so is defused.
  if (typeof value === 'string' && formulaStart.test(text)) text = `'${text}`;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: CsvValue[]): string {
  return values.map(csvField).join(',');
}

/** The whole document: a header row, then one row per item, each ended by CRLF. */
export function toCsv<T>(columns: CsvColumn<T>[], rows: T[]): string {
  const lines = [csvRow(columns.map((c) => c.header)), ...rows.map((r) => csvRow(columns.map((c) => c.value(r))))];
  return lines.map((l) => `${l}\r\n`).join('');
}

/** One page of a public list, as every list operation answers. */
export interface CsvPage<T> { items: T[]; hasMore: boolean; nextCursor: string }

/**
 * Every item of a list, page by page (100 at a time, the API's largest page), following
 * nextCursor. Stops after `maxPages` so a runaway list cannot hang the tab.
 */
export async function fetchAllPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<CsvPage<T>>,
  options: { maxPages?: number; onProgress?: (count: number) => void } = {},
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < (options.maxPages ?? 1000); i++) {
    const page = await fetchPage(cursor);
    all.push(...page.items);
    options.onProgress?.(all.length);
    if (!page.hasMore || !page.nextCursor) return all;
    cursor = page.nextCursor;
  }
  return all;
}

/** A file name for an export: `customers-prod_123-2026-11-23.csv`. */
export function csvFileName(...parts: string[]): string {
  const day = new Date().toISOString().slice(0, 10);
  return `${[...parts, day].map((p) => p.replace(/[^A-Za-z0-9_.-]+/g, '-')).join('-')}.csv`;
}
