import middy from '@middy/core';
import httpEventNormalizer from '@middy/http-event-normalizer';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import type { Caller } from './caller';
import type { HttpResponse } from './http-response';
import type { InputSchemas, OperationSpec } from './operation-spec';
import { addHeaders } from './middleware/add-headers';
import type { IdempotentWrites } from './middleware/idempotent-writes';
import { limitBodySize } from './middleware/limit-body-size';
import { mapErrors } from './middleware/map-errors';
import { requireCaller } from './middleware/require-caller';
import { validateInput } from './middleware/validate-input';

/** Lambda context as our middlewares leave it for the operation. */
export interface ApiContext extends Context {
  caller?: Caller;
  input?: { path: unknown; query: unknown; body: unknown };
}

type Parsed<S> = S extends z.core.$ZodType ? z.output<S> : undefined;

export type { InputSchemas, OperationSpec } from './operation-spec';

export interface OperationInput<S extends InputSchemas> {
  readonly caller: Caller;
  readonly path: Parsed<S['path']>;
  readonly query: Parsed<S['query']>;
  readonly body: Parsed<S['body']>;
  readonly event: APIGatewayProxyEventV2;
}

/**
 * Idempotency (Powertools, JMESPath, its persistence layer: about a fifth of a bundle) is handed in
 * by the creating operations instead of being imported here, so read handlers and the not-found
 * function neither bundle nor load it. The type makes it required exactly when the spec says
 * `idempotent: true`, and the factory refuses to build such a handler without it.
 */
type IdempotencyArgument<Spec extends OperationSpec> = Spec extends { idempotent: true } ? [idempotentWrites: IdempotentWrites] : [];

/**
 * The only way to build an HTTP handler, so none can skip auth or error mapping. Middleware order
 * (Middy's canonical one, auth first): caller check → header/event normalisation → body size limit →
 * JSON body parsing → zod validation → idempotency (writes) → operation; errors leave through
 * `mapErrors`.
 */
export function httpHandler<const Spec extends OperationSpec>(
  spec: Spec,
  operation: (input: OperationInput<Spec['input']>) => Promise<HttpResponse>,
  ...idempotency: IdempotencyArgument<Spec>
) {
  type S = Spec['input'];
  const idempotentWrites = (idempotency as [IdempotentWrites?])[0];
  if (spec.idempotent && !idempotentWrites) throw new Error(`${spec.operationId} is idempotent: pass idempotentWrites to httpHandler`);
  const handler = middy<APIGatewayProxyEventV2, HttpResponse, Error, ApiContext>({ timeoutEarlyInMillis: 0 })
    .use(requireCaller())
    .use(httpHeaderNormalizer())
    .use(httpEventNormalizer());
  if (spec.input.body) handler.use(limitBodySize()).use(httpJsonBodyParser());
  handler.use(validateInput(spec.input));
  if (spec.idempotent && idempotentWrites) handler.use(idempotentWrites(spec.operationId));
  return handler
    .use(addHeaders(spec.headers ?? {}))
    .use(mapErrors(spec.operationId))
    .handler(async (event, context) => {
      const { caller, input } = context;
      if (!caller || !input) throw new Error('middleware did not run');
      return operation({ caller, event, ...(input as Pick<OperationInput<S>, 'path' | 'query' | 'body'>) });
    });
}
