/**
 * `npm run sdk:pack [-- --pack-destination DIR]`: packs the SDK as a release would
 * (creator-commerce-sdk-<version>.tgz, in the current folder unless told otherwise).
 *
 * The tarball's `repository` and `homepage` are taken from this checkout's `origin` remote, so
 * they name where the code really lives: a self-hosted project has no one address to write into
 * package.json beforehand, and a made-up one would send users of the published package to a host
 * that is not ours. With no `origin` (a copy, a tarball of the repository) the fields are left
 * out, and this says so. packages/sdk/package.json is put back byte for byte afterwards.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const manifestPath = new URL('../packages/sdk/package.json', import.meta.url).pathname;

/**
 * The web address of a git remote: `git@host:owner/repo.git`, `ssh://git@host/owner/repo.git`
 * and `https://user@host/owner/repo.git` all become `https://host/owner/repo`. Local paths and
 * `file:` remotes have none.
 */
export function webAddressOf(remote: string): string | undefined {
  const url = remote.trim();
  const scp = url.match(/^[\w.-]+@([\w.-]+):(?!\/)(.+?)(?:\.git)?\/?$/);
  if (scp) return `https://${scp[1]}/${scp[2]}`;
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || !['https:', 'http:', 'ssh:', 'git:', 'git+ssh:', 'git+https:'].includes(parsed.protocol) || !parsed.hostname) return undefined;
  const path = parsed.pathname.replace(/\/$/, '').replace(/\.git$/, '');
  if (!path || path === '/') return undefined;
  // An http remote's port is its web server's; an ssh remote's port is not.
  return `https://${parsed.protocol.includes('http') ? parsed.host : parsed.hostname}${path}`;
}

/** The package fields for a repository at `web`, the SDK being in packages/sdk. */
export function repositoryFields(web: string) {
  // GitHub and GitLab show a folder's README at these paths; elsewhere the repository's page.
  const host = new URL(web).hostname;
  const folder = host === 'github.com' ? '/tree/HEAD/packages/sdk' : host === 'gitlab.com' ? '/-/tree/HEAD/packages/sdk' : '';
  return {
    repository: { type: 'git', url: `git+${web}.git`, directory: 'packages/sdk' },
    homepage: `${web}${folder}#readme`,
  };
}

function originRemote(): string | undefined {
  try {
    return execFileSync('git', ['remote', 'get-url', 'origin'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  if (!args.includes('--pack-destination')) args.push('--pack-destination', '.');
  const original = readFileSync(manifestPath, 'utf8');
  const remote = originRemote();
  const web = remote ? webAddressOf(remote) : undefined;
  if (web) {
    const manifest = { ...JSON.parse(original), ...repositoryFields(web) };
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    console.error(`sdk:pack: repository ${web} (this checkout's origin remote)`);
  } else {
    console.error(`sdk:pack: ${remote ? `the origin remote (${remote}) has no web address` : 'this checkout has no origin remote'}, so the package names no repository or homepage`);
  }
  let status: number | null = 1;
  try {
    status = spawnSync('npm', ['pack', '-w', '@creator-commerce/sdk', ...args], { cwd: process.cwd(), stdio: 'inherit' }).status;
  } finally {
    writeFileSync(manifestPath, original);
  }
  process.exitCode = status ?? 1;
}
