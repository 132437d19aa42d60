import middy, { type MiddlewareObj } from '@middy/core';
import httpEventNormalizer from '@middy/http-event-normalizer';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { HttpResponse } from './responses';
import type { IdempotencyClaim } from '#data/repositories/write-once';
import { claimOf } from './idempotency-key';
import { addHeaders } from './middleware/add-headers';
import { jsonTextBody } from './middleware/json-text-body';
import { jsonBody } from './middleware/json-body';
import { uniqueMemberNames } from './middleware/unique-member-names';
import { limitBodySize } from './middleware/limit-body-size';
import { mapErrors } from './middleware/map-errors';
import type { InputSchemas, OperationSpec } from '#contract/operation-spec';
import { NoBody } from '#contract/schemas/no-input';
import { validInput, type ValidInput } from './validate-input';
import { debug } from '#runtime/logger';
import { ANSWER_MARGIN_MS, observed } from '#runtime/observe';
import { currentScope } from '#runtime/request-scope';
import type { Outcome } from '#shared/metrics';

/** What an operation receives: the caller and its validated input, typed by its spec's schemas. */
interface OperationRequest<S extends InputSchemas, C> extends ValidInput<S> {
  readonly caller: C;
  readonly event: APIGatewayProxyEventV2;
  /** Set when the request carries `Idempotency-Key` (operations whose spec is `idempotent`). */
  readonly idempotency: IdempotencyClaim | undefined;
}

/**
 * The only way to build an HTTP handler, so none can skip auth or error mapping: Middy in its canonical order, auth
 * first (`callerOf`: lambda/auth/require-caller.ts or require-account.ts), errors out through `mapErrors`; the
 * operation gets its validated input and `Idempotency-Key` claim typed by its spec.
 */
export function httpHandler<const Spec extends OperationSpec, C extends { readonly accountId: string }>(
  spec: Spec,
  callerOf: (event: APIGatewayProxyEventV2) => C,
  operation: (request: OperationRequest<Spec['input'], C>) => Promise<HttpResponse>,
): (event: APIGatewayProxyEventV2, context?: Context) => Promise<HttpResponse> {
  // The last line of defence behind the deadline of every AWS call (lambda/data/deadline-http-handler.ts): an
  // operation still running halfway through the answer's margin is answered 503 (Middy's TimeoutError, map-errors.ts).
  const handler = middy<APIGatewayProxyEventV2, HttpResponse>({ timeoutEarlyInMillis: ANSWER_MARGIN_MS / 2, ...PIPELINE_STEPS })
    .use(named('requireCaller', { before: ({ event }) => void callerOf(event) }))
    .use(httpHeaderNormalizer())
    .use(httpEventNormalizer());
  if (spec.input.body !== NoBody)
    handler
      .use(named('limitBodySize', limitBodySize()))
      .use(named('jsonTextBody', jsonTextBody()))
      .use(named('uniqueMemberNames', uniqueMemberNames()))
      .use(named('jsonBody', jsonBody()));
  handler
    .use(named('addHeaders', addHeaders(spec.headers ?? {})))
    .use(named('mapErrors', mapErrors()))
    .handler(async (event) => {
      const caller = callerOf(event);
      const input = validInput<Spec['input']>(spec.input, event);
      const idempotency = spec.idempotent ? claimOf(event, spec.operationId, caller, input.body) : undefined;
      return operation({ ...input, caller, event, idempotency });
    });
  // Outside Middy, so the request scope spans all of it; Middy types its event as the normalisers' output.
  const invoke = handler as unknown as (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResponse>;
  return observed(spec.operationId, invoke, (response) => {
    // No response: mapErrors itself failed. Every error answer is mapErrors', which hands its code over.
    const status = response?.statusCode ?? 500;
    const code = status >= 400 ? (currentScope()?.errorCode ?? 'internal_error') : undefined;
    // `statusCode`, not `status`: the line is also the metrics document, where `status` is PetsCreated's dimension.
    // No path: the access log has it, under the same apigw_request_id (docs/capacity.md counts each byte).
    return { outcome: outcomeOf(status), code, fields: { statusCode: status } };
  });
}

const outcomeOf = (status: number): Outcome => (status < 400 ? 'success' : status < 500 ? 'client_error' : 'server_error');

/** Names our middlewares' steps as Middy's own are named (`httpJsonBodyParserMiddlewareBefore`), for the DEBUG lines. */
function named<M extends MiddlewareObj<APIGatewayProxyEventV2, HttpResponse>>(name: string, middleware: M): M {
  for (const phase of ['before', 'after', 'onError'] as const) {
    const step = middleware[phase];
    if (step) Object.defineProperty(step, 'name', { value: `${name}${phase[0]?.toUpperCase() ?? ''}${phase.slice(1)}` });
  }
  return middleware;
}

/** DEBUG shows the request's path through the pipeline: each Middy step as it starts and ends. */
const PIPELINE_STEPS = {
  beforeMiddleware: (name: string) => debug('middleware start', () => ({ step: name })),
  afterMiddleware: (name: string) => debug('middleware end', () => ({ step: name })),
  beforeHandler: () => debug('operation start'),
  afterHandler: () => debug('operation end'),
};
