import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { AnonymousReason, Caller } from '#contract/caller';
import { serviceUnavailable, unauthorized } from '#contract/errors';

const UNAUTHORIZED_MESSAGES: Record<Exclude<AnonymousReason, 'unavailable'>, string> = {
  missing: 'missing API key: send the header `Authorization: Bearer <API_KEY>`',
  malformed: 'the Authorization header must have the form `Bearer <API_KEY>`',
  unknown_key: 'the API key is not valid',
  revoked: 'the API key has been revoked',
  // The stage's front door (CloudFront) is the only way in; 401 because every operation documents it.
  not_via_front_door: "this address does not serve the API: call it at the stage's base URL",
};

/** The authorizer's context as it may arrive: absent, or with values stringified by the gateway. */
interface ArrivingContext {
  readonly authenticated?: unknown;
  readonly accountId?: unknown;
  readonly keyId?: unknown;
  readonly reason?: unknown;
}

/** `requestContext.authorizer.lambda`, checked step by step: the event type does not promise it. */
function arrivingContext(event: APIGatewayProxyEventV2): ArrivingContext | undefined {
  const context = event.requestContext;
  if (!('authorizer' in context)) return undefined;
  const { authorizer } = context;
  if (typeof authorizer !== 'object' || authorizer === null || !('lambda' in authorizer)) return undefined;
  const { lambda } = authorizer;
  return typeof lambda === 'object' && lambda !== null ? lambda : undefined;
}

const isUnauthorizedReason = (value: unknown): value is keyof typeof UNAUTHORIZED_MESSAGES =>
  typeof value === 'string' && Object.hasOwn(UNAUTHORIZED_MESSAGES, value);

/**
 * The pets and messages APIs' caller check (httpHandler): the caller the authorizer resolved, or the spec's 401
 * (503 when the key store was out of reach). Fails closed: no context, or one without its ids, is a 401.
 */
export function callerOf(event: APIGatewayProxyEventV2): Caller {
  const auth = arrivingContext(event);
  const { accountId, keyId } = auth ?? {};
  if ((auth?.authenticated === true || auth?.authenticated === 'true') && typeof accountId === 'string' && typeof keyId === 'string') {
    return { accountId, keyId };
  }
  if (auth?.reason === 'unavailable') throw serviceUnavailable();
  const message = isUnauthorizedReason(auth?.reason) ? UNAUTHORIZED_MESSAGES[auth.reason] : UNAUTHORIZED_MESSAGES.missing;
  throw unauthorized(message);
}
