import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AddressPolicy } from '../../src/publishing/address-policy.js';
import { LinkChecker, worstStatus } from '../../src/publishing/link-checker.js';
import { progressBar } from '../../src/publishing/progress.js';
import { startHttpSite, startHttpsSite, TEST_CERT_FILE, type Route } from '../helpers/fixture-sites.js';

const OPTIONS = { timeoutMs: 2_000, concurrency: 16, perHost: 2, retries: 2, backoffMs: 50, maxRetryAfterMs: 5_000, maxRedirects: 3, userAgent: 'test-checker/1.0', addresses: new AddressPolicy(['127.0.0.1']) };
const slowOk: Route = (_req, res) => setTimeout(() => res.writeHead(200).end(), 150);

test('LinkChecker › never more than `perHost` requests at once to one host', async (t) => {
  const site = await startHttpSite(t, Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`/p${i}`, slowOk])));
  const checker = new LinkChecker(OPTIONS);
  const started = Date.now();
  const results = await Promise.all(Array.from({ length: 6 }, (_, i) => checker.check(`${site.origin}/p${i}`)));
  assert.ok(results.every((r) => r.status === 'ok'));
  assert.equal(site.maxInFlight, 2);
  assert.ok(Date.now() - started >= 3 * 150, 'three rounds of two');
});

test('LinkChecker › 503 retried with backoff; a Retry-After beyond the limit is not waited for', async (t) => {
  let calls = 0;
  const site = await startHttpSite(t, {
    '/flaky': (_req, res) => (++calls <= 2 ? res.writeHead(503).end() : res.writeHead(200).end()),
    '/later': (_req, res) => res.writeHead(429, { 'retry-after': '3600' }).end(),
    '/down': (_req, res) => res.writeHead(503).end(),
  });
  const checker = new LinkChecker(OPTIONS);
  const flaky = await checker.check(`${site.origin}/flaky`);
  assert.deepEqual([flaky.status, flaky.requests], ['ok', 3]);
  const later = await checker.check(`${site.origin}/later`);
  assert.equal(later.status, 'broken');
  assert.match(later.error!, /Retry-After of 3600 s is longer than the 5 s/);
  assert.ok(later.ms < 1_000);
  const down = await checker.check(`${site.origin}/down`);
  assert.deepEqual([down.status, down.error], ['broken', 'HTTP 503 after 3 attempts']);
});

test('LinkChecker › too many redirects, a redirect without Location, and one URL checked once', async (t) => {
  const site = await startHttpSite(t, {
    '/r0': (_req, res) => res.writeHead(302, { location: '/r1' }).end(),
    '/r1': (_req, res) => res.writeHead(302, { location: '/r2' }).end(),
    '/r2': (_req, res) => res.writeHead(302, { location: '/r3' }).end(),
    '/r3': (_req, res) => res.writeHead(302, { location: '/r4' }).end(),
    '/r4': (_req, res) => res.writeHead(200).end(),
    '/nowhere': (_req, res) => res.writeHead(301).end(),
    '/home': (_req, res) => res.writeHead(200).end(),
  });
  const checker = new LinkChecker(OPTIONS);
  assert.match((await checker.check(`${site.origin}/r0`)).error!, /more than 3 redirects/);
  assert.equal((await checker.check(`${site.origin}/nowhere`)).error, '301 without a Location header');
  await Promise.all([checker.check(`${site.origin}/home`), checker.check(`${site.origin}/home`)]);
  assert.equal(site.log.filter((r) => r.path === '/home').length, 1);
  assert.equal(worstStatus(['ok', 'redirected', 'unreachable']), 'unreachable');
  assert.equal(worstStatus(['unreachable', 'broken', 'ok']), 'broken');
});

test('progressBar › drawn on a terminal, silent on a pipe', () => {
  const written: string[] = [];
  const terminal = { isTTY: true, columns: 60, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
  const bar = progressBar(4, 'URLs', terminal);
  bar.tick('quizzy');
  bar.tick('kahoot');
  bar.done();
  assert.match(written[2]!, /^\r\[#{15}\.{15}\] 2\/4 URLs kahoot\s*$/);
  assert.ok(written.every((s) => s.replaceAll('\r', '').length <= 59), 'never wider than the terminal');
  const piped: string[] = [];
  const pipe = progressBar(4, 'URLs', { isTTY: false, write: (s: string) => piped.push(s) } as unknown as NodeJS.WriteStream);
  pipe.tick();
  pipe.done();
  assert.deepEqual(piped, []);
});

test('LinkChecker › a certificate nobody vouches for is a TLS error: unreachable', { skip: process.env.NODE_EXTRA_CA_CERTS === TEST_CERT_FILE ? 'the test certificate is trusted in this process' : false }, async (t) => {
  const site = await startHttpsSite(t, { '/': (_req, res) => res.writeHead(200).end() });
  const result = await new LinkChecker(OPTIONS).check(`${site.origin}/`);
  assert.equal(result.status, 'unreachable');
  assert.match(result.error!, /^TLS error: self[- ]signed certificate/);
});
