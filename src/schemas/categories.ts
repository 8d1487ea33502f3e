/** The category resource, with published-tool counts. */
import { Type, type Static } from '@sinclair/typebox';
import { License, Url } from './common.js';

export const Category = Type.Object(
  {
    slug: Type.String(),
    name: Type.String(),
    description: Type.String(),
    tool_count: Type.Integer({ description: 'Published tools in this category' }),
    links: Type.Object({ tools: Url }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const CategoryList = Type.Object(
  {
    data: Type.Array(Category),
    meta: Type.Object({ total: Type.Integer(), license: License }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export type CategoryList = Static<typeof CategoryList>;
