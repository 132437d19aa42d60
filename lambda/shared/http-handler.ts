import middy from '@middy/core';
import httpEventNormalizer from '@middy/http-event-normalizer';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Caller } from './caller';
import type { HttpResponse } from './http-response';
import { claimOf, type IdempotencyClaim } from './idempotency';
import { addHeaders } from './middleware/add-headers';
import { jsonTextBody } from './middleware/json-text-body';
import { limitBodySize } from './middleware/limit-body-size';
import { mapErrors } from './middleware/map-errors';
import { callerOf, requireCaller } from './middleware/require-caller';
import type { InputSchemas, OperationSpec } from './operation-spec';
import { NoBody } from './schemas/no-input';
import { validInput, type ValidInput } from './validate-input';

export type { InputSchemas, OperationSpec } from './operation-spec';

/** What an operation receives: the caller and its validated input, typed by its spec's schemas. */
export interface OperationRequest<S extends InputSchemas> extends ValidInput<S> {
  readonly caller: Caller;
  readonly event: APIGatewayProxyEventV2;
  /** Set when the request carries `Idempotency-Key` (operations whose spec is `idempotent`). */
  readonly idempotency: IdempotencyClaim | undefined;
}

/**
 * The only way to build an HTTP handler, so none can skip auth or error mapping. Middy does the HTTP
 * concerns, in its canonical order with auth first: caller check → header/event normalisation → body
 * size limit → media type and UTF-8 → JSON body parsing; errors leave through `mapErrors`. Then, in
 * this typed step, the input is validated and the `Idempotency-Key` claimed, and the operation gets
 * both typed by its spec — no untyped context in between.
 */
export function httpHandler<const Spec extends OperationSpec>(
  spec: Spec,
  operation: (request: OperationRequest<Spec['input']>) => Promise<HttpResponse>,
) {
  const handler = middy<APIGatewayProxyEventV2, HttpResponse>({ timeoutEarlyInMillis: 0 })
    .use(requireCaller())
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
      const caller = callerOf(event);
      const input = validInput<Spec['input']>(spec.input, event);
      const idempotency = spec.idempotent ? claimOf(event, spec.operationId, caller, input.body) : undefined;
      return operation({ ...input, caller, event, idempotency });
    });
}
