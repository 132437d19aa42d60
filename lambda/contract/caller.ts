/** The authorizer's `context` (`requestContext.authorizer.lambda`): who the caller is, or why anonymous. */
export type AnonymousReason = 'missing' | 'malformed' | 'unknown_key' | 'revoked' | 'unavailable' | 'not_via_front_door';

export type AuthorizerContext =
  | { readonly authenticated: true; readonly accountId: string; readonly keyId: string }
  | { readonly authenticated: false; readonly reason: AnonymousReason };

export interface Caller {
  readonly accountId: string;
  readonly keyId: string;
}
