import { AsyncLocalStorage } from 'node:async_hooks';

/** An X-Ray trace and the subsegment new subsegments are nested under (lambda/runtime/tracing.ts). */
export interface TraceContext {
  readonly traceId: string;
  readonly parentId: string;
}

/** What one invocation's lines, metrics and traces carry; not module state: the local server runs invocations at once. */
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
  /** The code of the error answer, handed over by the error middleware (lambda/http/middleware/map-errors.ts). */
  errorCode?: string;
}

const storage = new AsyncLocalStorage<RequestScope>();

export const currentScope = (): RequestScope | undefined => storage.getStore();

export const inScope = <T>(scope: RequestScope, run: () => Promise<T>): Promise<T> => storage.run(scope, run);
