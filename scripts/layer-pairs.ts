/**
 * How far the folders of packages/server/src keep their layers (issue 21, docs/architecture.md):
 * prints every two-way folder pair and the number of back arrows.
 *
 * The method: dependency-cruiser's graph of the non-test files under packages/server/src, with
 * type-only imports left out (they vanish at run time and make no load order), collapsed to
 * top-level folders (a file at the root, app.ts or config.ts, is its own node). A two-way pair is
 * two nodes that import each other; its back arrows are the imports (file to file) on its smaller
 * side, the side that runs against the layering.
 *
 *   node scripts/layer-pairs.ts            the pairs, one a line, then the totals
 *   node scripts/layer-pairs.ts --arrows   also each back arrow (which file imports which)
 *   node scripts/layer-pairs.ts --both     also the imports on the other side of each pair
 *   node scripts/layer-pairs.ts --max-pairs 11 --max-back 40   exit 1 above either number
 */
import { cruise, type ICruiseResult } from 'dependency-cruiser';

const root = 'packages/server/src/';
const args = process.argv.slice(2);
const showBoth = args.includes('--both');
const showArrows = showBoth || args.includes('--arrows');
const limit = (name: string): number => {
  const i = args.indexOf(name);
  return i === -1 ? Infinity : Number(args[i + 1]);
};

const result = await cruise([root], {
  exclude: { path: '(^|/)(node_modules|dist)/|\\.test\\.ts$' },
  doNotFollow: { path: 'node_modules' },
  tsPreCompilationDeps: true,
  moduleSystems: ['es6'],
  enhancedResolveOptions: { extensions: ['.ts', '.js'] },
});
const output = result.output as ICruiseResult;

/** The top-level folder of a file, or the file itself when it sits at the root. */
function node(file: string): string | null {
  if (!file.startsWith(root)) return null;
  const rest = file.slice(root.length);
  const slash = rest.indexOf('/');
  return slash === -1 ? rest : `${rest.slice(0, slash)}/`;
}

// arrows.get('a/ -> b/') = the file-level imports from a/ into b/
const arrows = new Map<string, string[]>();
for (const mod of output.modules) {
  const from = node(mod.source);
  if (!from) continue;
  for (const dep of mod.dependencies) {
    const types = dep.dependencyTypes as string[];
    if (types.includes('type-only') || types.includes('type-import')) continue;
    const to = node(dep.resolved);
    if (!to || to === from) continue;
    const key = `${from} -> ${to}`;
    const list = arrows.get(key) ?? [];
    list.push(`${mod.source.slice(root.length)} -> ${dep.resolved.slice(root.length)}`);
    arrows.set(key, list);
  }
}

const pairs: { a: string; b: string; ab: string[]; ba: string[] }[] = [];
for (const [key, ab] of arrows) {
  const [a, b] = key.split(' -> ') as [string, string];
  if (a > b) continue;
  const ba = arrows.get(`${b} -> ${a}`);
  if (ba) pairs.push({ a, b, ab, ba });
}
pairs.sort((x, y) => `${x.a}${x.b}`.localeCompare(`${y.a}${y.b}`));

let back = 0;
for (const { a, b, ab, ba } of pairs) {
  // The smaller side is the one against the grain; on a tie, count one side once.
  const smaller = ab.length <= ba.length ? ab : ba;
  back += smaller.length;
  console.log(`${a.padEnd(18)} <-> ${b.padEnd(18)} ${ab.length} / ${ba.length}`);
  if (showArrows) for (const arrow of smaller) console.log(`    ${arrow}`);
  if (showBoth) for (const arrow of smaller === ab ? ba : ab) console.log(`      (other side) ${arrow}`);
}
const edges = [...arrows.values()].reduce((n, list) => n + list.length, 0);
console.log(`\n${pairs.length} two-way pairs, ${back} back arrows (${edges} imports between folders)`);

if (pairs.length > limit('--max-pairs') || back > limit('--max-back')) {
  console.error(`over the limit: at most ${limit('--max-pairs')} pairs and ${limit('--max-back')} back arrows`);
  process.exitCode = 1;
}
