import { AsyncLocalStorage } from 'node:async_hooks';

/** An X-Ray trace and the subsegment new subsegments are nested under (lambda/runtime/tracing.ts). */
export interface TraceContext {
  readonly traceId: string;
  readonly parentId: string;
}

/**
 * What every log line, metric and trace of one invocation carries: in an AsyncLocalStorage, not module state, as the
 * local server runs invocations of one module at once and the data layer's lines must still name their request.
 */
export interface RequestScope {
  /** shared/routes.ts operationId, or `authorizer`. */
  readonly operation: string;
  readonly awsRequestId: string;
  /** The `apigw-requestid` header the client sees. */
  readonly apigwRequestId: string | undefined;
  readonly coldStart: boolean;
  readonly startedAt: number;
  /** Epoch ms by which every call to a dependency must end, so the answer still fits in Lambda's time (observe.ts). */
  readonly deadline: number;
  readonly trace: TraceContext | undefined;
  readonly counts: { name: string; dimensions: Readonly<Record<string, string>>; value: number }[];
}

const storage = new AsyncLocalStorage<RequestScope>();

export const currentScope = (): RequestScope | undefined => storage.getStore();

export const inScope = <T>(scope: RequestScope, run: () => Promise<T>): Promise<T> => storage.run(scope, run);
