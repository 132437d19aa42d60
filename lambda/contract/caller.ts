/**
 * The contract between the authorizer and every handler: the authorizer's `context`, which API
 * Gateway hands to the route's function as `requestContext.authorizer.lambda`. The authorizer never
 * denies (README, Design in brief); it says who the caller is, or why the caller is anonymous.
 */
export type AnonymousReason = 'missing' | 'malformed' | 'unknown_key' | 'revoked' | 'unavailable' | 'not_via_front_door';

export type AuthorizerContext =
  | { readonly authenticated: true; readonly accountId: string; readonly keyId: string }
  | { readonly authenticated: false; readonly reason: AnonymousReason };

export interface Caller {
  readonly accountId: string;
  readonly keyId: string;
}
