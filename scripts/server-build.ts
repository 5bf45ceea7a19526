/**
 * The server as `npm start` runs it: one bundle (`packages/server/dist/`, not committed) built by
 * esbuild from `packages/server/src/main.ts`. Node otherwise loads about a thousand files at start
 * (TypeBox alone is 679), stripping the TypeScript of ours one by one; from the bundle it reads a
 * few (docs/embedded.md has the figures). Tests, the CLI and `node packages/server/src/main.ts`
 * keep running the sources.
 *
 *   node scripts/server-build.ts            # builds when the bundle is missing or older than its sources (npm start, through start-checks.ts)
 *   node scripts/server-build.ts --force    # builds (npm ci, through the root package's prepare script)
 *
 * Prints one line when it builds and nothing when the bundle is fresh. `SERVER_BUILD=skip` turns
 * the check off (production images built once by `npm ci`, several processes started at once).
 * Without esbuild the entry it writes loads the sources instead.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtBefore, filesUnder } from '../packages/server/src/dashboard/build-freshness.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const srcDir = join(root, 'packages/server/src');
const serverDistDir = join(root, 'packages/server/dist');
const entry = join(serverDistDir, 'main.js');

/**
 * Loaded on first use, as from the sources (docs/embedded.md, "Heavy modules load on first use"):
 * left out of the bundle, so they are still read only when first needed, from their own files
 * (Scalar and oidc-provider read files next to their code). PGlite finds its WebAssembly and data
 * files next to its own code; it ships as a few bundled files already. pg-native is pg's optional
 * native binding, never installed here; @node-rs/argon2 is a native addon.
 */
const external = [
  'oidc-provider', 'ioredis', 'stripe', '@scalar/*', '@modelcontextprotocol/*',
  '@electric-sql/pglite', '@electric-sql/pglite/*', 'pg-native', '@node-rs/argon2',
  // Mail and invoices: loaded when the first message or invoice is made.
  'mjml', 'nodemailer', 'pdf-lib',
];

/** Whether the bundle is missing or older than a file it is made from (our sources, the installed packages). */
async function staleness(): Promise<string | undefined> {
  // npm rewrites node_modules/.package-lock.json on every install: a changed dependency.
  const inputs = [...await filesUnder(srcDir), fileURLToPath(import.meta.url), join(root, 'node_modules/.package-lock.json')];
  return builtBefore(entry, inputs, root);
}

/** What a build wrote (dist/build.json): every file, and which of them a running server may still read. */
interface BuildRecord { files: string[]; lazy: string[] }
const recordPath = join(serverDistDir, 'build.json');

/**
 * Builds the bundle into packages/server/dist. Several processes may start from one checkout, and a
 * server keeps running while another start rebuilds: each file is written under a temporary name
 * and renamed into place, `main.js` last, and the previous build's files are removed except those
 * a server started from it reads only when first needed (MCP's server, Stripe's webhook handler:
 * a few kB each). `fresh` (npm ci) starts from an empty folder.
 */
async function buildServer(options: { fresh?: boolean } = {}): Promise<void> {
  if (options.fresh) await rm(serverDistDir, { recursive: true, force: true });
  await mkdir(serverDistDir, { recursive: true });
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    await writeInPlace(entry, "// esbuild is not installed: the sources run as they are.\nawait import('../src/main.ts');\n");
    return;
  }
  const previous = await readFile(recordPath, 'utf8').then((text) => JSON.parse(text) as BuildRecord, () => undefined);
  const result = await esbuild.build({
    entryPoints: [join(srcDir, 'main.ts')],
    outdir: serverDistDir,
    write: false,
    metafile: true,
    bundle: true,
    // One file per lazily imported module of ours (MCP's server, Stripe's client), loaded when first imported.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external,
    // Bundled CommonJS packages call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    plugins: [sourceRelativeUrls, builtinsThroughRequire],
    legalComments: 'none',
    logLevel: 'warning',
  });
  const files = result.outputFiles.map((f) => relative(serverDistDir, f.path));
  for (const file of result.outputFiles.filter((f) => f.path !== entry)) await writeInPlace(file.path, file.contents);
  await writeInPlace(entry, result.outputFiles.find((f) => f.path === entry)!.contents);
  const record: BuildRecord = { files, lazy: lazilyLoaded(result.metafile) };
  await writeInPlace(recordPath, JSON.stringify(record));
  for (const file of previous?.files ?? []) {
    if (!files.includes(file) && !previous!.lazy.includes(file)) await rm(join(serverDistDir, file), { force: true });
  }
}

/** Writes under a temporary name, then renames: a process reading path sees the old file or the new one. */
async function writeInPlace(path: string, contents: string | Uint8Array) {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, path);
}

/**
 * The outputs a server does not read at start: not reached from main.js through static imports
 * and main.js's own import of the rest of the server (start.ts).
 */
function lazilyLoaded(metafile: import('esbuild').Metafile): string[] {
  const key = (path: string) => relative(serverDistDir, join(root, path));
  const outputs = new Map(Object.entries(metafile.outputs).map(([path, out]) => [key(path), out]));
  const atStart = new Set<string>();
  const visit = (file: string, followDynamic: boolean) => {
    if (atStart.has(file) || !outputs.has(file)) return;
    atStart.add(file);
    for (const imported of outputs.get(file)!.imports) {
      if (imported.external) continue;
      if (imported.kind === 'import-statement' || (followDynamic && imported.kind === 'dynamic-import')) visit(key(imported.path), false);
    }
  };
  visit('main.js', true);
  return [...outputs.keys()].filter((file) => !atStart.has(file));
}

/**
 * Our files find what lies next to them (migrations, the docs' guides, the dashboard's build, the
 * example catalog) from `import.meta.url`; in the bundle that would be the bundle's own address.
 * Each one's `import.meta.url` becomes its source file's address, relative to the bundle, so the
 * checkout can still be moved.
 */
const sourceRelativeUrls = {
  name: 'source-relative-urls',
  setup(build: import('esbuild').PluginBuild) {
    build.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      if (!path.startsWith(srcDir) || !text.includes('import.meta.url')) return undefined;
      const fromBundle = relative(serverDistDir, path).split('\\').join('/');
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`), loader: 'ts' };
    });
  },
};

/**
 * Node's built-in modules, imported by an ES module of ours or a package's, are taken with
 * require() instead. Importing one as an ES module makes Node build its ES face, which reads every
 * export: node:http's include WebSocket and friends, whose getters load undici (about 90 ms of a
 * start, for a client the server never uses). The module itself is the same object either way.
 */
const builtinsThroughRequire = {
  name: 'builtins-through-require',
  setup(build: import('esbuild').PluginBuild) {
    build.onResolve({ filter: /^node:/ }, ({ path, kind, namespace }) => (
      kind === 'import-statement' && namespace === 'file' ? { path, namespace: 'builtin' } : undefined
    ));
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, ({ path }) => ({ contents: `module.exports = require(${JSON.stringify(path)});`, loader: 'js' }));
  },
};

/** Builds the bundle when it is stale (npm start, through scripts/start-checks.ts), or always (`force`: npm ci). */
export async function ensureServerBuild(force = false): Promise<void> {
  const reason = force ? 'npm ci' : process.env.SERVER_BUILD === 'skip' ? undefined : await staleness();
  if (reason) {
    if (!force) console.log(`Bundling the server (${reason})…`);
    await buildServer({ fresh: force });
  }
}

if (import.meta.main) await ensureServerBuild(process.argv.includes('--force'));
