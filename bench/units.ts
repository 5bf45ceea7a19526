/**
 * The per-unit figures of issue 28 item 4, gathered from the sections that measure them (webhooks,
 * imports) into one table at the end of `npm run bench`: database CPU per imported record and per
 * delivery, one endpoint's drain and its share of the ceiling, one worker's share of the
 * no-database ceiling, the time to import 10,000 records and the paced latency, with PGlite
 * beside PostgreSQL. CPU per unit holds whatever else shares the machine; rates do not, which is
 * why each rate is also given as a share of a ceiling measured in the same run.
 */
export type Database = 'PostgreSQL' | 'PGlite';

interface Figure {
  what: string;
  target: string;
  values: Partial<Record<Database, string>>;
}

const figures: Figure[] = [];

/** Records one measured figure (formatted) under `what`; the first call for `what` fixes its place and target. */
export function recordUnit(what: string, database: Database, value: string, target = '') {
  let f = figures.find((x) => x.what === what);
  if (!f) figures.push(f = { what, target, values: {} });
  f.values[database] = value;
}

export function unitsSection(): string {
  if (!figures.length) return '';
  return [
    '## Per unit of work (issue 28 item 4)',
    '',
    'Gathered from the sections above. PGlite CPU figures are the whole process (app, worker and embedded database); '
      + 'PostgreSQL ones are the database backends alone.',
    '',
    '| figure | PostgreSQL | PGlite | target (PostgreSQL) |',
    '|---|---:|---:|---|',
    ...figures.map((f) => `| ${f.what} | ${f.values.PostgreSQL ?? '–'} | ${f.values.PGlite ?? '–'} | ${f.target} |`),
    '',
  ].join('\n');
}
