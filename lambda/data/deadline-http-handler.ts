import { NodeHttpHandler } from '@smithy/node-http-handler';
import { DeadlineReachedError } from '#contract/domain-errors';
import { currentScope } from '#runtime/request-scope';

/** An attempt with less time than this left could only time out: it is not started. */
const MIN_ATTEMPT_MS = 50;

type Handle = NodeHttpHandler['handle'];

/** Every attempt ends by its request's deadline (observe.ts), or is refused (a 503) rather than hit Lambda's timeout. */
export class DeadlineHttpHandler extends NodeHttpHandler {
  private readonly requestMs: number;

  constructor(
    /** Who is out of time, for the logs: `DynamoDB`. */
    private readonly dependency: string,
    timeouts: { readonly connectionMs: number; readonly requestMs: number },
  ) {
    // Agent *options*, not agents: the handler builds its keep-alive agent for the protocol in use only.
    const agent = { keepAlive: true, maxSockets: 50 };
    // Without throwOnRequestTimeout the handler only logs a warning and the request hangs on.
    super({
      connectionTimeout: timeouts.connectionMs,
      requestTimeout: timeouts.requestMs,
      throwOnRequestTimeout: true,
      httpsAgent: agent,
      httpAgent: agent,
    });
    this.requestMs = timeouts.requestMs;
  }

  override handle(...[request, options]: Parameters<Handle>): ReturnType<Handle> {
    const left = (currentScope()?.deadline ?? Infinity) - Date.now();
    if (left < MIN_ATTEMPT_MS) return Promise.reject(new DeadlineReachedError(this.dependency));
    return super.handle(request, { ...options, requestTimeout: Math.min(this.requestMs, left) });
  }
}
