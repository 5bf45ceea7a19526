import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openPglite } from './client.ts';
import { migrate } from './migrate.ts';

/** The embedded data folder (every brand's data, the webhook sealing key) is for this user alone. */
const root = await mkdtemp(join(tmpdir(), 'data-dir-'));
after(() => rm(root, { recursive: true, force: true }));

async function looseEntries(dir: string): Promise<string[]> {
  const loose: string[] = [];
  const { mode } = await stat(dir);
  if (mode & 0o077) loose.push(`${dir} ${(mode & 0o777).toString(8)}`);
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    const m = (await stat(path)).mode;
    if (m & 0o077) loose.push(`${path} ${(m & 0o777).toString(8)}`);
  }
  return loose;
}

describe('the embedded data folder', () => {
  it('is created 0700 with no file readable or writable by group or others', async () => {
    const dir = join(root, 'fresh');
    const db = await openPglite(dir);
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
    assert.deepEqual(await looseEntries(dir), [], 'after opening');
    await migrate(db);
    await db.close();
    assert.deepEqual(await looseEntries(dir), [], 'after closing');
  });

  it('tightens a folder made before the rule when it opens it', async () => {
    const dir = join(root, 'old');
    const db = await openPglite(dir);
    await db.close();
    await chmod(dir, 0o777);
    await mkdir(join(dir, 'extra'), { mode: 0o777 });
    await chmod(join(dir, 'extra'), 0o777);
    await writeFile(join(dir, 'extra', 'file'), 'x');
    await chmod(join(dir, 'extra', 'file'), 0o666);
    const reopened = await openPglite(dir);
    await reopened.close();
    assert.deepEqual(await looseEntries(dir), []);
  });
});
