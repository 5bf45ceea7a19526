import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { repositoryFields, webAddressOf } from '../../../scripts/sdk-pack.ts';

/** What a user installing the SDK from the repository or its tarball gets (issue 27, item 1). */
const sdkDir = new URL('..', import.meta.url).pathname;
const root = new URL('../../../', import.meta.url).pathname;
const run = promisify(execFile);
// The settings of the `npm test` that runs us (npm_config_*) must not decide how npm behaves here.
const npmEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_config_')));
const json = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

describe('the SDK package', () => {
  it('is MIT-licensed, with the licence in the repository and the package', async () => {
    const pkg = await json(`${sdkDir}package.json`);
    assert.equal(pkg.license, 'MIT');
    assert.equal((await json(`${root}package.json`)).license, 'MIT');
    for (const file of [`${root}LICENSE`, `${sdkDir}LICENSE`]) assert.match(await readFile(file, 'utf8'), /^MIT License/);
    assert.ok(pkg.engines?.node, 'engines.node');
  });

  it('names no made-up host: no address is written into package.json', async () => {
    const manifest = await readFile(`${sdkDir}package.json`, 'utf8');
    assert.equal(JSON.parse(manifest).repository, undefined);
    assert.equal(JSON.parse(manifest).homepage, undefined);
    assert.doesNotMatch(manifest, /https?:\/\//);
  });

  it('reads a git remote\'s web address the way sdk:pack does', () => {
    for (const [remote, web] of [
      ['git@github.com:acme/creator-commerce.git', 'https://github.com/acme/creator-commerce'],
      ['https://github.com/acme/creator-commerce.git', 'https://github.com/acme/creator-commerce'],
      ['https://someone:token@git.acme.test:8443/shop/creator-commerce/', 'https://git.acme.test:8443/shop/creator-commerce'],
      ['ssh://git@gitlab.com:2222/acme/creator-commerce.git', 'https://gitlab.com/acme/creator-commerce'],
    ]) assert.equal(webAddressOf(remote), web, remote);
    for (const local of ['/srv/git/creator-commerce.git', 'file:///srv/git/cc.git', '../cc']) assert.equal(webAddressOf(local), undefined, local);
    assert.deepEqual(repositoryFields('https://gitlab.com/acme/cc'), {
      repository: { type: 'git', url: 'git+https://gitlab.com/acme/cc.git', directory: 'packages/sdk' },
      homepage: 'https://gitlab.com/acme/cc/-/tree/HEAD/packages/sdk#readme',
    });
  });

  it('`npm run sdk:pack` names the origin remote as repository and homepage in the tarball, and none without one', async () => {
    const manifestBefore = await readFile(`${sdkDir}package.json`, 'utf8');
    const work = await mkdtemp(join(tmpdir(), 'sdk-pack-remote-'));
    try {
      // A repository of its own stands in for the checkout's git config (GIT_DIR), so the test
      // neither needs nor changes this checkout's remotes.
      await run('git', ['init', '-q', join(work, 'repo')]);
      const packed = async (dest: string) => {
        await mkdir(dest);
        // --ignore-scripts: the SDK's dist/ is already built (npm ci); building it is not what this tests.
        const { stderr } = await run('npm', ['run', 'sdk:pack', '--', '--pack-destination', dest, '--ignore-scripts'], { cwd: root, env: { ...npmEnv(), GIT_DIR: join(work, 'repo', '.git') } });
        const [tgz] = (await readdir(dest)).filter((f) => f.endsWith('.tgz'));
        const { stdout } = await run('tar', ['-xzOf', join(dest, tgz!), 'package/package.json']);
        return { stderr, manifest: JSON.parse(stdout) };
      };
      const bare = await packed(join(work, 'none'));
      assert.equal(bare.manifest.repository, undefined);
      assert.equal(bare.manifest.homepage, undefined);
      assert.match(bare.stderr, /no origin remote, so the package names no repository or homepage/);

      await run('git', ['-C', join(work, 'repo'), 'remote', 'add', 'origin', 'git@github.com:acme/creator-commerce.git']);
      const named = await packed(join(work, 'origin'));
      assert.deepEqual(named.manifest.repository, { type: 'git', url: 'git+https://github.com/acme/creator-commerce.git', directory: 'packages/sdk' });
      assert.equal(named.manifest.homepage, 'https://github.com/acme/creator-commerce/tree/HEAD/packages/sdk#readme');
      assert.equal(await readFile(`${sdkDir}package.json`, 'utf8'), manifestBefore, 'package.json is put back');
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it('says in its README where repository and homepage come from', async () => {
    const readme = await readFile(`${sdkDir}README.md`, 'utf8');
    assert.match(readme, /names its `repository` and `homepage` after the checkout's `origin`/);
    assert.doesNotMatch(readme, /example\.com\/creator-commerce/);
  });

  it('builds on pack, not on install (no install script warning), and packs its licence', async () => {
    const pkg = await json(`${sdkDir}package.json`);
    assert.equal(pkg.scripts.prepare, undefined);
    assert.equal(pkg.scripts.prepack, 'npm run build');
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: sdkDir });
    const files = (JSON.parse(stdout.slice(stdout.indexOf('[')))[0].files as { path: string }[]).map((f) => f.path);
    assert.ok(files.includes('LICENSE') && files.includes('README.md') && files.includes('dist/index.js'), files.join(', '));
  });

  it('is packed by `npm run sdk:pack`, and its README says how to install it from the repository', async () => {
    assert.match((await json(`${root}package.json`)).scripts['sdk:pack'], /node scripts\/sdk-pack\.ts/);
    const readme = await readFile(`${sdkDir}README.md`, 'utf8');
    assert.match(readme, /npm install \/path\/to\/creator-commerce\/packages\/sdk/);
    assert.match(readme, /npm run sdk:pack/);
    // And the repository's own README, where a self-hoster looks first.
    const rootReadme = await readFile(`${root}README.md`, 'utf8');
    assert.match(rootReadme, /npm install \/path\/to\/creator-commerce\/packages\/sdk/);
    assert.match(rootReadme, /run `npm run sdk:pack`/);
  });
});
