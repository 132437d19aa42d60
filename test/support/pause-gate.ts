import { Agent, createServer, request as forward, type IncomingMessage } from 'node:http';
import { listenOnLoopback, type Listening } from './loopback-server';

/**
 * HTTP proxies in front of the local DynamoDB and Cognito that number every request they receive (every SDK
 * attempt), across all of them, and can pause at a chosen one: from that step on nothing is forwarded or
 * answered, as from a frozen database engine. On `resume` the held requests go through, as a thawed engine
 * still reads what was sent to it: a write whose client gave up is applied all the same.
 */
export interface PauseGate {
  /** Every request so far, by its target: `DynamoDB_20120810.PutItem`, `AWSCognitoIdentityProviderService.AdminDeleteUser`. */
  readonly steps: readonly string[];
  /** A proxy through this gate; its target may be given later (a server started after the functions' environment is set). */
  proxy(target?: string): Promise<GateProxy>;
  /** Resolves once `count` requests have arrived (held or not): an SDK's retry of a held attempt, say. */
  arrived(count: number): Promise<void>;
  /** Holds every request from step `step` (an index into `steps`) on. */
  pauseAt(step: number): void;
  /** Forwards the held requests and stops holding; resolves once their answers have come back. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

export interface GateProxy extends Listening {
  forwardTo(target: string): void;
}

const targetOf = (incoming: IncomingMessage): string => String(incoming.headers['x-amz-target'] ?? `${incoming.method} ${incoming.url}`);

export function pauseGate(): PauseGate {
  const steps: string[] = [];
  const agent = new Agent({ keepAlive: true });
  const proxies: Listening[] = [];
  let pausedFrom = Infinity;
  let held: (() => Promise<void>)[] = [];
  let waiting: { count: number; arrived: () => void }[] = [];

  return {
    steps,
    proxy: async (initialTarget) => {
      let target = initialTarget;
      const server = createServer((incoming, response) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const step = steps.push(targetOf(incoming)) - 1;
          for (const waiter of waiting.filter(({ count }) => count <= steps.length)) waiter.arrived();
          waiting = waiting.filter(({ count }) => count > steps.length);
          const send = (): Promise<void> =>
            new Promise((answered) => {
              if (!target) throw new Error('the gate proxy has no target yet');
              const { hostname, port } = new URL(target);
              const { method, url: path, headers } = incoming;
              const upstream = forward({ host: hostname, port, method, path, headers, agent }, (answer) => {
                response.writeHead(answer.statusCode ?? 502, answer.headers);
                // Read to its end even if the client has gone (no pipe, which would stall).
                answer.on('data', (chunk: Buffer) => response.write(chunk));
                answer.on('end', () => {
                  response.end();
                  answered();
                });
              });
              upstream.on('error', () => {
                response.destroy();
                answered();
              });
              upstream.end(Buffer.concat(chunks));
            });
          // The client may have given up while its request was held: its answer goes nowhere.
          response.on('error', () => undefined);
          if (step >= pausedFrom) held.push(send);
          else void send();
        });
      });
      const listening = await listenOnLoopback(server);
      proxies.push(listening);
      return { ...listening, forwardTo: (next) => void (target = next) };
    },
    arrived: (count) => (count <= steps.length ? Promise.resolve() : new Promise((arrived) => void waiting.push({ count, arrived }))),
    pauseAt: (step) => void (pausedFrom = step),
    resume: async () => {
      pausedFrom = Infinity;
      const sends = held;
      held = [];
      // In arrival order, each once the one before is answered, as one engine thread would take them.
      for (const send of sends) await send();
    },
    close: async () => {
      await Promise.all(proxies.map((proxy) => proxy.close()));
      agent.destroy();
    },
  };
}
