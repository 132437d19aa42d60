/** The response headers the middleware stack sets (lambda/http/), as a document describes them. */
import { GET_PET_DEPRECATION_HEADERS } from '#contract/operations/get-pet';
import { encodeCursor } from '#http/page-cursor';
import type { Header, JsonSchema } from './types';

const HEADERS = {
  'Cache-Control': {
    description: 'Every answer is private to the caller, so no cache may keep it.',
    schema: { type: 'string', const: 'no-store' },
  },
  Location: {
    description: 'Absolute URL of the new animal, on the host the client called.',
    schema: { type: 'string', format: 'uri', examples: ['https://abc123defg.execute-api.us-east-1.amazonaws.com/v1/pets/244208697521988'] },
  },
  Link: {
    description:
      'Present when more animals follow: the URL of the next page (RFC 8288, `rel="next"`), with the same `limit` and `status` ' +
      'and an opaque `cursor`. A page without it is the last one; there is never an empty trailing page.',
    schema: {
      type: 'string',
      pattern: '^<[^>]+>; rel="next"$',
      examples: [
        `<https://abc123defg.execute-api.us-east-1.amazonaws.com/v1/pets?limit=2&status=sold&cursor=${encodeCursor({ lastId: 244208697521988, status: 'sold' })}>; rel="next"`,
      ],
    },
  },
  Deprecation: {
    description: 'RFC 9745: this operation is deprecated (since 1 January 2026, as a structured-field date).',
    schema: { type: 'string', const: GET_PET_DEPRECATION_HEADERS.deprecation },
  },
  Sunset: {
    description: 'RFC 8594: this operation is removed on 5 December 2030.',
    schema: { type: 'string', const: GET_PET_DEPRECATION_HEADERS.sunset },
  },
  'WWW-Authenticate': {
    description: 'RFC 9110: the scheme to authenticate with.',
    schema: { type: 'string', const: 'Bearer realm="petstore"' },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 0, examples: [1] },
  },
  'Idempotent-Replayed': {
    description: 'Present when this is the stored answer to an earlier request with the same `Idempotency-Key` (nothing new was stored).',
    schema: { type: 'string', const: 'true' },
  },
} as const satisfies Record<string, { description: string; schema: JsonSchema }>;

export type HeaderName = keyof typeof HEADERS;

/** `name: true` when every such answer carries the header, `false` when only some do. */
export type HeaderUse = Partial<Record<HeaderName, boolean>>;

export function headers(use: HeaderUse): Record<string, Header> {
  return Object.fromEntries(Object.entries(use).map(([name, required]) => [name, { ...HEADERS[name as HeaderName], required }]));
}
