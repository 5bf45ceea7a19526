import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from '../testing/processes.ts';

/** Help is an answer (stdout, exit 0); a mistyped flag gets the command's own usage (issue 27, item 5). */
describe('the CLI\'s help', () => {
  it('prints the whole usage on stdout with exit 0 for --help, -h, help and no command', async () => {
    for (const args of [['--help'], ['-h'], ['help'], []]) {
      const res = await runCli(args, {});
      assert.equal(res.code, 0, `${args.join(' ')}: ${res.stderr}`);
      assert.equal(res.stderr, '');
      assert.match(res.stdout, /^Usage: npm run cli -- <command>/);
      assert.match(res.stdout, /oauth client create/);
    }
  });

  it('prints one command\'s usage for `<command> --help`', async () => {
    const res = await runCli(['key', 'roll', '--help'], {});
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /key roll KEY_ID \[--grace 24h\]/);
    assert.match(res.stdout, /for the grace period/, 'its continuation line too');
    assert.doesNotMatch(res.stdout, /brand create|key create/);
  });

  it('answers a mistyped flag with the command\'s usage and a suggestion, on stderr, exit 1', async () => {
    const res = await runCli(['key', 'create', '--brand', 'brand_x', '--mdoe', 'test'], {});
    assert.equal(res.code, 1);
    assert.equal(res.stdout, '');
    assert.match(res.stderr, /^Unknown option --mdoe \(did you mean --mode\?\)\./);
    assert.match(res.stderr, /key create --brand ID --mode test\|live/);
    assert.doesNotMatch(res.stderr, /brand create/);
  });
});
