import type { Context } from 'aws-lambda';
import type { Outcome } from '#shared/metrics';
import { debug, info } from './logger';
import { emitRequestMetrics } from './metrics';
import { inScope, type RequestScope } from './request-scope';
import { invocationTrace, startSubsegment } from './tracing';

/** What a finished invocation says about itself, for its metrics, its INFO line and its trace. */
export interface Verdict {
  readonly outcome: Outcome;
  readonly code?: string | undefined;
  /** Fields for the request's INFO line (status, route …). */
  readonly fields?: Readonly<Record<string, unknown>>;
}

/** Kept from Lambda's time for the answer: mapping the error, the log and metrics lines, the return. */
export const ANSWER_MARGIN_MS = 500;

/** One process is one function instance in Lambda; locally many functions share a process, so each its own first. */
const started = new Set<string>();

interface ApiGatewayEvent {
  readonly requestContext?: { readonly requestId?: string };
}

/**
 * Wraps a function once (the handler factory, the authorizer): its invocations run in a request scope, so every
 * line of theirs carries the request ids; each ends with one EMF line (lambda/runtime/metrics.ts), one INFO line
 * and, when sampled, the operation's X-Ray subsegment annotated with the ids a client or a log line gives.
 */
export function observed<E extends ApiGatewayEvent, R>(
  operation: string,
  run: (event: E, context: Context) => Promise<R>,
  verdict: (result: R | undefined, scope: RequestScope, event: E) => Verdict,
): (event: E, context?: Context) => Promise<R> {
  // `context` optional: the authorizer is also invoked bare (in tests) and needs none of its own.
  return (event, context) => {
    const awsRequestId = context?.awsRequestId ?? 'none';
    const coldStart = !started.has(operation);
    started.add(operation);
    const apigwRequestId = event.requestContext?.requestId;
    const invocation = invocationTrace();
    const subsegment = invocation ? startSubsegment(invocation, `## ${operation}`) : undefined;
    const scope: RequestScope = {
      operation,
      awsRequestId,
      apigwRequestId,
      coldStart,
      startedAt: performance.now(),
      // Without a context, or a partial one (handlers invoked bare, in tests): no deadline.
      deadline: Date.now() + ((context as Partial<Context> | undefined)?.getRemainingTimeInMillis?.() ?? Infinity) - ANSWER_MARGIN_MS,
      trace: invocation && subsegment ? { traceId: invocation.traceId, parentId: subsegment.id } : undefined,
      counts: [],
    };
    return inScope(scope, async () => {
      debug('request received');
      let result: R | undefined;
      try {
        result = await run(event, context as Context);
        return result;
      } finally {
        // Also when `run` throws (the authorizer's own failure, or a bug past mapErrors): Lambda then reports the error.
        const { outcome, code, fields } = verdict(result, scope, event);
        const latencyMs = performance.now() - scope.startedAt;
        const ids = { function_request_id: awsRequestId, ...(apigwRequestId ? { apigw_request_id: apigwRequestId } : {}) };
        emitRequestMetrics({ operation, outcome, code, latencyMs, coldStart, counts: scope.counts, properties: ids });
        info('request', { ...fields, outcome, ...(code ? { code } : {}), latencyMs: Math.round(latencyMs * 100) / 100 });
        subsegment?.end({
          annotations: {
            operation,
            outcome,
            coldStart,
            ...(code ? { code } : {}),
            ...(apigwRequestId ? { apigwRequestId } : {}),
            awsRequestId,
          },
          ...(outcome === 'server_error' ? { fault: true } : outcome === 'client_error' ? { error: true } : {}),
        });
      }
    });
  };
}
