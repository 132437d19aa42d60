/**
 * Stands in for `@smithy/core/event-streams` in the Lambda bundles (lib/bundling.ts): no operation we call streams,
 * yet the codec would be parsed at every cold start (`npm run bench`, part 1). A streaming call fails loudly here.
 */
const unsupported = (): never => {
  throw new Error('event streams are not bundled: no DynamoDB operation uses them (lambda/runtime/bundle-shims/no-event-streams.ts)');
};

export class EventStreamSerde {
  serializeEventStream(): never {
    return unsupported();
  }

  deserializeEventStream(): never {
    return unsupported();
  }
}

export const eventStreamSerdeProvider = unsupported;

/** The Lambda client (the stage check's) resolves its event-stream settings when made; it never streams (Invoke only). */
export const resolveEventStreamSerdeConfig = <T>(config: T): T => config;
