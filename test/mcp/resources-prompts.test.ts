import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, buildTestApp } from '../helpers/build-app.js';
import { ERAS, connectClient } from '../helpers/mcp-client.js';

const env = { PUBLIC_BASE_URL: 'https://api.example.org' };

for (const era of ERAS) {
  test(`MCP (${era}) › resources: a template for tools, listed collections and categories, the licence`, async (t) => {
    const { app } = await buildTestApp(t, { env });
    const client = await connectClient(t, app, { era });
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    assert.ok(uris.includes('annuaire://categories'));
    assert.ok(uris.includes('annuaire://license'));
    const collections = (await app.inject({ url: `${API}/collections` })).json().data.map((c: { slug: string }) => `annuaire://collections/${c.slug}`);
    for (const uri of collections) assert.ok(uris.includes(uri), uri);
    assert.ok(!uris.some((uri) => uri.startsWith('annuaire://tools/')), 'tools are not listed one by one');
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.ok(resourceTemplates.some((r) => r.uriTemplate === 'annuaire://tools/{slug}'));

    const tool = await client.readResource({ uri: 'annuaire://tools/oeuvre-studio' });
    const [content] = tool.contents as Array<{ text: string; mimeType: string }>;
    assert.equal(content!.mimeType, 'application/json');
    assert.deepEqual(JSON.parse(content!.text), (await app.inject({ url: `${API}/tools/oeuvre-studio` })).json());

    const collection = await client.readResource({ uri: 'annuaire://collections/professeur-de-lettres' });
    assert.deepEqual(JSON.parse((collection.contents[0] as { text: string }).text), (await app.inject({ url: `${API}/collections/professeur-de-lettres` })).json());

    const license = await client.readResource({ uri: 'annuaire://license' });
    const text = (license.contents[0] as { text: string }).text;
    assert.match(text, /^Attribution: Éditeur de test — https:\/\/editeur\.example\.org/);
    assert.match(text, /Creative Commons Attribution 4\.0/);

    await assert.rejects(client.readResource({ uri: 'annuaire://tools/quizy' }), /n’a le slug « quizy »/);
    const completion = await client.complete({ ref: { type: 'ref/resource', uri: 'annuaire://tools/{slug}' }, argument: { name: 'slug', value: 'qui' } });
    assert.deepEqual(completion.completion.values.sort(), ['quiz-master', 'quizzy']);
  });

  test(`MCP (${era}) › two French prompts that lead to the tools`, async (t) => {
    const { app } = await buildTestApp(t, { env });
    const client = await connectClient(t, app, { era });
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name), ['recommander_des_outils', 'composer_une_boite_a_outils']);
    const recommend = await client.getPrompt({ name: 'recommander_des_outils', arguments: { besoin: 'corriger des copies', budget: 'gratuit' } });
    const text = (recommend.messages[0]!.content as { text: string }).text;
    assert.match(text, /corriger des copies/);
    assert.match(text, /Budget : gratuit/);
    assert.match(text, /search_tools/);
    const toolkit = await client.getPrompt({ name: 'composer_une_boite_a_outils', arguments: { profil: 'professeur de lettres' } });
    assert.match((toolkit.messages[0]!.content as { text: string }).text, /professeur de lettres[\s\S]*list_collections/);
    await assert.rejects(client.getPrompt({ name: 'recommander_des_outils', arguments: {} }), 'besoin is required');
  });
}
