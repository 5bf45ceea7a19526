import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvField, fetchAllPages, toCsv } from './csv.ts';

describe('dashboard CSV export', () => {
  it('quotes commas, quotes, line breaks and edge spaces, and nothing else', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('Lovelace, Ada'), '"Lovelace, Ada"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('two\nlines'), '"two\nlines"');
    assert.equal(csvField('cr\r\nlf'), '"cr\r\nlf"');
    assert.equal(csvField(' padded'), '" padded"');
    assert.equal(csvField(''), '');
    assert.equal(csvField(null), '');
    assert.equal(csvField(undefined), '');
    assert.equal(csvField(39.5), '39.5');
    assert.equal(csvField(-2), '-2');
    assert.equal(csvField(false), 'false');
  });

  it('defuses fields a spreadsheet would run as formulas', () => {
    assert.equal(csvField('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"');
    assert.equal(csvField('+1 555'), "'+1 555");
    assert.equal(csvField('@sum'), "'@sum");
  });

  it('builds a header row and one CRLF-ended row per item that parses back to the same values', () => {
    const rows = [
      { name: 'Ada, Countess', email: 'ada@example.com', note: 'said "yes"\nthen left' },
      { name: 'Grace', email: 'grace@example.com', note: undefined },
    ];
    const csv = toCsv([
      { header: 'Name', value: (r) => r.name },
      { header: 'Email', value: (r) => r.email },
      { header: 'Note', value: (r) => r.note },
    ], rows);
    assert.equal(csv, 'Name,Email,Note\r\n"Ada, Countess",ada@example.com,"said ""yes""\nthen left"\r\nGrace,grace@example.com,\r\n');
    assert.deepEqual(parse(csv), [['Name', 'Email', 'Note'], ['Ada, Countess', 'ada@example.com', 'said "yes"\nthen left'], ['Grace', 'grace@example.com', '']]);
  });

  it('pages through a list by nextCursor', async () => {
    const pages: Record<string, { items: number[]; hasMore: boolean; nextCursor: string }> = {
      first: { items: [1, 2], hasMore: true, nextCursor: 'b' },
      b: { items: [3, 4], hasMore: true, nextCursor: 'c' },
      c: { items: [5], hasMore: false, nextCursor: '' },
    };
    const asked: (string | undefined)[] = [];
    const all = await fetchAllPages(async (cursor) => { asked.push(cursor); return pages[cursor ?? 'first']; });
    assert.deepEqual(all, [1, 2, 3, 4, 5]);
    assert.deepEqual(asked, [undefined, 'b', 'c']);
  });
});

/** A strict RFC 4180 reader, to prove the output round-trips. */
function parse(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      i++;
      while (i < text.length) {
        if (text[i] === '"' && text[i + 1] === '"') { field += '"'; i += 2; } else if (text[i] === '"') { i++; break; } else field += text[i++];
      }
    } else if (text[i] === ',') { row.push(field); field = ''; i++; } else if (text.startsWith('\r\n', i)) { row.push(field); rows.push(row); row = []; field = ''; i += 2; } else field += text[i++];
  }
  return rows;
}
