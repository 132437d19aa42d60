/**
 * The account API behind the local server: like API Gateway, a route of it runs no Lambda authorizer
 * but the native JWT authorizer (local/jwt-authorizer.ts), which refuses a bad token itself with
 * 401 `{"message":"Unauthorized"}` and otherwise hands the claims to the function as
 * `requestContext.authorizer.jwt`. Unknown paths under `/account` are its `$default` route. Locally the
 * three APIs share one origin; their paths do not overlap (`/v1/…`, `/messages`, `/account…`).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { RouteDefinition } from '#shared/routes';
import type { GatewayFunctions } from './functions';
import { gatewayAnswer, invoke, toGatewayResponse, type GatewayResponse } from './gateway';
import type { JwtAuthorizer } from './jwt-authorizer';

const unauthorized = (challenge: string): GatewayResponse => {
  const answer = gatewayAnswer(401);
  return { ...answer, headers: { ...answer.headers, 'www-authenticate': challenge } };
};

/** One account API request: the JWT check, then the route's function (or the account `$default` one). */
export async function dispatchAccount(
  functions: GatewayFunctions,
  event: APIGatewayProxyEventV2,
  route: RouteDefinition | undefined,
  authorize: JwtAuthorizer | undefined,
  timeoutMs?: number,
): Promise<GatewayResponse> {
  // Without an identity provider (a server started with no Cognito) the authorizer cannot work: the gateway answers 500 then.
  if (!authorize) return gatewayAnswer(500);
  const verdict = await authorize(event.headers.authorization);
  if (!verdict.ok) return unauthorized(verdict.challenge);
  event.requestContext = { ...event.requestContext, authorizer: { jwt: verdict.jwt } } as typeof event.requestContext;
  const name = route?.operationId ?? 'accountNotFound';
  const fn = route ? functions.operations.get(route.operationId) : functions.accountNotFound;
  if (!fn) return gatewayAnswer(500);
  try {
    return toGatewayResponse(await invoke(fn, name, event, timeoutMs));
  } catch {
    return gatewayAnswer(500);
  }
}
