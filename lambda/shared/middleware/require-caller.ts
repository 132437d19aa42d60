import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyEventV2WithLambdaAuthorizer } from 'aws-lambda';
import type { AnonymousReason, AuthorizerContext, Caller } from '../caller';
import { ApiError, serviceUnavailable } from '../errors';

type AuthorizedEvent = APIGatewayProxyEventV2WithLambdaAuthorizer<AuthorizerContext | undefined>;

const UNAUTHORIZED_MESSAGES: Record<Exclude<AnonymousReason, 'unavailable'>, string> = {
  missing: 'missing API key: send the header `Authorization: Bearer <API_KEY>`',
  malformed: 'the Authorization header must have the form `Bearer <API_KEY>`',
  unknown_key: 'the API key is not valid',
  revoked: 'the API key has been revoked',
};

/**
 * The caller the authorizer resolved, or the spec's 401 (503 when the key store was out of reach).
 * Fails closed when no authorizer context is present at all.
 */
export function callerOf(event: APIGatewayProxyEventV2): Caller {
  const auth = (event as AuthorizedEvent).requestContext.authorizer?.lambda;
  // Tolerate a stringified boolean: a gateway that serialises context values must not lock everyone out.
  if (auth?.authenticated === true || (auth?.authenticated as unknown) === 'true') {
    const { accountId, keyId } = auth as { accountId: string; keyId: string };
    return { accountId, keyId };
  }
  const reason = auth?.reason ?? 'missing';
  if (reason === 'unavailable') throw serviceUnavailable();
  throw new ApiError(401, 'unauthorized', UNAUTHORIZED_MESSAGES[reason] ?? UNAUTHORIZED_MESSAGES.missing, {
    'www-authenticate': 'Bearer realm="petstore"',
  });
}

/**
 * First middleware of every handler: refuses anonymous callers before the body is read, parsed or
 * validated. The operation then gets the caller typed from `callerOf` itself, not through context.
 */
export const requireCaller = (): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: ({ event }) => {
    callerOf(event);
  },
});
