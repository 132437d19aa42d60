import { Agent, createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback-server';

/** The errors DynamoDB throttles with: provisioned capacity, on-demand and key-range limits, the account's request rate. */
export type ThrottlingError = 'ProvisionedThroughputExceededException' | 'ThrottlingException' | 'RequestLimitExceeded';

/** DynamoDB's own `__type` and message for each (the SDK reads the name after `#`). */
const ANSWERS: Record<ThrottlingError, { type: string; message: string }> = {
  ProvisionedThroughputExceededException: {
    type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
    message: 'The level of configured provisioned throughput for the table was exceeded.',
  },
  ThrottlingException: {
    type: 'com.amazon.coral.availability#ThrottlingException',
    message: 'Throughput exceeds the current capacity of your table or index. Please try again shortly.',
  },
  RequestLimitExceeded: {
    type: 'com.amazonaws.dynamodb.v20120810#RequestLimitExceeded',
    message: 'Throughput exceeds the current throughput limit for your account.',
  },
};

/** One HTTP request the proxy received: one attempt of one SDK call. */
export interface Attempt {
  /** The DynamoDB operation (`PutItem`). */
  readonly operation: string;
  /** The SDK's id of the call, the same on each of its retries. */
  readonly call: string;
  readonly throttled: boolean;
}

/**
 * An HTTP proxy in front of the local DynamoDB that answers throttling errors on demand, exactly as
 * DynamoDB does (400, the error's `__type`, no Retry-After), and records every attempt it sees.
 */
export interface ThrottlingProxy {
  readonly endpoint: string;
  /** Refuse every request with `error` from now on; `undefined` forwards them again. */
  throttle(error: ThrottlingError | undefined): void;
  /**
   * Refuse only the next `count` requests for `operation` (`PutItem`), then forward again; other
   * operations pass meanwhile (say, a shard query still retrying for an earlier request).
   */
  throttleNext(count: number, error: ThrottlingError, operation: string): void;
  /** Every attempt since the last `clear()`, in arrival order. */
  readonly attempts: readonly Attempt[];
  clear(): void;
  close(): Promise<void>;
}

const headerValue = (request: IncomingMessage, name: string): string => {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
};

export async function startThrottlingProxy(target: string): Promise<ThrottlingProxy> {
  const { hostname, port } = new URL(target);
  const agent = new Agent({ keepAlive: true });
  let error: ThrottlingError | undefined;
  let remaining = Infinity;
  let only: string | undefined;
  const attempts: Attempt[] = [];

  const refuse = (response: ServerResponse, refusal: ThrottlingError): void => {
    const { type, message } = ANSWERS[refusal];
    const body = JSON.stringify({ __type: type, message });
    response.writeHead(400, {
      'content-type': 'application/x-amz-json-1.0',
      'content-length': Buffer.byteLength(body),
      'x-amzn-requestid': `throttled-${attempts.length}`,
    });
    response.end(body);
  };

  const pass = (incoming: IncomingMessage, response: ServerResponse): void => {
    const upstream = forward(
      { host: hostname, port, method: incoming.method, path: incoming.url, headers: incoming.headers, agent },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    incoming.pipe(upstream);
  };

  const server: Server = createServer((incoming, response) => {
    const operation = headerValue(incoming, 'x-amz-target').replace(/^DynamoDB_\d+\./, '');
    const refusal = error !== undefined && remaining > 0 && (only === undefined || only === operation) ? error : undefined;
    if (refusal) remaining -= 1;
    if (remaining <= 0) error = undefined;
    attempts.push({
      operation,
      call: headerValue(incoming, 'amz-sdk-invocation-id'),
      throttled: refusal !== undefined,
    });
    if (!refusal) {
      pass(incoming, response);
      return;
    }
    // Read the request to its end first, as DynamoDB would, so the connection stays usable.
    incoming.resume();
    incoming.on('end', () => refuse(response, refusal));
  });
  server.keepAliveTimeout = 60_000;
  const listening = await listenOnLoopback(server);

  return {
    endpoint: listening.origin,
    throttle: (next) => {
      error = next;
      remaining = Infinity;
      only = undefined;
    },
    throttleNext: (count, next, operation) => {
      error = next;
      remaining = count;
      only = operation;
    },
    attempts,
    clear: () => void attempts.splice(0),
    close: async () => {
      agent.destroy();
      await listening.close();
    },
  };
}
