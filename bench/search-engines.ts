/**
 * npm run bench:search [-- JUDGMENTS.json] — the search engines considered for `q`, compared
 * on the same documents (each published tool's name and short description, as the contract
 * says) and the same judged queries (../shared/search/dev-queries.json by default), in one
 * process: nDCG@10, recall@10, share of answerable queries with no result, false positives
 * on queries that should find nothing, and never-seen queries per second. docs/search.md
 * records a run and why the engine in src/search won.
 *
 * The metrics are those of the shared scorer (eval.mjs), computed here without HTTP; the
 * API's own numbers come from that scorer against a running server.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stemmer } from '@orama/stemmers/french';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import FlexSearch from 'flexsearch';
import MiniSearch from 'minisearch';
import { loadContent } from '../src/content/load-content.js';
import { buildReadModel } from '../src/read-model/read-model.js';
import { isStopWord, termOf } from '../src/search/analyzer.js';
import { foldFrench } from '../src/text/french-text.js';
import { scoreQuery } from './search-metrics.js';

interface Judged {
  id: string;
  q: string;
  kind: string;
  relevant: Record<string, number>;
}
interface Doc {
  id: number;
  slug: string;
  name: string;
  description: string;
}
/** An engine: built once over the documents, then asked for up to 100 slugs, best first. */
interface Engine {
  name: string;
  build(docs: readonly Doc[]): Promise<(q: string) => string[]> | ((q: string) => string[]);
}

const ROOT = path.resolve(import.meta.dirname, '..');
const judgments = process.argv[2] ?? path.resolve(ROOT, '../shared/search/dev-queries.json');
if (!existsSync(judgments)) {
  console.error(`No judged queries at ${judgments}: pass a path (see ../shared/search/README.md).`);
  process.exit(2);
}
const { queries } = JSON.parse(readFileSync(judgments, 'utf8')) as { queries: Judged[] };

const loaded = await loadContent(path.join(ROOT, 'content'));
if (!loaded.ok) throw new Error('the bundled content does not load');
const model = buildReadModel({ revision: 1, dataset: loaded.dataset, changes: [] });
const docs: Doc[] = model.tools.map((t, id) => ({ id, slug: t.slug, name: t.name, description: t.short_description }));

/** Our analyzer, for the libraries that accept a term processor. */
const ourTerm = (word: string) => {
  const folded = foldFrench(word);
  return folded === '' || isStopWord(folded) ? null : termOf(folded);
};

const engines: Engine[] = [
  {
    name: 'first release (substring AND, tiers)',
    build: (all) => {
      const texts = all.map((d) => ({ name: foldFrench(d.name), text: `${foldFrench(d.name)} ${foldFrench(d.description)}` }));
      return (q) => {
        const words = foldFrench(q).split(' ').filter(Boolean);
        if (words.length === 0) return [];
        const phrase = words.join(' ');
        const tier = (i: number) => {
          const name = texts[i]!.name;
          return name === phrase ? 0 : name.startsWith(phrase) ? 1 : words.every((w) => name.includes(w)) ? 2 : 3;
        };
        return all
          .map((d) => d.id)
          .filter((i) => words.every((w) => texts[i]!.text.includes(w)))
          .sort((a, b) => tier(a) - tier(b) || a - b)
          .slice(0, 100)
          .map((i) => all[i]!.slug);
      };
    },
  },
  {
    name: 'MiniSearch 7 (prefix, fuzzy 0.2, name boost 3)',
    build: (all) => {
      const index = new MiniSearch<Doc>({ fields: ['name', 'description'], searchOptions: { prefix: true, fuzzy: 0.2, boost: { name: 3 } } });
      index.addAll(all);
      return (q) => index.search(q).slice(0, 100).map((r) => all[r.id as number]!.slug);
    },
  },
  {
    name: 'MiniSearch 7 + our analyzer',
    build: (all) => {
      const index = new MiniSearch<Doc>({
        fields: ['name', 'description'],
        processTerm: ourTerm,
        searchOptions: { prefix: true, fuzzy: 0.2, boost: { name: 3 }, combineWith: 'AND' },
      });
      index.addAll(all);
      return (q) => index.search(q).slice(0, 100).map((r) => all[r.id as number]!.slug);
    },
  },
  {
    name: 'Orama 3 (French stemmer, tolerance 1, name boost 3)',
    build: async (all) => {
      const db = create({ schema: { slug: 'string', name: 'string', description: 'string' } as const, components: { tokenizer: { stemming: true, language: 'french', stemmer } } });
      await insertMultiple(db, all.map((d) => ({ slug: d.slug, name: d.name, description: d.description })));
      return (q) => {
        const result = oramaSearch(db, { term: q, properties: ['name', 'description'], tolerance: 1, boost: { name: 3 }, limit: 100 });
        if (result instanceof Promise) throw new Error('Orama answered asynchronously');
        return result.hits.map((h) => h.document.slug);
      };
    },
  },
  {
    name: 'FlexSearch 0.8 (forward, LatinBalance, name boost 3)',
    build: (all) => {
      const index = new FlexSearch.Document({ document: { id: 'id', index: ['name', 'description'] }, tokenize: 'forward', encoder: FlexSearch.Charset.LatinBalance });
      for (const d of all) index.add({ ...d });
      return (q) => {
        const scores = new Map<number, number>();
        for (const [field, boost] of [['name', 3], ['description', 1]] as const) {
          const ids = index.search(q, { index: field, limit: 100, suggest: true }) as unknown as Array<{ result: number[] }>;
          (ids[0]?.result ?? []).forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + boost / (rank + 1)));
        }
        return [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 100).map(([id]) => all[id]!.slug);
      };
    },
  },
  {
    name: 'this API (src/search)',
    build: (all) => (q) => Array.from(model.search.search(q).ranked.slice(0, 100), (i) => all[i]!.slug),
  },
];


/** Queries no engine has seen: the judged ones with a word mistyped and a word added. */
function neverSeen(): string[] {
  let seed = 7;
  const random = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const extra = ['eleves', 'classe', 'gratuit', 'college', 'en ligne', 'pour enseignants', 'lycee', 'francais'];
  return Array.from({ length: 600 }, (_, i) => {
    const words = queries[i % queries.length]!.q.split(' ');
    const k = Math.floor(random() * words.length);
    const w = words[k]!;
    if (w.length > 4) {
      const at = 1 + Math.floor(random() * (w.length - 2));
      words[k] = w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2);
    }
    return `${words.join(' ')} ${extra[i % extra.length]} ${i}`;
  });
}

console.log(`${docs.length} tools, ${queries.length} judged queries (${path.relative(process.cwd(), judgments)})\n`);
console.log('| engine | nDCG@10 | R@10 | zero results | false positives | never-seen q/s |');
console.log('|---|---|---|---|---|---|');
const unseen = neverSeen();
for (const engine of engines) {
  const run = await engine.build(docs);
  let ndcg = 0;
  let recall = 0;
  let answerable = 0;
  let zero = 0;
  let none = 0;
  let falsePositives = 0;
  for (const q of queries) {
    const got = run(q.q);
    const relevant = Object.keys(q.relevant ?? {});
    if (relevant.length === 0) {
      none++;
      if (got.length > 0) falsePositives++;
      continue;
    }
    answerable++;
    const score = scoreQuery(got, q.relevant);
    ndcg += score.ndcg;
    recall += score.r10;
    if (score.zero) zero++;
  }
  const started = performance.now();
  for (const q of unseen) run(q);
  const perSecond = unseen.length / ((performance.now() - started) / 1000);
  console.log(
    `| ${engine.name} | ${(ndcg / answerable).toFixed(3)} | ${(recall / answerable).toFixed(3)} | ${((zero / answerable) * 100).toFixed(0)} % | ${falsePositives}/${none} | ${Math.round(perSecond).toLocaleString('en')} |`,
  );
}
