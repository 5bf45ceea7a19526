import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scopeSentences } from '../../../dashboard/src/routes/developers/scopes.ts';
import { scopes } from '../auth/principal.ts';
import { scopeWords } from './scopes.ts';
import { parseCommand } from '../cli/parse.ts';

describe('scope words', () => {
  it('the consent screen and the dashboard key form describe every API scope, and only those', () => {
    for (const scope of scopes) assert.notEqual(scopeWords(scope), scope, `the consent screen has words for ${scope}`);
    assert.deepEqual(scopeSentences.map((s) => s.scope).sort(), [...scopes].sort());
  });

  it('say in words that transactions:write gives money back, on the consent screen and the key form; `--scopes all` grants it', async () => {
    assert.match(scopeWords('transactions:write'), /^Refund payments \(money goes back to buyers/);
    assert.match(scopeSentences.find((s) => s.scope === 'transactions:write')!.sentence, /^Refund transactions: give money back to buyers/);
    for (const argv of [['key', 'create', '--brand', 'brand_x', '--mode', 'live'], ['key', 'create', '--brand', 'brand_x', '--mode', 'live', '--scopes', 'all']]) {
      const cmd = await parseCommand(argv);
      assert.ok(cmd.command === 'key create' && cmd.scopes.includes('transactions:write'), argv.join(' '));
    }
  });

  it('name events and deliveries where they are read (webhooks:write), not under transactions:read', () => {
    assert.match(scopeWords('webhooks:write'), /events/);
    assert.doesNotMatch(scopeWords('transactions:read'), /events/);
    assert.match(scopeSentences.find((s) => s.scope === 'webhooks:write')!.sentence, /events/);
  });
});
