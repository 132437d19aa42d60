import type { Socket } from 'node:dgram';
import { currentScope, type TraceContext } from './request-scope';
import { debug } from './logger';

/**
 * X-Ray subsegments sent straight to Lambda's daemon over UDP, without the SDK or Powertools Tracer (their cold-start
 * cost: `npm run bench`): one per operation and one per AWS call, for sampled invocations unless switched off.
 */
const TRACE_ENABLED_ENV = 'POWERTOOLS_TRACE_ENABLED';
const DEFAULT_DAEMON = '127.0.0.1:2000';
const HEADER = '{"format":"json","version":1}\n';

/** The invocation's trace, from the header Lambda sets per invocation; undefined when not sampled or switched off. */
export function invocationTrace(): TraceContext | undefined {
  if (process.env[TRACE_ENABLED_ENV] === 'false' || process.env.AWS_LAMBDA_FUNCTION_NAME === undefined) return undefined;
  const header = process.env._X_AMZN_TRACE_ID;
  if (!header) return undefined;
  const parts = Object.fromEntries(header.split(';').map((part) => part.split('=') as [string, string]));
  if (parts.Sampled !== '1' || !parts.Root || !parts.Parent) return undefined;
  return { traceId: parts.Root, parentId: parts.Parent };
}

let socket: Socket | undefined;
let daemon: { host: string; port: number } | undefined;

function daemonAddress(): { host: string; port: number } {
  // `host:port`, or `tcp:host:port udp:host:port`: the segments go over UDP.
  const configured = process.env.AWS_XRAY_DAEMON_ADDRESS ?? DEFAULT_DAEMON;
  const udp =
    configured
      .split(/\s+/)
      .find((part) => part.startsWith('udp:'))
      ?.slice(4) ?? configured;
  const [host = '127.0.0.1', port = '2000'] = udp.split(':');
  return { host, port: Number(port) };
}

function send(document: Record<string, unknown>): void {
  daemon ??= daemonAddress();
  // Loaded on the first sampled call only: an untraced function never pays for it.
  socket ??= process.getBuiltinModule('node:dgram').createSocket('udp4').unref();
  socket.send(`${HEADER}${JSON.stringify(document)}`, daemon.port, daemon.host, () => undefined);
}

// node:crypto only when a trace is sent: notFound and preflight load it nowhere else.
const newId = (): string => process.getBuiltinModule('node:crypto').randomBytes(8).toString('hex');

export interface OpenSubsegment {
  readonly id: string;
  end(fields?: Record<string, unknown>): void;
}

/** Opens a subsegment under `parent`; it is sent when ended. */
export function startSubsegment(parent: TraceContext, name: string, fields: Record<string, unknown> = {}): OpenSubsegment {
  const id = newId();
  const startTime = Date.now() / 1000;
  return {
    id,
    end: (more = {}) => {
      send({
        type: 'subsegment',
        id,
        trace_id: parent.traceId,
        parent_id: parent.parentId,
        name,
        start_time: startTime,
        end_time: Date.now() / 1000,
        ...fields,
        ...more,
      });
    },
  };
}

interface SdkCallError {
  name?: string;
  message?: string;
  $fault?: 'client' | 'server';
  $metadata?: { httpStatusCode?: number; requestId?: string; attempts?: number };
}

interface AwsClient {
  readonly middlewareStack: {
    add(
      middleware: (
        next: (args: { input: object }) => Promise<{ output: object }>,
        context: { commandName?: string; clientName?: string },
      ) => (args: { input: object }) => Promise<{ output: object }>,
      options: { step: 'initialize'; name: string },
    ): void;
  };
}

/** Every call of an SDK client as a subsegment of its request's trace (`aws` fields: the service map) and a DEBUG line. */
export function observeAwsClient<C extends AwsClient>(client: C, service: 'DynamoDB' | 'CognitoIdentityProvider'): C {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const started = performance.now();
      const operation = (context.commandName ?? 'unknown').replace(/Command$/, '');
      const table = (args.input as { TableName?: unknown }).TableName;
      const scope = currentScope();
      const trace = scope?.trace;
      const subsegment = trace ? startSubsegment(trace, service, { namespace: 'aws' }) : undefined;
      const finish = (metadata: SdkCallError['$metadata'], error?: SdkCallError): void => {
        const status = metadata?.httpStatusCode;
        debug('aws call', () => ({
          awsService: service,
          awsOperation: operation,
          ...(typeof table === 'string' ? { table } : {}),
          ms: Math.round((performance.now() - started) * 100) / 100,
          attempts: metadata?.attempts,
          ...(error ? { errorName: error.name } : {}),
        }));
        subsegment?.end({
          aws: {
            operation,
            region: process.env.AWS_REGION,
            request_id: metadata?.requestId,
            retries: Math.max((metadata?.attempts ?? 1) - 1, 0),
            ...(typeof table === 'string' ? { table_name: table } : {}),
          },
          ...(status === undefined ? {} : { http: { response: { status } } }),
          ...(error
            ? {
                [error.$fault === 'server' || status === undefined ? 'fault' : 'error']: true,
                ...(status === 429 || /Throttl|ProvisionedThroughputExceeded/.test(error.name ?? '') ? { throttle: true } : {}),
                cause: { exceptions: [{ id: newId(), type: error.name, message: error.message }] },
              }
            : {}),
        });
      };
      try {
        const result = await next(args);
        finish((result.output as { $metadata?: SdkCallError['$metadata'] }).$metadata);
        return result;
      } catch (error) {
        const shaped = (typeof error === 'object' && error !== null ? error : {}) as SdkCallError;
        finish(shaped.$metadata, shaped);
        throw error;
      }
    },
    { step: 'initialize', name: 'petstoreObservability' },
  );
  return client;
}
