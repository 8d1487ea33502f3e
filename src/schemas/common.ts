/** Schemas shared by every resource: licence, links, problem details. */
import { Type, type TSchema } from '@sinclair/typebox';

/**
 * On a query parameter's schema: « try it » on /docs sends its first example by default
 * (http/routes/openapi.ts, tryItExamples); the other parameters' examples are shown, off.
 */
export const TRY_IT = 'x-try-it';

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export const DateTime = Type.String({ format: 'date-time', description: 'RFC 3339, UTC' });
export const Url = Type.String({ format: 'uri' });

export const SelfLink = Type.Object({ self: Url }, { additionalProperties: false });

export const License = Type.Object(
  {
    name: Type.String({ examples: ['CC BY 4.0'] }),
    url: Url,
    attribution: Type.String({ description: 'How to credit the publisher: "<name> — <url>" (PUBLISHER_URL, else PUBLIC_BASE_URL); the name alone when the instance has neither' }),
  },
  { additionalProperties: false, description: 'The data is published under CC BY 4.0.' },
);

export const LicenseMeta = Type.Object({ license: License }, { additionalProperties: false });

export const ProblemDetails = Type.Object(
  {
    type: Type.String({ format: 'uri', description: 'Stable identifier of the problem: `<PUBLIC_BASE_URL>/problems/<code>` (http://localhost when unset), whatever the request’s Host' }),
    title: Type.String({ description: 'In the language of Accept-Language (French by default, or English)' }),
    status: Type.Integer(),
    detail: Type.String({ description: 'In the language of Accept-Language (French by default, or English)' }),
    instance: Type.Optional(Type.String()),
    errors: Type.Optional(
      Type.Array(
        Type.Object(
          {
            parameter: Type.String(),
            value: Type.String(),
            code: Type.String({ description: 'The rule broken, the same in every language: repeated, not_whole_number, not_in_enum, not_slug_list, not_boolean, too_long, not_date_time' }),
            message: Type.String({ description: 'In the language of Accept-Language' }),
            suggestion: Type.Optional(Type.String()),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    suggestions: Type.Optional(Type.Array(Type.String(), { description: 'Nearest published slugs, for an unknown slug' })),
    request_id: Type.Optional(Type.String()),
  },
  { additionalProperties: false, description: 'RFC 9457 problem details' },
);

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { type: 'integer', description: 'Requests allowed per rolling window' },
  'RateLimit-Remaining': { type: 'integer', description: 'Requests left in the current rolling window' },
  'RateLimit-Reset': { type: 'integer', description: 'Seconds until one more request is allowed (0 while RateLimit-Remaining > 0)' },
};

const SUCCESS_HEADERS = {
  ETag: { type: 'string', description: 'Weak validator; send it back in If-None-Match to get a 304' },
  'Cache-Control': { type: 'string', description: 'public, max-age=300' },
  Link: { type: 'string', description: 'RFC 8288 links: rel="license" (CC BY 4.0); for lists first/prev/next/last/self; on /tools also rel="alternate" (feeds, exports) and rel="describedby" (datapackage.json)' },
  ...RATE_LIMIT_HEADERS,
};

/** A response schema with the description and headers the OpenAPI document shows. */
export function documented<T extends object>(schema: T, description: string, extraHeaders: Record<string, { type: string; description: string }> = {}): T {
  return { ...schema, description, headers: { ...SUCCESS_HEADERS, ...extraHeaders } };
}

export const NotModified = { description: 'Not modified: the If-None-Match validator still matches (no body)', type: 'null', headers: { ETag: SUCCESS_HEADERS.ETag, ...RATE_LIMIT_HEADERS } };
const PROBLEM_HEADERS = {
  'Content-Language': { type: 'string', description: '`fr` or `en`: the language of `title` and `detail`, from Accept-Language (French by default)' },
  Vary: { type: 'string', description: 'Accept-Language' },
};
export const TooManyRequests = {
  ...ProblemDetails,
  description: 'Rate limit exceeded (never cached: Cache-Control no-store)',
  headers: { 'Retry-After': { type: 'integer', description: 'Whole seconds (≥ 1) until a request will be accepted' }, ...RATE_LIMIT_HEADERS, ...PROBLEM_HEADERS },
};
export const BadRequest = { ...ProblemDetails, description: 'A parameter has a value it cannot take; every one is listed in `errors`', headers: { ...RATE_LIMIT_HEADERS, ...PROBLEM_HEADERS } };
export const NotFound = { ...ProblemDetails, description: 'No published resource has this slug; `suggestions` lists the nearest ones', headers: { ...RATE_LIMIT_HEADERS, ...PROBLEM_HEADERS } };

/** The responses of a GET that serves one media type other than JSON's (a feed, an export). */
export function mediaResponses(mediaType: string, schema: object, description: string) {
  return { 200: documented({ content: { [mediaType]: { schema } } }, description), 304: NotModified, 429: TooManyRequests };
}
