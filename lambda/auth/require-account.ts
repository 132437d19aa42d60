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

/** `requestContext.authorizer.jwt.claims`, if there: the event type does not promise it. */
function arrivingClaims(event: APIGatewayProxyEventV2): Record<string, unknown> | undefined {
  type Arriving = { authorizer?: { jwt?: { claims?: unknown } | null } | null };
  const claims = (event.requestContext as Arriving).authorizer?.jwt?.claims;
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
 * The signed-in user, or the spec's 401. Checks the claims again behind API Gateway's JWT authorizer (defense in
 * depth), and what it cannot: that this is an access token (an ID token of the same client passes it). Fails closed.
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
