import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { AUTH_CACHE_MAX_ENTRIES, AUTH_CACHE_TTL_MS } from '../shared/auth-settings';
import { hashApiKey, isWellFormedApiKey, parseBearer } from '../shared/api-keys';
import type { AuthorizerContext } from '../shared/caller';
import { tableName } from '../shared/config';
import { documentClient } from '../shared/dynamodb-client';
import { cameThroughFrontDoor } from '../shared/front-door';
import { log } from '../shared/logger';
import { DynamoApiKeyRepository } from '../shared/repositories/api-key-repository';
import { TtlCache } from '../shared/ttl-cache';

const keys = new DynamoApiKeyRepository(documentClient(), tableName('apiKeys'));
const lookups = new TtlCache<AuthorizerContext>(AUTH_CACHE_TTL_MS, AUTH_CACHE_MAX_ENTRIES);

type Result = APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>;

/**
 * Resolves the caller and always allows the request through (README, Design in brief): an HTTP API cannot shape
 * its own 401/403 bodies, so the route's handler answers anonymous callers with the spec's 401.
 */
const resolved = (context: AuthorizerContext): Result => ({ isAuthorized: true, context });

async function lookUp(key: string): Promise<AuthorizerContext> {
  const keyHash = hashApiKey(key);
  const cached = lookups.get(keyHash);
  if (cached) return cached;
  const record = await keys.findByHash(keyHash);
  const context: AuthorizerContext = !record
    ? { authenticated: false, reason: 'unknown_key' }
    : record.revokedAt
      ? { authenticated: false, reason: 'revoked' }
      : { authenticated: true, accountId: record.accountId, keyId: record.keyId };
  lookups.set(keyHash, context);
  return context;
}

export async function handler(event: APIGatewayRequestAuthorizerEventV2): Promise<Result> {
  // Front door (-c frontDoor=true, lambda/shared/front-door.ts): a request that bypassed CloudFront is
  // anonymous whatever key it holds, and costs no key lookup.
  if (!cameThroughFrontDoor(event.headers)) return resolved({ authenticated: false, reason: 'not_via_front_door' });
  const bearer = parseBearer(event.headers?.authorization);
  if (bearer.kind !== 'key') return resolved({ authenticated: false, reason: bearer.kind });
  // Anything not shaped like our keys cannot be one: no table read for it.
  if (!isWellFormedApiKey(bearer.key)) return resolved({ authenticated: false, reason: 'unknown_key' });
  try {
    return resolved(await lookUp(bearer.key));
  } catch (error) {
    await log('warn', 'API key lookup failed', {
      operation: 'authorizer',
      requestId: event.requestContext.requestId,
      errorName: error instanceof Error ? error.name : typeof error,
    });
    return resolved({ authenticated: false, reason: 'unavailable' });
  }
}
