import type { Context } from 'aws-lambda';
import type { Outcome } from '#shared/metrics';
import { debug, info, kept, write } from './logger';
import { metricsPublished, requestMetrics } from './metrics';
import { inScope, type RequestScope } from './request-scope';
import { invocationTrace, startSubsegment } from './tracing';

/** What a finished invocation says about itself, for its line and its trace. */
export interface Verdict {
  readonly outcome: Outcome;
  readonly code?: string | undefined;
  readonly fields?: Readonly<Record<string, unknown>>;
}

/** Kept from Lambda's time for the answer: mapping the error, the log and metrics lines, the return. */
export const ANSWER_MARGIN_MS = 500;

/** Locally many functions share a process: each its own first invocation. */
const started = new Set<string>();

interface ApiGatewayEvent {
  readonly requestContext?: { readonly requestId?: string };
}

/**
 * Runs each invocation in a request scope (every line carries its ids) and ends it with one line that is both log
 * and EMF metrics and, when sampled, the operation's X-Ray subsegment. A verdict of `undefined` writes no line.
 */
export function observed<E extends ApiGatewayEvent, R>(
  operation: string,
  run: (event: E, context: Context) => Promise<R>,
  verdict: (result: R | undefined, event: E) => Verdict | undefined,
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
        const said = verdict(result, event);
        const { outcome = 'success', code, fields } = said ?? {};
        if (said) {
          const latencyMs = performance.now() - scope.startedAt;
          const { _aws, ...values } = requestMetrics({ operation, outcome, code, latencyMs, coldStart, counts: scope.counts });
          // Raised to the configured level when that is higher: Lambda must not drop the metrics with the log.
          if (metricsPublished()) write(kept('info'), 'request', { ...fields, ...values, _aws });
          else info('request', { ...fields, ...values });
        }
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
