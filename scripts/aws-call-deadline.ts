/**
 * Every AWS call of an operator command ends: connect and request timeouts on each attempt, and a deadline on the
 * whole call (credentials, attempts and retries), so a proxy, VPC endpoint or firewall that accepts a connection and
 * never answers fails the command with the endpoint named and what to check, instead of holding it for ever.
 */
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { HandlerExecutionContext, MiddlewareStack } from '@smithy/types';

const CONNECT_TIMEOUT_MS = 5_000;
/** The longest silence on an open connection; a slow answer that keeps sending is not cut. */
const REQUEST_TIMEOUT_MS = 10_000;
/** What a whole call may take, tried again included: the command then fails well within 30 s of its call. */
export const AWS_CALL_DEADLINE_MS = 25_000;

/** PETSTORE_AWS_CALL_DEADLINE_MS shortens the deadline (tests); anything else keeps AWS_CALL_DEADLINE_MS. */
const deadlineMs = (): number => {
  const given = Number(process.env.PETSTORE_AWS_CALL_DEADLINE_MS);
  return Number.isFinite(given) && given > 0 ? given : AWS_CALL_DEADLINE_MS;
};

/** A call that never reached an answer: the endpoint, and where the operator looks. */
export class EndpointUnreachableError extends Error {
  override readonly name = 'EndpointUnreachable';
}

/** The request handler of an operator command's clients. */
export const operatorRequestHandler = (): NodeHttpHandler =>
  new NodeHttpHandler({ connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, throwOnRequestTimeout: true });

const ENDPOINT = Symbol('endpoint');
type Context = HandlerExecutionContext & { [ENDPOINT]?: string };

const callOf = (context: Context) =>
  `${(context.clientName ?? 'AWS').replace(/Client$/, '')} ${(context.commandName ?? 'call').replace(/Command$/, '')}`;

const whatToCheck = (region: string) =>
  `check a proxy (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), the VPC endpoint of that service if the network uses one, ` +
  `a firewall between here and AWS, and that ${region} is the Region you mean (--region)`;

/** Node's network failures, said in words; undefined for an answer AWS gave. */
function networkFailure(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  if (code === 'ECONNREFUSED') return 'refused the connection';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'has no address (DNS)';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'closed the connection without an answer';
  if (name === 'TimeoutError' || code === 'ETIMEDOUT') return 'did not answer in time';
  return undefined;
}

type AnyStack = Pick<MiddlewareStack<object, object>, 'add'>;

/**
 * The client with the deadline and the endpoint-naming failures; its config should carry operatorRequestHandler().
 * `region` is the one the command targets, for the message.
 */
export function withCallDeadline<C extends { middlewareStack: AnyStack }>(client: C, region: string): C {
  client.middlewareStack.add(
    (next, context: Context) => (args) => {
      const ms = deadlineMs();
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const where = context[ENDPOINT]
            ? `${context[ENDPOINT]} did not answer`
            : 'no endpoint was reached (the credentials were still being found)';
          reject(new EndpointUnreachableError(`${callOf(context)}: ${where} within ${ms / 1000} s; ${whatToCheck(region)}`));
        }, ms);
      });
      return Promise.race([next(args), expired]).finally(() => clearTimeout(timer));
    },
    { step: 'initialize', name: 'operatorCallDeadline' },
  );
  client.middlewareStack.add(
    (next, context: Context) => async (args) => {
      const { protocol, hostname, port } = args.request as { protocol?: string; hostname?: string; port?: number };
      const endpoint = `${protocol ?? 'https:'}//${hostname ?? '?'}${port ? `:${port}` : ''}`;
      context[ENDPOINT] = endpoint;
      try {
        return await next(args);
      } catch (error) {
        const failure = networkFailure(error);
        if (failure === undefined) throw error;
        throw new EndpointUnreachableError(`${callOf(context)}: ${endpoint} ${failure}; ${whatToCheck(region)}`, { cause: error });
      }
    },
    { step: 'build', name: 'operatorEndpointNamed' },
  );
  return client;
}
