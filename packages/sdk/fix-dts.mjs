// tsc rewrites `./x.ts` imports to `./x.js` in the emitted JavaScript (rewriteRelativeImportExtensions)
// but keeps `.ts` in declaration files; consumers on older TypeScript cannot read those, so the
// declarations get `.js` too, which every TypeScript version resolves to the `.d.ts` beside it.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

async function walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walk(path);
    else if (entry.name.endsWith('.d.ts')) {
      const text = await readFile(path, 'utf8');
      await writeFile(path, text.replace(/(from\s+['"]\.{1,2}\/[^'"]+)\.ts(['"])/g, '$1.js$2'));
    }
  }
}
await walk(new URL('./dist', import.meta.url).pathname);
