/**
 * API Gateway's native JWT authorizer, as the account API uses it, emulated for the local server:
 * the token from `Authorization` (with or without `Bearer `), its RS256 signature against the
 * issuer's JWKS (here cognito-local's), then its claims — `iss` exactly the configured issuer, `aud`
 * or, when there is no `aud`, `client_id` one of the configured audiences, `exp` in the future, `nbf`
 * and `iat` not. Like the gateway it does not look at `token_use` (the handler factory does). A refused
 * token gets the gateway's own answer: 401 `{"message":"Unauthorized"}` with a `WWW-Authenticate`
 * challenge. jose (panva/jose) does the JOSE work; only the gateway's rules are written here.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';

export interface JwtAuthorizerSettings {
  readonly issuer: string;
  readonly audience: readonly string[];
  readonly jwksUrl: string;
}

/** What the gateway passes on to the function as `requestContext.authorizer.jwt`: every claim as text. */
export interface JwtAuthorization {
  readonly claims: Readonly<Record<string, string>>;
  readonly scopes: null;
}

export type JwtVerdict = { readonly ok: true; readonly jwt: JwtAuthorization } | { readonly ok: false; readonly challenge: string };

export type JwtAuthorizer = (authorization: string | undefined, now?: Date) => Promise<JwtVerdict>;

/**
 * The gateway's challenge: AWS documents `Bearer scope="" error="invalid_token" error_description="…"`
 * (e.g. "the token does not have a valid audience"); the other descriptions here are this emulation's.
 */
const refused = (description: string): JwtVerdict => ({
  ok: false,
  challenge: `Bearer scope="" error="invalid_token" error_description="${description}"`,
});

/** API Gateway hands claims to the function as strings: numbers and booleans as text, lists as `[a b]`. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return `[${value.map(asText).join(' ')}]`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function jwtAuthorizer(settings: JwtAuthorizerSettings): JwtAuthorizer {
  const keys = createRemoteJWKSet(new URL(settings.jwksUrl));
  return async (authorization, now = new Date()) => {
    if (authorization === undefined || authorization.trim() === '') return { ok: false, challenge: 'Bearer' };
    const token = authorization.replace(/^bearer /i, '').trim();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: settings.issuer,
        algorithms: ['RS256'],
        currentDate: now,
        clockTolerance: 0,
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) return refused('the token has expired');
      if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'iss')
        return refused('the token does not have a valid issuer');
      if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'nbf') return refused('the token is not valid yet');
      return refused('the token is not valid');
    }
    // The gateway reads `client_id` only when the token has no `aud`.
    const audiences = payload.aud === undefined ? [payload.client_id] : [payload.aud].flat();
    if (!audiences.some((audience) => typeof audience === 'string' && settings.audience.includes(audience))) {
      return refused('the token does not have a valid audience');
    }
    if (typeof payload.iat === 'number' && payload.iat * 1000 > now.getTime()) return refused('the token was issued in the future');
    const claims = Object.fromEntries(Object.entries(payload).map(([name, value]) => [name, asText(value)]));
    return { ok: true, jwt: { claims, scopes: null } };
  };
}
