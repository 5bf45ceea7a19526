import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

/**
 * Issue 21: `transaction.*` events are recorded by transactions/ only (lifecycle.ts), whoever
 * moved the payment (checkout, renewals, the Stripe handler, refunds and disputes call it). A
 * file elsewhere that records events and names a transaction event type breaks that.
 */
const src = new URL('..', import.meta.url).pathname;

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sources(path)));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

describe('the transaction lifecycle', () => {
  it('is the only place outside the event catalog that records a transaction.* event', async () => {
    const offenders: string[] = [];
    for (const file of await sources(src)) {
      const name = relative(src, file);
      if (name.startsWith('transactions/') || name === 'webhooks/payloads.ts' || name.startsWith('testing/')) continue;
      const text = await readFile(file, 'utf8');
      if (/\brecordEvents?\s*\(/.test(text) && /type:\s*'transaction\.[a-z_]+'/.test(text)) offenders.push(name);
    }
    assert.deepEqual(offenders, [], 'record transaction events through transactions/lifecycle.ts');
  });

  it('catches a file that does', () => {
    const text = "await recordEvent(tx, { brandId, mode, type: 'transaction.refunded', data });";
    assert.ok(/\brecordEvents?\s*\(/.test(text) && /type:\s*'transaction\.[a-z_]+'/.test(text));
  });
});
