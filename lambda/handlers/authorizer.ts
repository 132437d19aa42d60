import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { parseBearer } from '#auth/api-keys';
import { AUTH_CACHE_TTL_MS, AUTH_KNOWN_KEYS_MAX, AUTH_UNKNOWN_KEYS_MAX } from '#auth/settings';
import type { AuthorizerContext } from '#contract/caller';
import { KeyResolver } from '#auth/key-resolver';
import { cameThroughFrontDoor } from '#auth/origin-secret';
import { log } from '#runtime/logger';
import { observed } from '#runtime/observe';
import type { ApiKeyRecord } from '#auth/key-record';
import { apiKeys } from '#data/stores/api-keys';

const keys = apiKeys();
/** A table read on a cache miss, which also notes (at most hourly) that an active key was used. */
async function lookUp(keyHash: string): Promise<ApiKeyRecord | undefined> {
  const record = await keys.findByHash(keyHash);
  if (record && !record.revokedAt) await keys.recordUse(record, new Date());
  return record;
}

const resolver = new KeyResolver(lookUp, {
  ttlMs: AUTH_CACHE_TTL_MS,
  knownMax: AUTH_KNOWN_KEYS_MAX,
  unknownMax: AUTH_UNKNOWN_KEYS_MAX,
});

type Result = APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>;

/** Always lets the request through (README, Design in brief): only the route's handler can shape the spec's 401. */
const resolved = (context: AuthorizerContext): Result => ({ isAuthorized: true, context });

async function authorize(event: APIGatewayRequestAuthorizerEventV2): Promise<Result> {
  // Front door (lambda/auth/origin-secret.ts): a request that bypassed CloudFront is anonymous, with no key lookup.
  if (!cameThroughFrontDoor(event.headers)) return resolved({ authenticated: false, reason: 'not_via_front_door' });
  const bearer = parseBearer(event.headers?.authorization);
  if (bearer.kind !== 'key') return resolved({ authenticated: false, reason: bearer.kind });
  try {
    return resolved(await resolver.resolve(bearer.key));
  } catch (error) {
    await log('warn', 'API key lookup failed', { errorName: error instanceof Error ? error.name : typeof error });
    return resolved({ authenticated: false, reason: 'unavailable' });
  }
}

/** A line (and metrics) only for a caller it could not admit: an admitted one's would double a request's log bytes. */
export const handler = observed('authorizer', authorize, (result) => {
  const context = result?.context;
  if (!context) return { outcome: 'server_error', code: 'internal_error' };
  if (context.authenticated) return undefined;
  return { outcome: context.reason === 'unavailable' ? 'server_error' : 'client_error', code: context.reason };
});
