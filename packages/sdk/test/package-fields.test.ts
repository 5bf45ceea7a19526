import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

/** What a user installing the SDK from the repository or its tarball gets (issue 27, item 1). */
const sdkDir = new URL('..', import.meta.url).pathname;
const root = new URL('../../../', import.meta.url).pathname;
const json = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

describe('the SDK package', () => {
  it('is MIT-licensed, with the licence in the repository and the package', async () => {
    const pkg = await json(`${sdkDir}package.json`);
    assert.equal(pkg.license, 'MIT');
    assert.equal((await json(`${root}package.json`)).license, 'MIT');
    for (const file of [`${root}LICENSE`, `${sdkDir}LICENSE`]) assert.match(await readFile(file, 'utf8'), /^MIT License/);
    assert.ok(pkg.engines?.node, 'engines.node');
  });

  it('names its repository (with the folder it lives in) and homepage, placeholders the README explains', async () => {
    const pkg = await json(`${sdkDir}package.json`);
    assert.equal(pkg.repository.type, 'git');
    assert.match(pkg.repository.url, /^git\+https:\/\/example\.com\/.+\.git$/);
    assert.equal(pkg.repository.directory, 'packages/sdk');
    assert.match(pkg.homepage, /^https:\/\/example\.com\/.+packages\/sdk#readme$/);
    const readme = await readFile(`${sdkDir}README.md`, 'utf8');
    assert.match(readme, /`repository` and `homepage` point at `example\.com\/creator-commerce\/…`, a\s+placeholder/);
  });

  it('builds on pack, not on install (no install script warning), and packs its licence', async () => {
    const pkg = await json(`${sdkDir}package.json`);
    assert.equal(pkg.scripts.prepare, undefined);
    assert.equal(pkg.scripts.prepack, 'npm run build');
    const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: sdkDir });
    const files = (JSON.parse(stdout.slice(stdout.indexOf('[')))[0].files as { path: string }[]).map((f) => f.path);
    assert.ok(files.includes('LICENSE') && files.includes('README.md') && files.includes('dist/index.js'), files.join(', '));
  });

  it('is packed by `npm run sdk:pack`, and its README says how to install it from the repository', async () => {
    assert.match((await json(`${root}package.json`)).scripts['sdk:pack'], /npm pack -w @creator-commerce\/sdk/);
    const readme = await readFile(`${sdkDir}README.md`, 'utf8');
    assert.match(readme, /npm install \/path\/to\/creator-commerce\/packages\/sdk/);
    assert.match(readme, /npm run sdk:pack/);
  });
});
