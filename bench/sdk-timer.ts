/**
 * Measures the time a handler spends inside the AWS SDK (marshalling, signing, the HTTP round trip to
 * DynamoDB) by wrapping `send` of the shared clients the handlers use (lambda/data/dynamodb-client.ts
 * — one per process, so the handlers' calls go through the wrapper). What remains of a handler's time
 * is our own code: middleware, validation, serialisation.
 */
import { documentClient, dynamoDbClient } from '#data/dynamodb-client';

export interface SdkTimer {
  /** Milliseconds spent inside `send` since the last reset (outermost calls only). */
  elapsed(): number;
  reset(): void;
}

interface Sendable {
  send: (...args: never[]) => Promise<unknown>;
}

export function installSdkTimer(): SdkTimer {
  let total = 0;
  let depth = 0;
  const wrap = (client: Sendable): void => {
    const original = client.send.bind(client) as (...args: unknown[]) => Promise<unknown>;
    const timed = async (...args: unknown[]): Promise<unknown> => {
      const started = performance.now();
      depth++;
      try {
        return await original(...args);
      } finally {
        depth--;
        if (depth === 0) total += performance.now() - started;
      }
    };
    client.send = timed;
  };
  wrap(documentClient());
  wrap(dynamoDbClient());
  return {
    elapsed: () => total,
    reset: () => {
      total = 0;
    },
  };
}
