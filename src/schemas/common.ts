/** Schemas shared by every resource: licence, links, problem details. */
import { Type, type TSchema } from '@sinclair/typebox';

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export const DateTime = Type.String({ format: 'date-time', description: 'RFC 3339, UTC' });
export const Url = Type.String({ format: 'uri' });

export const SelfLink = Type.Object({ self: Url }, { additionalProperties: false });

export const License = Type.Object(
  {
    name: Type.String({ examples: ['CC BY 4.0'] }),
    url: Url,
    attribution: Type.String({ description: 'How to credit the publisher: "<name> — <url>"' }),
  },
  { additionalProperties: false, description: 'The data is published under CC BY 4.0.' },
);

export const LicenseMeta = Type.Object({ license: License }, { additionalProperties: false });

export const ProblemDetails = Type.Object(
  {
    type: Url,
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String(),
    errors: Type.Optional(
      Type.Array(
        Type.Object(
          { parameter: Type.String(), value: Type.String(), message: Type.String(), suggestion: Type.Optional(Type.String()) },
          { additionalProperties: false },
        ),
      ),
    ),
    suggestions: Type.Optional(Type.Array(Type.String(), { description: 'Nearest published slugs, for an unknown slug' })),
    request_id: Type.Optional(Type.String()),
  },
  { additionalProperties: false, description: 'RFC 9457 problem details' },
);
