import middy from '@middy/core';
import httpEventNormalizer from '@middy/http-event-normalizer';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Caller } from '#contract/caller';
import type { HttpResponse } from './responses';
import type { IdempotencyClaim } from '#data/repositories/write-once';
import { claimOf } from './idempotency-key';
import { addHeaders } from './middleware/add-headers';
import { jsonTextBody } from './middleware/json-text-body';
import { limitBodySize } from './middleware/limit-body-size';
import { mapErrors } from './middleware/map-errors';
import { accountOf, requireAccount, type AccountCaller } from '#auth/require-account';
import { callerOf, requireCaller } from '#auth/require-caller';
import type { InputSchemas, OperationSpec } from '#contract/operation-spec';
import { NoBody } from '#contract/schemas/no-input';
import { validInput, type ValidInput } from './validate-input';

export type { InputSchemas, OperationSpec } from '#contract/operation-spec';

export type { AccountCaller } from '#auth/require-account';

/** What an operation receives: the caller and its validated input, typed by its spec's schemas. */
export interface OperationRequest<S extends InputSchemas, C extends Caller | AccountCaller = Caller> extends ValidInput<S> {
  /** An API key's caller, or for the account API (`caller: 'account'`) the signed-in user. */
  readonly caller: C;
  readonly event: APIGatewayProxyEventV2;
  /** Set when the request carries `Idempotency-Key` (operations whose spec is `idempotent`). */
  readonly idempotency: IdempotencyClaim | undefined;
}

/** The caller an operation gets, from its spec: the signed-in user for `caller: 'account'`, else the API key's caller. */
export type CallerOf<Spec extends OperationSpec> = Spec extends { readonly caller: 'account' } ? AccountCaller : Caller;

type Operation<Spec extends OperationSpec, C extends Caller | AccountCaller> = (
  request: OperationRequest<Spec['input'], C>,
) => Promise<HttpResponse>;

/**
 * The only way to build an HTTP handler, so none can skip auth or error mapping. Middy does the HTTP
 * concerns, in its canonical order with auth first: caller check → header/event normalisation → body
 * size limit → media type and UTF-8 → JSON body parsing; errors leave through `mapErrors`. Then, in
 * this typed step, the input is validated and the `Idempotency-Key` claimed, and the operation gets
 * both typed by its spec — no untyped context in between. The spec's `caller` picks the check: an API
 * key (the default) or, for the account API, a signed-in user's access token.
 */
export function httpHandler<const Spec extends OperationSpec>(spec: Spec, operation: Operation<Spec, CallerOf<Spec>>) {
  const forAccounts = spec.caller === 'account';
  const handler = middy<APIGatewayProxyEventV2, HttpResponse>({ timeoutEarlyInMillis: 0 })
    .use(forAccounts ? requireAccount() : requireCaller())
    .use(httpHeaderNormalizer())
    .use(httpEventNormalizer());
  if (spec.input.body !== NoBody)
    handler
      .use(limitBodySize())
      .use(jsonTextBody())
      .use(httpJsonBodyParser({ disableContentTypeCheck: true }));
  return handler
    .use(addHeaders(spec.headers ?? {}))
    .use(mapErrors(spec.operationId))
    .handler(async (event) => {
      // The check matches CallerOf<Spec> by construction; TypeScript cannot narrow a conditional type on a value.
      const caller = (forAccounts ? accountOf(event) : callerOf(event)) as CallerOf<Spec>;
      const input = validInput<Spec['input']>(spec.input, event);
      const idempotency = spec.idempotent ? claimOf(event, spec.operationId, caller, input.body) : undefined;
      return operation({ ...input, caller, event, idempotency });
    });
}
