/**
 * The Dockerfile and compose.yaml agree with the code: every variable they set is one the
 * server reads, the port is the one it listens on, the health check is a route it serves, the
 * image runs as a non-root user from a multi-stage build. CI builds the image and runs it
 * (.ci/image, on a base it makes: no image registry is reachable here); these check the files.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import YAML from 'yaml';
import { API, buildTestApp } from '../helpers/build-app.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
const compose = YAML.parse(readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8'));
const config = readFileSync(path.join(ROOT, 'src', 'config.ts'), 'utf8');
/** The variables the server reads (config.ts). */
const known = new Set([...config.matchAll(/env\.([A-Z][A-Z_]+)|'([A-Z][A-Z_]+)'/g)].map((m) => m[1] ?? m[2]!));

test('Dockerfile › multi-stage, non-root, the port the server listens on, a health check on /healthz, graceful stop', async (t) => {
  assert.ok((dockerfile.match(/^FROM /gm) ?? []).length >= 2, 'multi-stage');
  assert.match(dockerfile, /^USER node$/m);
  const env = Object.fromEntries([...dockerfile.matchAll(/^\s*(?:ENV\s+)?([A-Z_]+)=(\S+?)(?:\s*\\)?$/gm)].map((m) => [m[1]!, m[2]!]));
  for (const name of Object.keys(env).filter((n) => n !== 'NODE_ENV')) assert.ok(known.has(name), `the server reads ${name}`);
  assert.equal(dockerfile.match(/^EXPOSE (\d+)$/m)?.[1], env.PORT);
  assert.match(dockerfile, /^STOPSIGNAL SIGTERM$/m);
  assert.match(dockerfile, /HEALTHCHECK[\s\S]*\/healthz/);
  assert.match(dockerfile, /--omit=dev/);
  const { app } = await buildTestApp(t);
  assert.equal((await app.inject({ url: '/healthz' })).statusCode, 200);
  assert.equal((await app.inject({ url: `${API}/categories` })).statusCode, 200);
});

test('Dockerfile › the base is an argument defaulting to the official image, nothing compiles, the SQLite driver is checked at build time, no test or development file in the image', () => {
  assert.match(dockerfile, /^ARG BASE_IMAGE=node:24-bookworm-slim$/m);
  const froms = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
  assert.deepEqual(froms, ['${BASE_IMAGE}', '${BASE_IMAGE}']);
  assert.match(dockerfile, /npm ci [^\n]*--ignore-scripts/);
  assert.match(dockerfile, /^RUN node scripts\/check-sqlite-driver\.mjs/m);
  assert.match(dockerfile, /node scripts\/slim-image\.mjs/);
  const ignored = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
  for (const entry of ['node_modules', 'dist', 'test', 'bench', '.git']) assert.ok(ignored.includes(entry), `.dockerignore: ${entry}`);
  // CI builds and runs it once, after the Node.js suites.
  const ci = readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
  assert.equal(ci.match(/bash \.ci\/image/g)?.length, 1);
});

test('compose.yaml › the app with PostgreSQL and Redis, health checks, a volume for PostgreSQL, variables the server reads', () => {
  const app = compose.services.app;
  for (const name of Object.keys(app.environment)) assert.ok(known.has(name), `the server reads ${name}`);
  assert.match(app.environment.DATABASE_URL, /^postgres:\/\/.+@postgres:5432\//);
  assert.match(app.environment.REDIS_URL, /^redis:\/\/redis:6379$/);
  assert.deepEqual(app.ports, [`${app.environment.PORT}:${app.environment.PORT}`]);
  assert.equal(app.depends_on.postgres.condition, 'service_healthy');
  assert.equal(app.depends_on.redis.condition, 'service_healthy');
  assert.ok(compose.services.postgres.healthcheck && compose.services.redis.healthcheck);
  assert.ok(compose.services.postgres.volumes.some((v: string) => v.startsWith('postgres-data:')));
  assert.ok('postgres-data' in compose.volumes);
});
