import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scopeSentences } from '../../../dashboard/src/routes/developers/scopes.ts';
import { scopes } from '../auth/principal.ts';
import { scopeWords } from './scopes.ts';

describe('scope words', () => {
  it('the consent screen and the dashboard key form describe every API scope, and only those', () => {
    for (const scope of scopes) assert.notEqual(scopeWords(scope), scope, `the consent screen has words for ${scope}`);
    assert.deepEqual(scopeSentences.map((s) => s.scope).sort(), [...scopes].sort());
  });

  it('name events and deliveries where they are read (webhooks:write), not under transactions:read', () => {
    assert.match(scopeWords('webhooks:write'), /events/);
    assert.doesNotMatch(scopeWords('transactions:read'), /events/);
    assert.match(scopeSentences.find((s) => s.scope === 'webhooks:write')!.sentence, /events/);
  });
});
