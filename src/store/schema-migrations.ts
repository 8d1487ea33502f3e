/**
 * The schema, written once for both engines: only the column types differ (JSON as TEXT
 * in SQLite and JSONB in PostgreSQL, dates as canonical text in SQLite and TIMESTAMPTZ in
 * PostgreSQL). A new migration is a new entry, never an edit of an old one.
 */

export type Dialect = 'sqlite' | 'postgres';

const TYPES = {
  sqlite: { json: 'TEXT', time: 'TEXT', bigint: 'INTEGER' },
  postgres: { json: 'JSONB', time: 'TIMESTAMPTZ', bigint: 'BIGINT' },
} as const;

export function migrations(dialect: Dialect): Array<{ version: number; sql: string }> {
  const t = TYPES[dialect];
  return [
    {
      version: 1,
      sql: `
      CREATE TABLE directory_meta (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        revision ${t.bigint} NOT NULL,
        imported_at ${t.time}
      );
      INSERT INTO directory_meta (id, revision) VALUES (1, 0);
      CREATE TABLE categories (
        slug TEXT PRIMARY KEY,
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        description TEXT NOT NULL
      );
      CREATE TABLE tools (
        slug TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('published', 'draft')),
        category_slug TEXT NOT NULL REFERENCES categories (slug),
        website_url TEXT NOT NULL,
        logo_url TEXT,
        short_description TEXT NOT NULL,
        long_description TEXT NOT NULL,
        pricing_model TEXT NOT NULL CHECK (pricing_model IN ('free', 'freemium', 'paid', 'enterprise')),
        pricing_summary TEXT NOT NULL,
        starting_price ${t.json},
        pricing_url TEXT,
        education_program ${t.json},
        screenshot ${t.json},
        tags ${t.json} NOT NULL,
        platforms ${t.json} NOT NULL,
        languages ${t.json} NOT NULL,
        created_at ${t.time} NOT NULL,
        updated_at ${t.time} NOT NULL,
        last_verified_at ${t.time} NOT NULL
      );
      CREATE TABLE tool_redirects (
        old_slug TEXT PRIMARY KEY,
        tool_slug TEXT NOT NULL REFERENCES tools (slug) ON DELETE CASCADE,
        position INTEGER NOT NULL
      );
      CREATE TABLE collections (
        slug TEXT PRIMARY KEY,
        position INTEGER NOT NULL,
        title TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('published', 'draft')),
        kind TEXT NOT NULL CHECK (kind IN ('top', 'stack')),
        task TEXT,
        persona TEXT,
        description TEXT NOT NULL,
        created_at ${t.time} NOT NULL,
        updated_at ${t.time} NOT NULL
      );
      CREATE TABLE collection_items (
        collection_slug TEXT NOT NULL REFERENCES collections (slug) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        tool_slug TEXT NOT NULL REFERENCES tools (slug),
        note TEXT NOT NULL,
        PRIMARY KEY (collection_slug, position)
      );
    `,
    },
    {
      // The search's synonyms (content/synonyms.yaml), swapped with the rest of the dataset.
      version: 2,
      sql: `
      CREATE TABLE search_synonyms (
        position INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('family', 'equivalent', 'expansion')),
        term TEXT,
        expressions ${t.json} NOT NULL
      );
    `,
    },
    {
      // The change log (store/change-log.ts): one row per tool change per import. A store
      // that already holds data starts its log with one `created` per published tool, at
      // the current revision and its import instant, as if that import had been the first.
      version: 4,
      sql: `
      CREATE TABLE tool_changes (
        revision ${t.bigint} NOT NULL,
        position INTEGER NOT NULL,
        changed_at ${t.time} NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('created', 'updated', 'unpublished', 'republished', 'renamed')),
        slug TEXT NOT NULL,
        previous_slug TEXT,
        tool ${t.json} NOT NULL,
        PRIMARY KEY (revision, position)
      );
      INSERT INTO tool_changes (revision, position, changed_at, kind, slug, previous_slug, tool)
      SELECT m.revision, ROW_NUMBER() OVER (ORDER BY t.slug ${BACKFILL[dialect].bytewise}) - 1, ${BACKFILL[dialect].instant}, 'created', t.slug, NULL,
        ${BACKFILL[dialect].object}('name', t.name, 'short_description', t.short_description,
          'category', ${BACKFILL[dialect].object}('slug', c.slug, 'name', c.name), 'pricing', t.pricing_model, 'website_url', t.website_url)
      FROM tools t JOIN categories c ON c.slug = t.category_slug CROSS JOIN directory_meta m
      WHERE t.status = 'published';
    `,
    },
    {
      // Honest freshness and the link checker (issue 16): `last_verified_at` may be null (no
      // editor has checked the facts yet); what `npm run check-links --write` recorded. SQLite
      // cannot drop a NOT NULL in place, and rebuilding `tools` would cascade-delete its
      // redirects, so the column is copied, dropped and its copy renamed.
      version: 5,
      sql: `
      ${dialect === 'postgres'
        ? 'ALTER TABLE tools ALTER COLUMN last_verified_at DROP NOT NULL;'
        : `ALTER TABLE tools ADD COLUMN verified_copy TEXT;
      UPDATE tools SET verified_copy = last_verified_at;
      ALTER TABLE tools DROP COLUMN last_verified_at;
      ALTER TABLE tools RENAME COLUMN verified_copy TO last_verified_at;`}
      ALTER TABLE tools ADD COLUMN links_checked_at ${t.time};
      ALTER TABLE tools ADD COLUMN link_status TEXT CHECK (link_status IN ('ok', 'redirected', 'broken', 'unreachable'));
      ALTER TABLE tools ADD COLUMN link_redirects ${t.json};
    `,
    },
    {
      // School facts (API.md, "School use"): one JSON column per tool, and the documents the
      // publisher edits beside the tools that are not records of their own (the levels and
      // subjects vocabularies), kept whole by name and swapped with the rest of the dataset.
      version: 6,
      sql: `
      ALTER TABLE tools ADD COLUMN school ${t.json};
      CREATE TABLE content_documents (
        name TEXT PRIMARY KEY,
        body ${t.json} NOT NULL
      );
    `,
    },
  ];
}

/** What the change log's backfill (migration 4) says differently on each engine. */
const BACKFILL = {
  sqlite: { object: 'json_object', instant: "strftime('%Y-%m-%dT%H:%M:%SZ', COALESCE(m.imported_at, 'now'))", bytewise: '' },
  postgres: { object: 'jsonb_build_object', instant: "date_trunc('second', COALESCE(m.imported_at, now()))", bytewise: 'COLLATE "C"' },
} as const;
