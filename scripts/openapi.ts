/**
 * `npm run openapi -- FILE`: writes the served OpenAPI document to FILE (stdout without one).
 * `npm run lint:openapi`: lints it with redocly's recommended rules (redocly.yaml); any warning fails.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { servedDocument } from './openapi-types.ts';

const root = new URL('..', import.meta.url).pathname;
const text = `${JSON.stringify(await servedDocument(), null, 2)}\n`;
const args = process.argv.slice(2);
if (args.includes('--lint')) {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, text);
    const out = execFileSync(join(root, 'node_modules/.bin/redocly'), ['lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'stylish'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (/warning/i.test(out)) {
      console.error(out);
      process.exitCode = 1;
    } else {
      console.log('The OpenAPI document passes redocly lint with no errors or warnings.');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} else if (args[0]) {
  writeFileSync(args[0], text);
} else {
  process.stdout.write(text);
}
