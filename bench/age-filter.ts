/**
 * What the `age` filter (the answer of school.for_pupils at that age) costs a list that is
 * built, not replayed: the same never-cached lists (varying page sizes) with and without
 * `age`, alternated in rounds, through the query room's own functions (parseToolsQuery,
 * toolsPage, the route's serializer). Prints the median time per list of each and the ratio.
 *
 *   node --import tsx bench/age-filter.ts [--rounds 7] [--lists 2000]
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadContent } from '../src/content/load-content.js';
import { toolsPage } from '../src/directory/directory-queries.js';
import { serialize } from '../src/directory/representations.js';
import { parseToolsQuery } from '../src/directory/tools-query.js';
import { buildReadModel } from '../src/read-model/read-model.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const rounds = arg('rounds', 7);
const lists = arg('lists', 2000);

const loaded = await loadContent(path.resolve(import.meta.dirname, '../content'));
if (!loaded.ok) throw new Error('content does not load');
const model = buildReadModel({ revision: 1, dataset: loaded.dataset, changes: [] });
const license = { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/', attribution: 'bench' };
const LEVELS = ['college', 'elementaire', 'lycee'];

function run(withAge: boolean): number {
  const started = performance.now();
  let bytes = 0;
  for (let k = 0; k < lists; k++) {
    const raw: Record<string, string> = { level: LEVELS[k % 3]!, per_page: String(1 + (k % 100)) };
    if (withAge) raw.age = String(6 + (k % 12));
    const query = parseToolsQuery(raw, model.school, { perPage: 30, maxPerPage: 100 });
    bytes += serialize.toolList(toolsPage(model, query, 'http://127.0.0.1', license)).length;
  }
  if (bytes === 0) throw new Error('nothing listed');
  return ((performance.now() - started) * 1000) / lists;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
run(false);
run(true);
const without: number[] = [];
const withAge: number[] = [];
for (let r = 0; r < rounds; r++) {
  without.push(run(false));
  withAge.push(run(true));
}
const a = median(without);
const b = median(withAge);
console.log(`list without age: ${a.toFixed(1)} µs · with age: ${b.toFixed(1)} µs · with/without ${(b / a).toFixed(3)} (median of ${rounds} rounds of ${lists} lists)`);
