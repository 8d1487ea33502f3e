/**
 * datapackage.json: a Frictionless Data Package, v2 (https://datapackage.org/standard/),
 * describing the two exports with their Table Schemas, sizes and hashes.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Url } from './common.js';

export const TableField = Type.Object(
  {
    name: Type.String(),
    type: Type.String({ description: 'Table Schema type: string, number, boolean, datetime, object, array…' }),
    format: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    decimalChar: Type.Optional(Type.String()),
    constraints: Type.Optional(Type.Object({ enum: Type.Array(Type.String()) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type TableField = Static<typeof TableField>;

const Resource = Type.Object(
  {
    name: Type.String(),
    path: Url,
    type: Type.Literal('table'),
    title: Type.String(),
    description: Type.String(),
    format: Type.String(),
    mediatype: Type.String(),
    encoding: Type.String(),
    bytes: Type.Integer({ description: 'Size of the uncompressed file' }),
    hash: Type.String({ description: '`sha256:` and the hex digest of the uncompressed file' }),
    dialect: Type.Optional(
      Type.Object(
        { delimiter: Type.String(), lineTerminator: Type.String(), quoteChar: Type.String(), doubleQuote: Type.Boolean(), header: Type.Boolean() },
        { additionalProperties: false },
      ),
    ),
    schema: Type.Object(
      { fields: Type.Array(TableField), primaryKey: Type.Array(Type.String()), missingValues: Type.Optional(Type.Array(Type.String())) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const Titled = Type.Object({ title: Type.String(), path: Url }, { additionalProperties: false });

export const DataPackage = Type.Object(
  {
    $schema: Type.Literal('https://datapackage.org/profiles/2.0/datapackage.json'),
    name: Type.String(),
    title: Type.String(),
    description: Type.String(),
    homepage: Url,
    licenses: Type.Array(Type.Object({ name: Type.String(), path: Url, title: Type.String() }, { additionalProperties: false })),
    sources: Type.Array(Titled),
    contributors: Type.Array(Type.Object({ title: Type.String(), path: Url, roles: Type.Array(Type.String()) }, { additionalProperties: false })),
    keywords: Type.Array(Type.String()),
    resources: Type.Array(Resource),
  },
  { additionalProperties: false, description: 'Frictionless Data Package (v2) describing the exports' },
);
