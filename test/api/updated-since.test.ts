import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, buildTestApp } from '../helpers/build-app.js';
import { fixtureDataset } from '../helpers/fixture.js';

// Fixture dates: quizzy 2026-03-01T08:00:00Z, quiz-master 2026-02-01T08:00:00Z,
// zebre-math 2026-04-01T08:00:00Z, every other published tool 2026-01-01T08:00:00Z.
const slugs = (body: { data: Array<{ slug: string }> }) => body.data.map((d) => d.slug);

test('GET /tools?updated_since › inclusive at the exact instant, whatever the time zone or precision', async (t) => {
  const { app } = await buildTestApp(t);
  const since = async (value: string, extra = '') => (await app.inject({ url: `${API}/tools?updated_since=${encodeURIComponent(value)}${extra}` })).json();
  assert.deepEqual(slugs(await since('2026-03-01T08:00:00Z')), ['quizzy', 'zebre-math'], 'the equal instant is included');
  assert.deepEqual(slugs(await since('2026-03-01T08:00:00.001Z')), ['zebre-math'], 'a millisecond later, it is not');
  assert.deepEqual(slugs(await since('2026-03-01T08:00:00.0001Z')), ['zebre-math'], 'nor a tenth of one (no rounding down)');
  assert.deepEqual(slugs(await since('2026-03-01T07:59:59.9999Z')), ['quizzy', 'zebre-math']);
  assert.deepEqual(slugs(await since('2026-03-01T09:00:00+01:00')), ['quizzy', 'zebre-math'], 'Paris winter time, same instant');
  assert.deepEqual(slugs(await since('2026-03-01T03:00:00-05:00')), ['quizzy', 'zebre-math'], 'New York, same instant');
  assert.deepEqual(slugs(await since('2026-03-01T09:00:00.001+01:00')), ['zebre-math']);
  assert.deepEqual(slugs(await since('2026-03-01t08:00:00z')), ['quizzy', 'zebre-math'], 'lower-case t and z (RFC 3339 §5.6)');
  assert.equal((await since('2026-01-01T08:00:00Z')).meta.total, 9, 'everything');
  assert.equal((await since('2031-01-01T00:00:00Z')).meta.total, 0, 'nothing yet');
  assert.equal((await since('0001-01-01T00:00:00Z')).meta.total, 9);
});

test('GET /tools?updated_since › a leap second (23:59:60 UTC) is accepted as the next second\'s instant', async (t) => {
  const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://api.example.org' } });
  const since = async (value: string) => app.inject({ url: `${API}/tools?updated_since=${encodeURIComponent(value)}` });
  for (const value of ['2016-12-31T23:59:60Z', '2016-12-31T23:59:60.5Z', '2016-12-31T15:59:60-08:00', '2017-01-01T00:59:60+01:00']) {
    const res = await since(value);
    assert.equal(res.statusCode, 200, `${value}: ${res.body.slice(0, 300)}`);
    assert.equal(res.json().meta.total, 9, value);
    // The instant just after the leap second, in links.
    assert.match(res.json().links.self, /updated_since=2017-01-01T00:00:00Z&/, value);
  }
  // Inclusive, at the next second: a change at 00:00:00 is in, one a second before the leap second is not.
  const { app: edge } = await buildTestApp(t, { dataset: (() => {
    const d = fixtureDataset();
    for (const tool of d.tools) tool.updated_at = tool.created_at = '2026-01-01T08:00:00Z';
    d.tools.find((x) => x.slug === 'quizzy')!.updated_at = '2026-07-01T00:00:00Z';
    d.tools.find((x) => x.slug === 'zebre-math')!.updated_at = '2026-06-30T23:59:59Z';
    return d;
  })() });
  const body = (await edge.inject({ url: `${API}/tools?updated_since=2026-06-30T23:59:60Z` })).json();
  assert.deepEqual(slugs(body), ['quizzy']);
  // Only 23:59:60 UTC can be a leap second; /changes?since reads instants the same way.
  assert.equal((await since('2016-12-31T12:30:60Z')).statusCode, 400);
  assert.equal((await since('2016-12-31T23:59:61Z')).statusCode, 400);
  assert.equal((await app.inject({ url: `${API}/changes?since=2016-12-31T23:59:60Z` })).statusCode, 200);
});

test('GET /tools?updated_since › combines with every filter, q and sort; links carry it in UTC', async (t) => {
  const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://api.example.org' } });
  const body = (await app.inject({ url: `${API}/tools?updated_since=${encodeURIComponent('2026-02-01T09:00:00+01:00')}&sort=-updated_at&per_page=2` })).json();
  assert.deepEqual(slugs(body), ['zebre-math', 'quizzy']);
  assert.equal(body.meta.total, 3);
  assert.equal(body.links.next, 'https://api.example.org/api/v1/directory/tools?updated_since=2026-02-01T08:00:00Z&sort=-updated_at&page=2&per_page=2');
  const next = (await app.inject({ url: body.links.next.replace('https://api.example.org', '') })).json();
  assert.deepEqual(slugs(next), ['quiz-master']);
  const filtered = (await app.inject({ url: `${API}/tools?updated_since=2026-02-01T08:00:00Z&q=quiz&category=quiz&pricing=free&has_education_pricing=1` })).json();
  assert.deepEqual(slugs(filtered), ['quizzy']);
  assert.equal(filtered.links.self, 'https://api.example.org/api/v1/directory/tools?q=quiz&category=quiz&pricing=free&has_education_pricing=1&updated_since=2026-02-01T08:00:00Z&page=1&per_page=30');
  const same = await app.inject({ url: `${API}/tools?updated_since=2026-02-01T08:00:00.000Z&q=quiz&category=quiz&pricing=free&has_education_pricing=1` });
  assert.equal(same.json().links.self, filtered.links.self, 'one canonical form, one cached response');
});

test('GET /tools?updated_since › a bad value is a 400 naming the parameter, with an example of a valid one', async (t) => {
  const { app } = await buildTestApp(t);
  const bad = ['yesterday', '2026-03-01', '2026-03-01T08:00Z', '2026-03-01T08:00:00', '2026-03-01 08:00:00Z', '2026-02-29T00:00:00Z', '2026-13-01T00:00:00Z',
    '2026-03-01T24:00:00Z', '2026-03-01T08:00:60Z', '2026-03-01T08:00:00+24:00', '1709280000', '2026-03-01T08:00:00.Z', '+2026-03-01T08:00:00Z', '0000-01-01T00:00:00+01:00'];
  for (const value of bad) {
    const res = await app.inject({ url: `${API}/tools?updated_since=${encodeURIComponent(value)}` });
    assert.equal(res.statusCode, 400, value);
    const body = res.json();
    assert.deepEqual(body.errors.map((e: { parameter: string }) => e.parameter), ['updated_since'], value);
    assert.equal(body.errors[0].value, value);
    assert.match(body.detail, /^updated_since doit être une date-heure RFC 3339 avec secondes et fuseau, comme 2026-11-01T00:00:00Z ou 2026-11-01T00:00:00\+01:00\.$/, value);
  }
  assert.equal((await app.inject({ url: `${API}/tools?updated_since=2024-02-29T00:00:00Z` })).statusCode, 200, 'a leap day');
  // `+` sent unencoded arrives as a space: the answer says what to do.
  const plus = (await app.inject({ url: `${API}/tools?updated_since=2026-03-01T09:00:00+01:00` })).json();
  assert.match(plus.detail, /un « \+ » dans une URL s’écrit %2B/);
  assert.equal((await app.inject({ url: `${API}/tools?updated_since=2026-03-01T08:00:00Z&updated_since=2026-03-02T08:00:00Z` })).statusCode, 400, 'given twice');
  assert.equal((await app.inject({ url: `${API}/tools?updated_since=` })).json().meta.total, 9, 'blank is absent');
});
