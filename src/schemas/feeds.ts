/**
 * The JSON Feed 1.1 document of the latest changes (https://www.jsonfeed.org/version/1.1/).
 * Members starting with `_` are extensions, which the specification lets publishers add
 * and tells readers to ignore when they do not know them.
 */
import { Type } from '@sinclair/typebox';
import { DateTime, License, Nullable, Url } from './common.js';
import { ChangeKind } from './changes.js';
import { CategoryRef, PricingModel } from './tools.js';

export const JsonFeedItem = Type.Object(
  {
    id: Type.String({ description: 'A tag: URI (RFC 4151) unique to the change: the same change keeps it, every change has its own' }),
    url: Type.Optional({ ...Url, description: 'The tool in the API (absent for `unpublished`)' }),
    external_url: { ...Url, description: 'The tool’s website' },
    title: Type.String(),
    summary: Type.String({ description: 'The tool’s short description' }),
    content_text: Type.String(),
    date_published: { ...DateTime, description: 'When the change landed' },
    date_modified: DateTime,
    tags: Type.Array(Type.String(), { description: 'Category name and pricing, in French' }),
    _change: Type.Object(
      { kind: ChangeKind, slug: Type.String(), previous_slug: Nullable(Type.String()), revision: Type.Integer(), category: CategoryRef, pricing: PricingModel, api_url: Nullable({ ...Url, description: 'The tool in the API (the item’s url is its page, for people); null once unpublished' }) },
      { additionalProperties: false, description: 'The change as GET /changes gives it, with the tool’s category and pricing' },
    ),
  },
  { additionalProperties: false },
);

export const JsonFeed = Type.Object(
  {
    version: Type.Literal('https://jsonfeed.org/version/1.1'),
    title: Type.String(),
    home_page_url: Url,
    feed_url: Url,
    description: Type.String(),
    language: Type.Literal('fr'),
    authors: Type.Array(Type.Object({ name: Type.String(), url: Url }, { additionalProperties: false })),
    _license: License,
    items: Type.Array(JsonFeedItem, { description: 'The 50 latest changes, newest first' }),
  },
  { additionalProperties: false, description: 'JSON Feed 1.1 of the 50 latest changes to published tools' },
);
