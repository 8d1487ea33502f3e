/**
 * npm run bench:never-seen [-- SEED COUNT] — what one never-seen search costs in process,
 * without HTTP: the queries `npm run bench` sends in its never-seen row (a need, a name or a
 * synonym with a typing error at a random place, plus one or two ordinary words), drawn from
 * a seeded generator, searched on the read model the API answers from. Three rounds of COUNT
 * queries (20,000 by default), each drawn anew: the first pays the compiler's first passes,
 * the later ones are the steady state. Queries repeat within a round (about one in six, as
 * under wrk), so the per-query and per-unit memos help as much as they do on the server.
 *
 * Steadier than the HTTP row (whose ceiling moves between runs by a third): use it to tell
 * whether a change to the search costs or saves time (docs/performance.md).
 */
import path from 'node:path';
import { loadContent } from '../src/content/load-content.js';
import { buildReadModel } from '../src/read-model/read-model.js';
import { NEVER_SEEN_EXTRA as EXTRA, NEVER_SEEN_NEEDS as NEEDS } from './never-seen-words.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const loaded = await loadContent(path.join(ROOT, 'content'));
if (!loaded.ok) throw new Error('the content does not load: npm run content:check says why');
const model = buildReadModel({ revision: 1, dataset: loaded.dataset, changes: [] });

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

const [seedArg, countArg] = process.argv.slice(2);
let state = Number(seedArg ?? 5) | 0;
/** mulberry32: a small seeded generator with a full period (a linear congruential one repeated its queries within a round). */
const random = (): number => {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
/** A whole number from 1 to n, as Lua's math.random(n). */
const draw = (n: number): number => 1 + Math.floor(random() * n);

/** One typing error at position i (1-based, never the first or last letter): swap, drop, double or change a letter. */
function typo(q: string): string {
  const i = draw(q.length - 2) + 1;
  const op = draw(4);
  const before = q.slice(0, i - 1);
  if (op === 1) return before + q.charAt(i) + q.charAt(i - 1) + q.slice(i + 1);
  if (op === 2) return before + q.slice(i);
  if (op === 3) return q.slice(0, i) + q.slice(i - 1);
  return before + LETTERS.charAt(draw(LETTERS.length) - 1) + q.slice(i);
}

function query(): string {
  let q = `${typo(NEEDS[draw(NEEDS.length) - 1]!)} ${EXTRA[draw(EXTRA.length) - 1]!}`;
  if (draw(2) === 1) q += ` ${EXTRA[draw(EXTRA.length) - 1]!}`;
  return q;
}

const COUNT = Number(countArg ?? 20_000);
for (let round = 1; round <= 3; round++) {
  const queries = Array.from({ length: COUNT }, query);
  let found = 0;
  const start = process.hrtime.bigint();
  for (const q of queries) found += model.search.search(q).ranked.length;
  const micros = Number(process.hrtime.bigint() - start) / 1e3 / COUNT;
  console.log(`round ${round}: ${micros.toFixed(1)} µs per search · ${new Set(queries).size} distinct queries of ${COUNT} · ${(found / COUNT).toFixed(1)} tools found on average`);
}
