/**
 * Records every AWS SDK call the functions make, as IAM sees it: the action (`dynamodb:GetItem`), the
 * table or index, the user pool, and which deployed function made it. An `initialize` middleware on
 * the functions' own clients, added by the test only: production code runs unchanged. The function is
 * known from the invocation the call happens in (AsyncLocalStorage), since every handler of a process
 * shares one client, as the functions of a local server do.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { InitializeHandlerArguments, InitializeHandlerOutput, InitializeMiddleware, MiddlewareStack } from '@smithy/types';

export interface RecordedCall {
  /** The function whose invocation made the call; undefined for a call made outside every invocation. */
  readonly functionName: string | undefined;
  /** As in an IAM policy: `dynamodb:Query`, `cognito-idp:AdminDeleteUser`. */
  readonly action: string;
  readonly tableName?: string;
  readonly indexName?: string;
  readonly userPoolId?: string;
}

/** The IAM service prefix of a client's actions. */
export type IamService = 'dynamodb' | 'cognito-idp';

export interface SdkCallRecorder {
  /** Every call so far, in the order they were sent (an SDK retry of a call is the same call). */
  readonly calls: readonly RecordedCall[];
  /** Records the calls sent through this client from now on. */
  attach<Input extends object, Output extends object>(
    client: { readonly middlewareStack: MiddlewareStack<Input, Output> },
    service: IamService,
  ): void;
  /** The same function, whose calls are recorded under `functionName` (the deployed function's name). */
  attribute<A extends unknown[], R>(functionName: string, fn: (...args: A) => Promise<R>): (...args: A) => Promise<R>;
}

const MIDDLEWARE_NAME = 'sdkCallRecorder';

const stringField = (input: object, field: string): string | undefined => {
  const value = (input as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : undefined;
};

export function sdkCallRecorder(): SdkCallRecorder {
  const calls: RecordedCall[] = [];
  const invocation = new AsyncLocalStorage<string>();

  const recording =
    <Input extends object, Output extends object>(service: IamService): InitializeMiddleware<Input, Output> =>
    (next, context) =>
    async (args: InitializeHandlerArguments<Input>): Promise<InitializeHandlerOutput<Output>> => {
      // The SDK's command names are the API's operation names, which IAM uses as action names for both
      // services; the document client's commands run as their DynamoDB command (GetCommand as GetItemCommand).
      const operation = (context.commandName ?? 'UnknownCommand').replace(/Command$/, '');
      const tableName = stringField(args.input, 'TableName');
      const indexName = stringField(args.input, 'IndexName');
      const userPoolId = stringField(args.input, 'UserPoolId');
      calls.push({
        functionName: invocation.getStore(),
        action: `${service}:${operation}`,
        ...(tableName === undefined ? {} : { tableName }),
        ...(indexName === undefined ? {} : { indexName }),
        ...(userPoolId === undefined ? {} : { userPoolId }),
      });
      return next(args);
    };

  return {
    calls,
    attach: (client, service) => {
      client.middlewareStack.add(recording(service), { step: 'initialize', name: MIDDLEWARE_NAME, override: true });
    },
    attribute:
      (functionName, fn) =>
      (...args) =>
        invocation.run(functionName, () => fn(...args)),
  };
}
