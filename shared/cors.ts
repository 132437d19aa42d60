/** What browsers may do with the APIs when CORS is on: the stack configures API Gateway with it, the local server too. */
import type { StageName } from './stages';

/** Request headers a browser may send: the key, the JSON body's type, and the retry key. */
export const CORS_ALLOW_HEADERS = ['authorization', 'content-type', 'idempotency-key'] as const;
/** Response headers a browser may read: everything the API puts on its answers beyond the safelisted ones. */
export const CORS_EXPOSE_HEADERS = [
  'link',
  'location',
  'deprecation',
  'sunset',
  'retry-after',
  'www-authenticate',
  'idempotent-replayed',
] as const;
export const CORS_ALLOW_METHODS = ['GET', 'POST', 'OPTIONS'] as const;
/** How long a browser may reuse a preflight's answer. */
export const CORS_MAX_AGE_SECONDS = 3600;

const ORIGIN = /^(https?):\/\/([^/\s:]+)(:\d+)?$/;

/**
 * The origins of `-c corsOrigins` (`a,b` or `["a","b"]`): `*` is refused (any site could use a key a page holds),
 * plain `http://` allowed only for localhost in dev.
 */
export function parseCorsOrigins(stage: StageName, value: unknown): string[] | undefined {
  if (value === undefined || value === '') return undefined;
  const listed: unknown[] = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
  const origins = listed.map((origin) => {
    if (typeof origin !== 'string') throw new Error(`corsOrigins: ${JSON.stringify(origin)} is not an origin`);
    return origin.trim();
  });
  for (const origin of origins.filter(Boolean)) {
    if (origin === '*') throw new Error('corsOrigins: `*` is not allowed; list the origins of the sites that call the API');
    const match = ORIGIN.exec(origin);
    if (!match) throw new Error(`corsOrigins: ${JSON.stringify(origin)} is not an origin (scheme://host[:port], no path)`);
    const [, scheme, host] = match;
    if (scheme === 'http' && !(stage === 'dev' && host === 'localhost')) {
      throw new Error(`corsOrigins: ${JSON.stringify(origin)} is plain http; only http://localhost[:port] is allowed, and only in dev`);
    }
  }
  const given = origins.filter(Boolean);
  return given.length > 0 ? given : undefined;
}
