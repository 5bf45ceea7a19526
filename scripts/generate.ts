/** `npm run generate`: rewrites the SDK's generated types from the server's OpenAPI document. */
import { writeFile } from 'node:fs/promises';
import { generatedTypesPath, sdkTypesSource } from './openapi-types.ts';

await writeFile(generatedTypesPath, await sdkTypesSource());
console.log(`wrote ${generatedTypesPath.pathname}`);
