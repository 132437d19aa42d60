import { AsyncLocalStorage } from 'node:async_hooks';

/** An X-Ray trace and the subsegment new subsegments are nested under (lambda/runtime/tracing.ts). */
export interface TraceContext {
  readonly traceId: string;
  readonly parentId: string;
}

/**
 * What every log line, metric and trace of one invocation carries. Held in an AsyncLocalStorage rather
 * than in module state: the local server runs many invocations of one module at once, and the repository
 * and SDK-call lines deep in the data layer must still name their request without being handed it.
 */
export interface RequestScope {
  /** shared/routes.ts operationId, or `authorizer`. */
  readonly operation: string;
  /** Lambda's id of this invocation (`function_request_id` in the lines, the REPORT line's RequestId). */
  readonly awsRequestId: string;
  /** API Gateway's id of the request: the `apigw-requestid` header the client sees. */
  readonly apigwRequestId: string | undefined;
  readonly coldStart: boolean;
  readonly startedAt: number;
  /** Epoch ms by which every call to a dependency must end, so the answer still fits in Lambda's time (observe.ts). */
  readonly deadline: number;
  /** The X-Ray trace and the operation's subsegment, when the invocation is sampled. */
  readonly trace: TraceContext | undefined;
  /** Business counts the operation reported, published with the request's metrics. */
  readonly counts: { name: string; dimensions: Readonly<Record<string, string>>; value: number }[];
}

const storage = new AsyncLocalStorage<RequestScope>();

export const currentScope = (): RequestScope | undefined => storage.getStore();

export const inScope = <T>(scope: RequestScope, run: () => Promise<T>): Promise<T> => storage.run(scope, run);
