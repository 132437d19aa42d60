import middy from '@middy/core';
import httpEventNormalizer from '@middy/http-event-normalizer';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import type { Caller } from './caller';
import type { HttpResponse } from './http-response';
import type { IdempotencyClaim } from './idempotency';
import type { InputSchemas, OperationSpec } from './operation-spec';
import { addHeaders } from './middleware/add-headers';
import { idempotencyKey } from './middleware/idempotency-key';
import { jsonTextBody } from './middleware/json-text-body';
import { limitBodySize } from './middleware/limit-body-size';
import { mapErrors } from './middleware/map-errors';
import { requireCaller } from './middleware/require-caller';
import { validateInput } from './middleware/validate-input';

/** Lambda context as our middlewares leave it for the operation. */
export interface ApiContext extends Context {
  caller?: Caller;
  input?: { path: unknown; query: unknown; body: unknown };
  /** Set when a creating operation's request carries `Idempotency-Key`. */
  idempotency?: IdempotencyClaim;
}

type Parsed<S> = S extends z.core.$ZodType ? z.output<S> : undefined;

export type { InputSchemas, OperationSpec } from './operation-spec';

export interface OperationInput<S extends InputSchemas> {
  readonly caller: Caller;
  readonly path: Parsed<S['path']>;
  readonly query: Parsed<S['query']>;
  readonly body: Parsed<S['body']>;
  readonly event: APIGatewayProxyEventV2;
  /** Present when the request carries `Idempotency-Key` (operations whose spec is `idempotent`). */
  readonly idempotency?: IdempotencyClaim;
}

/**
 * The only way to build an HTTP handler, so none can skip auth or error mapping. Middleware order
 * (Middy's canonical one, auth first): caller check → header/event normalisation → body size limit →
 * media type and UTF-8 → JSON body parsing → zod validation → idempotency (writes) → operation; errors leave through
 * `mapErrors`.
 */
export function httpHandler<const Spec extends OperationSpec>(
  spec: Spec,
  operation: (input: OperationInput<Spec['input']>) => Promise<HttpResponse>,
) {
  type S = Spec['input'];
  const handler = middy<APIGatewayProxyEventV2, HttpResponse, Error, ApiContext>({ timeoutEarlyInMillis: 0 })
    .use(requireCaller())
    .use(httpHeaderNormalizer())
    .use(httpEventNormalizer());
  if (spec.input.body) handler.use(limitBodySize()).use(jsonTextBody()).use(httpJsonBodyParser({ disableContentTypeCheck: true }));
  handler.use(validateInput(spec.input));
  if (spec.idempotent) handler.use(idempotencyKey(spec.operationId));
  return handler
    .use(addHeaders(spec.headers ?? {}))
    .use(mapErrors(spec.operationId))
    .handler(async (event, context) => {
      const { caller, input, idempotency } = context;
      if (!caller || !input) throw new Error('middleware did not run');
      return operation({ caller, event, ...(input as Pick<OperationInput<S>, 'path' | 'query' | 'body'>), ...(idempotency ? { idempotency } : {}) });
    });
}
