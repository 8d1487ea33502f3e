/**
 * The architecture, enforced (docs/architecture.md, "Rooms"): no import circle between files
 * or between folders of src/, and no door (http, mcp, pages) importing another door. Read
 * from the TypeScript sources' import statements, the way the compiler resolves them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const SRC = path.resolve(import.meta.dirname, '../../src');
const DOORS = ['http', 'mcp', 'pages'];
const MAX_LINES = 400;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** File (relative to src/) → the files of src/ it imports, type-only imports included. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const m of text.matchAll(IMPORT)) {
      const spec = (m[1] ?? m[2])!;
      const resolved = path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts');
      targets.push(path.relative(SRC, resolved));
    }
    graph.set(path.relative(SRC, file), [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components with more than one node (Tarjan), each a circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/** The room of a file: its first folder under src/, or `(root)` for a file directly in src/. */
const roomOf = (file: string) => (file.includes(path.sep) ? file.split(path.sep)[0]! : `(root)/${file}`);

const graph = importGraph();

test('architecture › no import circle between files', () => {
  assert.deepEqual(circles(graph), []);
});

test('architecture › no import circle between rooms (folders of src/)', () => {
  const rooms = new Map<string, string[]>();
  for (const [file, targets] of graph) {
    const from = roomOf(file);
    const list = rooms.get(from) ?? [];
    for (const t of targets) if (roomOf(t) !== from) list.push(roomOf(t));
    rooms.set(from, [...new Set(list)]);
  }
  assert.deepEqual(circles(rooms), []);
});

test('architecture › no door imports another door', () => {
  const crossings: string[] = [];
  for (const [file, targets] of graph) {
    const from = roomOf(file);
    if (!DOORS.includes(from)) continue;
    for (const t of targets) if (DOORS.includes(roomOf(t)) && roomOf(t) !== from) crossings.push(`${file} → ${t}`);
  }
  assert.deepEqual(crossings, []);
});

test('architecture › the query room and the formats know no door, Fastify or MCP', () => {
  const offending: string[] = [];
  for (const [file, targets] of graph) {
    if (!['directory', 'formats', 'school', 'search', 'read-model'].includes(roomOf(file))) continue;
    const text = readFileSync(path.join(SRC, file), 'utf8');
    if (/from\s+['"](?:fastify|@fastify\/|@modelcontextprotocol\/)/.test(text)) offending.push(`${file} imports a framework`);
    for (const t of targets) if (DOORS.includes(roomOf(t))) offending.push(`${file} → ${t}`);
  }
  assert.deepEqual(offending, []);
});

test(`architecture › every source file stays under about ${MAX_LINES} lines`, () => {
  const long = [...graph.keys()]
    .map((file) => [file, readFileSync(path.join(SRC, file), 'utf8').split('\n').length] as const)
    .filter(([, lines]) => lines > MAX_LINES + 20)
    .map(([file, lines]) => `${file}: ${lines} lines`);
  assert.deepEqual(long, []);
});
