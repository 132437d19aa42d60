/**
 * Stands in for `@smithy/core/event-streams` in the Lambda bundles (esbuild alias, lib/bundling.ts).
 * The SDK's protocol code loads it with a dynamic `import()` for operations that stream events;
 * DynamoDB has none, yet the import keeps the whole event-stream codec (and, through it, the
 * checksum module in full) in every bundle, for each cold start to parse for nothing (`npm run bench`,
 * part 1). Should an event-stream operation ever be called, it fails loudly here instead of
 * silently. A build fails if bundled code imports anything not exported here.
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
