import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { generatedTypesPath, sdkTypesSource } from '../../../scripts/openapi-types.ts';

describe('the SDK\'s generated types', () => {
  it('are what the server\'s OpenAPI document generates today (else run `npm run generate`)', async () => {
    const checkedIn = await readFile(generatedTypesPath, 'utf8');
    const fresh = await sdkTypesSource();
    if (checkedIn !== fresh) {
      const a = checkedIn.split('\n');
      const b = fresh.split('\n');
      const line = a.findIndex((l, i) => l !== b[i]);
      assert.fail(`packages/sdk/src/generated/openapi.ts is stale: it differs from the served document at line ${line + 1}:\n`
        + `  checked in: ${a[line]}\n  generated:  ${b[line]}\nRun \`npm run generate\` and commit the result.`);
    }
  });
});
