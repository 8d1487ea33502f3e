/** The collection resource: editorial selections of tools ("top" per task, "stack" per persona). */
import { Type, type Static } from '@sinclair/typebox';
import { COLLECTION_KINDS } from '../domain.js';
import { DateTime, LicenseMeta, License, Nullable, SelfLink } from './common.js';
import { ToolSummary } from './tools.js';

const summaryFields = {
  slug: Type.String(),
  title: Type.String(),
  kind: Type.Union(COLLECTION_KINDS.map((k) => Type.Literal(k)), { description: '`top`: best tools for a task · `stack`: tools for a persona' }),
  task: Nullable(Type.String()),
  persona: Nullable(Type.String()),
  description: Type.String(),
  tool_count: Type.Integer({ description: 'Published tools only' }),
  updated_at: DateTime,
  links: SelfLink,
};

export const CollectionSummary = Type.Object(summaryFields, { additionalProperties: false });
export type CollectionSummary = Static<typeof CollectionSummary>;

export const Collection = Type.Object(
  {
    ...summaryFields,
    tools: Type.Array(
      Type.Object({ position: Type.Integer(), note: Type.String(), tool: ToolSummary }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type Collection = Static<typeof Collection>;

export const CollectionList = Type.Object(
  {
    data: Type.Array(CollectionSummary),
    meta: Type.Object({ total: Type.Integer(), license: License }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const CollectionDetail = Type.Object({ data: Collection, meta: LicenseMeta }, { additionalProperties: false });

export const CollectionsQuery = Type.Object({
  kind: Type.Optional(Type.String({ enum: ['top', 'stack'], examples: ['top'], description: '`top`: the best tools for a task; `stack`: a persona’s toolkit' })),
});
