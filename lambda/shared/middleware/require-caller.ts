import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2WithLambdaAuthorizer } from 'aws-lambda';
import type { AnonymousReason, AuthorizerContext } from '../caller';
import { ApiError, serviceUnavailable } from '../errors';
import type { ApiContext } from '../http-handler';

type Event = APIGatewayProxyEventV2WithLambdaAuthorizer<AuthorizerContext | undefined>;

const UNAUTHORIZED_MESSAGES: Record<Exclude<AnonymousReason, 'unavailable'>, string> = {
  missing: 'missing API key: send the header `Authorization: Bearer <API_KEY>`',
  malformed: 'the Authorization header must have the form `Bearer <API_KEY>`',
  unknown_key: 'the API key is not valid',
  revoked: 'the API key has been revoked',
};

/**
 * First middleware of every handler: refuses anonymous callers with the spec's 401 before the body is
 * read, parsed or validated. Fails closed when no authorizer context is present at all.
 */
export const requireCaller = (): MiddlewareObj<Event, unknown, Error, ApiContext> => ({
  before: (request) => {
    const auth = request.event.requestContext.authorizer?.lambda;
    // Tolerate a stringified boolean: a gateway that serialises context values must not lock everyone out.
    if (auth?.authenticated === true || (auth?.authenticated as unknown) === 'true') {
      const { accountId, keyId } = auth as { accountId: string; keyId: string };
      request.context.caller = { accountId, keyId };
      return;
    }
    const reason = auth?.reason ?? 'missing';
    if (reason === 'unavailable') {
      throw serviceUnavailable();
    }
    throw new ApiError(401, 'unauthorized', UNAUTHORIZED_MESSAGES[reason] ?? UNAUTHORIZED_MESSAGES.missing, {
      'www-authenticate': 'Bearer realm="petstore"',
    });
  },
});
