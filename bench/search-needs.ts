/**
 * npm run bench:needs [-- JUDGMENTS.json …] — search quality on the project's own judged needs,
 * kept apart from ../shared/search/dev-queries.json: by default bench/search-needs.json (French
 * sentences, English agent strings and questions, level + subject, and names, typing errors
 * and prefixes that must not be lost), bench/search-needs-2.json and the later ones (the same kinds
 * of need, each written after the work on the set before and judged from the content without
 * running the search), each scored and checked on its own. Per kind and overall: nDCG@10, recall@10, MRR
 * (first result graded 2 or more) and the share of answerable queries that found nothing;
 * false positives on queries that should find nothing. The metrics are the shared scorer's
 * (eval.mjs), computed in process on the read model the API answers from: the same search
 * GET /tools?q= and MCP search_tools call. Exits 1 when a target of docs/search.md is missed.
 * VERBOSE=1 prints every query's score and first results.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadContent } from '../src/content/load-content.js';
import { buildReadModel } from '../src/read-model/read-model.js';
import { scoreQuery, type QueryScore } from './search-metrics.js';

interface Judged {
  id: string;
  q: string;
  kind: string;
  relevant: Record<string, number>;
}
interface Row extends QueryScore {
  kind: string;
  q: string;
  top: string[];
}

const ROOT = path.resolve(import.meta.dirname, '..');
/**
 * The judged sets, every bench/search-needs[-N].json in number order: the first, tuned
 * against; each later one written after the work on the one before and judged without running
 * the search. A new set is a new file; nothing here lists them.
 */
const setNumber = (file: string) => Number(/-(\d+)\.json$/.exec(file)?.[1] ?? 1);
const DEFAULT_SETS = readdirSync(path.join(ROOT, 'bench'))
  .filter((f) => /^search-needs(-\d+)?\.json$/.test(f))
  .sort((a, b) => setNumber(a) - setNumber(b))
  .map((f) => path.join('bench', f));
const files = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_SETS.map((f) => path.join(ROOT, f));
for (const file of files) {
  if (!existsSync(file)) {
    console.error(`No judged queries at ${file}.`);
    process.exit(2);
  }
}
const loaded = await loadContent(path.resolve(ROOT, process.env.CONTENT_DIR ?? 'content'));
if (!loaded.ok) throw new Error('the content does not load: npm run content:check says why');
const model = buildReadModel({ revision: 1, dataset: loaded.dataset, changes: [] });
const slugs = model.tools.map((t) => t.slug);

const mean = (xs: Row[], key: 'ndcg' | 'r10' | 'rr') => xs.reduce((s, r) => s + r[key], 0) / Math.max(1, xs.length);
const zeroRate = (xs: Row[]) => xs.filter((r) => r.zero).length / Math.max(1, xs.length);
const line = (label: string, xs: Row[]) =>
  `${label.padEnd(9)} n=${String(xs.length).padStart(3)}  nDCG@10 ${mean(xs, 'ndcg').toFixed(3)}  R@10 ${mean(xs, 'r10').toFixed(3)}  MRR ${mean(xs, 'rr').toFixed(3)}  zero ${(zeroRate(xs) * 100).toFixed(0).padStart(2)} %`;
// The targets of the search-for-needs work (docs/search.md): each kind of need (sentences,
// agents' English, English questions, level + subject) ≥ 0.70 with ≤ 5 % empty, names not
// lost, ≥ 0.80 overall with ≤ 5 % empty, nothing found where nothing should be. The names and
// the overall mean are checked on a set that has names (the overall mean of needs alone is
// no target).
const NEEDS = ['sentence', 'agent', 'question', 'level'];
const missed: string[] = [];

for (const file of files) {
  const { queries } = JSON.parse(readFileSync(file, 'utf8')) as { queries: Judged[] };
  const rows: Row[] = [];
  const falsePositives: string[] = [];
  let unanswerable = 0;
  for (const { q, kind, relevant } of queries) {
    const got = Array.from(model.search.search(q).ranked.slice(0, 100), (i) => slugs[i]!);
    if (Object.keys(relevant).length === 0) {
      unanswerable++;
      if (got.length > 0) falsePositives.push(`"${q}" → ${got.slice(0, 3).join(', ')}`);
      continue;
    }
    rows.push({ kind, q, top: got.slice(0, 5), ...scoreQuery(got, relevant) });
  }
  const name = path.relative(ROOT, file);
  console.log(`\n${name}`);
  const kinds = [...new Set(rows.map((r) => r.kind))];
  for (const kind of kinds) console.log(line(kind, rows.filter((r) => r.kind === kind)));
  console.log(line('all', rows));
  console.log(`none      n=${String(unanswerable).padStart(3)}  false positives ${falsePositives.length}${falsePositives.length ? `: ${falsePositives.join('; ')}` : ''}`);
  if (process.env.VERBOSE) for (const r of rows) console.log(`  ${r.ndcg.toFixed(2)} [${r.kind}] "${r.q}" got [${r.top.join(', ')}]`);
  console.log('worst:');
  for (const r of [...rows].sort((a, b) => a.ndcg - b.ndcg).slice(0, 10)) {
    console.log(`  ${r.ndcg.toFixed(2)} [${r.kind}] "${r.q}" got [${r.top.join(', ')}] missing [${r.missing.join(', ')}]`);
  }
  const names = rows.filter((r) => !NEEDS.includes(r.kind));
  const of = (text: string | false) => (text ? [`${name}: ${text}`] : []);
  for (const kind of NEEDS) {
    const rowsOf = rows.filter((r) => r.kind === kind);
    if (rowsOf.length === 0) continue;
    missed.push(...of(mean(rowsOf, 'ndcg') < 0.7 && `${kind} nDCG@10 ${mean(rowsOf, 'ndcg').toFixed(3)} < 0.70`));
    missed.push(...of(zeroRate(rowsOf) > 0.05 && `${kind} zero-result ${(zeroRate(rowsOf) * 100).toFixed(0)} % > 5 %`));
  }
  if (names.length > 0) {
    missed.push(...of(mean(names, 'ndcg') < 0.8 && `names nDCG@10 ${mean(names, 'ndcg').toFixed(3)} < 0.80`));
    missed.push(...of(mean(rows, 'ndcg') < 0.8 && `overall nDCG@10 ${mean(rows, 'ndcg').toFixed(3)} < 0.80`));
  }
  missed.push(...of(zeroRate(rows) > 0.05 && `overall zero-result ${(zeroRate(rows) * 100).toFixed(0)} % > 5 %`));
  missed.push(...of(falsePositives.length > 0 && `${falsePositives.length} false positive(s)`));
}
if (missed.length > 0) {
  console.log(`\ntargets missed: ${missed.join('; ')}`);
  process.exitCode = 1;
} else console.log('\ntargets met');
