import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCommand } from '../cli/commands.ts';
import { parseCommand, UsageError } from '../cli/parse.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { dashboardClient, signUp } from '../testing/dashboard.ts';

/** The operator's view of the outbox: `npm run cli -- email list|show`, the very commands the CLI runs. */
let t: TestApp;
before(async () => { t = await startTestApp({ worker: true }); });
after(async () => { await t.close(); });

describe('email list and email show', () => {
  it('list account mail that no brand\'s key sees (a password reset) and show it whole, link included', async () => {
    const owner = await signUp(t);
    const asked = await dashboardClient(t).call('POST', '/dashboard/api/password-reset/request', { email: owner.email }, { origin: 'http://localhost:3000' });
    assert.equal(asked.status, 200);
    const list = await runCommand(t.db, undefined, await parseCommand(['email', 'list', '--limit', '50']), t.config) as { items: any[] };
    const reset = list.items.find((m) => m.to === owner.email && m.kind === 'password_reset');
    assert.ok(reset, JSON.stringify(list.items));
    assert.equal(reset.brandID, null, 'account mail belongs to no brand');
    const started = Date.now();
    let shown: any;
    for (;;) {
      shown = await runCommand(t.db, undefined, await parseCommand(['email', 'show', reset.id]), t.config);
      if (shown.status === 'unsent' || Date.now() - started > 10_000) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(shown.status, 'unsent');
    assert.match(shown.text, /Set a new password: http:\/\/localhost:3000\/dashboard\/reset-password\?token=\S+/);
    assert.equal(shown.headers.To, `"Ada Owner" <${owner.email}>`);
    assert.deepEqual(shown.log.map((l: { outcome: string }) => l.outcome), ['unsent']);

    const brandList = await runCommand(t.db, undefined, await parseCommand(['email', 'list', '--brand', owner.brand.id]), t.config) as { items: any[] };
    assert.ok(brandList.items.every((m) => m.brandID === owner.brand.id));
  });

  it('refuse a bad --limit and an unknown message id', async () => {
    await assert.rejects(parseCommand(['email', 'list', '--limit', 'lots']), UsageError);
    await assert.rejects(parseCommand(['email', 'show']), /MESSAGE_ID/);
    await assert.rejects(runCommand(t.db, undefined, { command: 'email show', messageId: 'msg_nope' }, t.config), /No email with id msg_nope/);
  });
});
