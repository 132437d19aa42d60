import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ACCOUNT_TOKEN_AUDIENCE_ENV, ACCOUNT_TOKEN_ISSUER_ENV } from '#shared/accounts';
import { unauthorized } from '#contract/errors';

/** Who calls the account API: a signed-in user of this stage's user pool. */
export interface AccountCaller {
  /** The user's `sub`: the account id every key of the account carries. */
  readonly accountId: string;
  /** The user pool's name for the user (the `username` claim): what Cognito's admin calls take. */
  readonly username: string;
}

const UNAUTHORIZED_MESSAGE = 'a valid access token is required: sign in and send `Authorization: Bearer <access token>`';

/** `requestContext.authorizer.jwt.claims`, checked step by step: the event type does not promise it. */
function arrivingClaims(event: APIGatewayProxyEventV2): Record<string, unknown> | undefined {
  const context = event.requestContext;
  if (!('authorizer' in context)) return undefined;
  const { authorizer } = context;
  if (typeof authorizer !== 'object' || authorizer === null || !('jwt' in authorizer)) return undefined;
  const { jwt } = authorizer;
  if (typeof jwt !== 'object' || jwt === null || !('claims' in jwt)) return undefined;
  const { claims } = jwt;
  return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : undefined;
}

function setting(name: string): string {
  const value = process.env[name];
  // The stack (and the local server) always set it: without it no token can be checked, so nothing passes.
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** API Gateway passes claims as text (`"exp": "1767225600"`); a number is read the same way. */
const epochSeconds = (value: unknown): number => (typeof value === 'number' || typeof value === 'string' ? Number(value) : Number.NaN);

/**
 * The account API's caller check (httpHandler): the signed-in user, or the spec's 401. API Gateway's JWT authorizer
 * checked the token already; this checks the claims again (defense in depth) and what the gateway cannot: that it
 * is an access token (an ID token of the same client passes the gateway). Fails closed.
 */
export function accountOf(event: APIGatewayProxyEventV2, now: number = Date.now()): AccountCaller {
  const claims = arrivingClaims(event);
  if (!claims) throw unauthorized(UNAUTHORIZED_MESSAGE);
  const { sub, username, token_use: tokenUse, client_id: clientId, iss, exp } = claims;
  const valid =
    typeof sub === 'string' &&
    sub !== '' &&
    typeof username === 'string' &&
    username !== '' &&
    tokenUse === 'access' &&
    clientId === setting(ACCOUNT_TOKEN_AUDIENCE_ENV) &&
    iss === setting(ACCOUNT_TOKEN_ISSUER_ENV) &&
    epochSeconds(exp) * 1000 > now;
  if (!valid) throw unauthorized(UNAUTHORIZED_MESSAGE);
  return { accountId: sub, username };
}
