import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig, parseAllowedOrigins } from '../../src/config.js';
import { API, buildTestApp } from '../helpers/build-app.js';

test('config › MCP_ALLOWED_ORIGINS: * or absent is any origin; a list of origins; anything else stops the boot', () => {
  assert.equal(loadConfig({}).mcpAllowedOrigins, null);
  assert.equal(parseAllowedOrigins('*'), null);
  assert.deepEqual(parseAllowedOrigins(' https://Agent.Example.com/ , http://localhost:6274'), ['https://agent.example.com', 'http://localhost:6274']);
  for (const bad of ['https://a.example/path', 'ftp://a.example', 'null', 'https://*.example.org', 'agent.example.com', ',', 'https://user:pw@a.example']) {
    assert.throws(() => parseAllowedOrigins(bad), (err: unknown) => err instanceof ConfigError && err.variable === 'MCP_ALLOWED_ORIGINS', bad);
  }
});

test('GET /llms.txt › the directory, its licence, one example per REST endpoint and the MCP endpoint, in the llms.txt format', async (t) => {
  const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://api.example.org' } });
  const res = await app.inject({ url: '/llms.txt' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'text/markdown; charset=utf-8');
  assert.equal(res.headers['access-control-allow-origin'], '*');
  assert.ok(res.headers.etag);
  const text = res.body;
  assert.match(text, /^# .+\n\n> .+ 9 AI and EdTech tools/);
  assert.match(text, /CC BY 4\.0 \(https:\/\/creativecommons\.org\/licenses\/by\/4\.0\/\)\. Credit it as "Éditeur de test — https:\/\/editeur\.example\.org"/);
  assert.match(text, /\n## MCP\n\n- \[MCP server\]\(https:\/\/api\.example\.org\/mcp\)/);
  const links = [...text.matchAll(/\]\((https:\/\/api\.example\.org[^)]+)\)/g)].map((m) => m[1]!);
  for (const endpoint of ['/tools?', '/tools/', '/collections?', '/collections/', '/categories', '/openapi.json']) {
    assert.ok(links.some((link) => link.startsWith(`https://api.example.org${API}${endpoint}`)), endpoint);
  }
  // Every REST example answers 200.
  for (const link of links.filter((l) => l.includes(API))) {
    const answer = await app.inject({ url: link.slice('https://api.example.org'.length) });
    assert.equal(answer.statusCode, 200, link);
  }
  const openapi = (await app.inject({ url: `${API}/openapi.json` })).json();
  assert.match(openapi.info.description, /\/llms\.txt/);
  assert.ok(openapi.paths['/llms.txt'], 'documented in the OpenAPI description');
});

test('server.json › a remote streamable-http server for the MCP Registry, named like the README', async () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const server = JSON.parse(await readFile(path.join(root, 'server.json'), 'utf8'));
  assert.match(server.$schema, /^https:\/\/static\.modelcontextprotocol\.io\/schemas\/.+\/server\.schema\.json$/);
  assert.equal(server.remotes[0].type, 'streamable-http');
  assert.match(server.remotes[0].url, /^https:\/\/.+\/mcp$/);
  assert.ok(server.description.length <= 100, 'the registry caps descriptions at 100 characters');
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  assert.ok(readme.includes('/llms.txt') && readme.includes('MCP_ALLOWED_ORIGINS'));
});
