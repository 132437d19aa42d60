/**
 * API Gateway's native JWT authorizer, as the account API uses it: jose checks the RS256 signature against the
 * issuer's JWKS; the gateway's rules are here (`aud`, else `client_id`; no look at `token_use`; its challenges).
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { JwtAuthorizer, JwtVerdict } from '#shared/gateway-events';

export interface JwtAuthorizerSettings {
  readonly issuer: string;
  readonly audience: readonly string[];
  readonly jwksUrl: string;
}

/** The challenge AWS documents; only the audience's description is AWS's own, the others this emulation's. */
const refused = (description: string): JwtVerdict => ({
  ok: false,
  challenge: `Bearer scope="" error="invalid_token" error_description="${description}"`,
});

/** Lists as `[a b]`, as API Gateway passes them. */
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
    const audiences = payload.aud === undefined ? [payload.client_id] : [payload.aud].flat();
    if (!audiences.some((audience) => typeof audience === 'string' && settings.audience.includes(audience))) {
      return refused('the token does not have a valid audience');
    }
    if (typeof payload.iat === 'number' && payload.iat * 1000 > now.getTime()) return refused('the token was issued in the future');
    const claims = Object.fromEntries(Object.entries(payload).map(([name, value]) => [name, asText(value)]));
    return { ok: true, jwt: { claims, scopes: null } };
  };
}
