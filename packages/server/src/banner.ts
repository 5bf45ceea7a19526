import type { Config } from './config.ts';

/**
 * What a person who just ran `npm start` wants next: the addresses, and the command that makes
 * something to look at. Printed only with pretty logs (a terminal), never into JSON logs.
 */
export function startBanner(config: Pick<Config, 'publicUrl' | 'databaseUrl' | 'dataDir'>): string {
  const url = config.publicUrl;
  const where = config.databaseUrl ? 'PostgreSQL' : `the embedded database in ${config.dataDir}`;
  return [
    '',
    `  Creator commerce is running on ${where}.`,
    '',
    `    API         ${url}/api/v1`,
    `    API docs    ${url}/docs`,
    `    Dashboard   ${url}/dashboard`,
    '',
    '  Next: npm run cli -- seed --demo     a demo brand, its catalog and a test key',
    '',
    '',
  ].join('\n');
}
