/** The change log resource: GET /changes, one entry per tool change, oldest first. */
import { Type, type Static } from '@sinclair/typebox';
import { CHANGE_KINDS } from '../domain.js';
import { DateTime, License, Nullable, Url } from './common.js';
import { PageLinks, ToolsQuery } from './tools.js';

export const ChangeKind = Type.Union(CHANGE_KINDS.map((k) => Type.Literal(k)), {
  description:
    '`created`: published for the first time · `updated`: its record changed · `unpublished`: it left the directory (drop it) · ' +
    '`republished`: it came back · `renamed`: its slug changed (`previous_slug` now answers 301)',
});

export const Change = Type.Object(
  {
    kind: ChangeKind,
    slug: Type.String({ description: 'The tool’s slug after the change; for `unpublished`, its last published slug' }),
    previous_slug: Nullable(Type.String({ description: 'For `renamed`, the slug before; otherwise null' })),
    name: Type.String({ description: 'The tool’s name after the change (for `unpublished`, as last published)' }),
    revision: Type.Integer({ description: 'The data revision the import produced' }),
    changed_at: { ...DateTime, description: 'When the import landed (RFC 3339, UTC, to the second); never decreases along the log' },
    links: Type.Object({ tool: Nullable(Url), page: Nullable(Url) }, { additionalProperties: false, description: '`tool`: the tool in the API; `page`: its page in the catalogue, for people; both null for `unpublished`' }),
  },
  { additionalProperties: false },
);
export type Change = Static<typeof Change>;

export const ChangeList = Type.Object(
  {
    data: Type.Array(Change),
    meta: Type.Object(
      { page: Type.Integer(), per_page: Type.Integer(), total: Type.Integer(), total_pages: Type.Integer(), license: License },
      { additionalProperties: false },
    ),
    links: PageLinks,
  },
  { additionalProperties: false },
);

export const ChangesQuery = Type.Object({
  since: Type.Optional(
    Type.String({
      format: 'date-time',
      examples: ['2026-11-01T00:00:00Z'],
      description: 'Only changes at or after this instant (inclusive). RFC 3339 with seconds and `Z` or an offset (send `+` as `%2B`). Absent: the whole log.',
    }),
  ),
  page: ToolsQuery.properties.page,
  per_page: ToolsQuery.properties.per_page,
});
