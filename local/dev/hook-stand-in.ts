/**
 * What the stage check's pre-traffic hook calls besides the stage, for `npm run rehearse`: Secrets Manager (the check's
 * secret, as a fresh stack leaves it: a generated value, no key), Lambda's Invoke of the versions the deploy published
 * (answered by the rehearsal's sandboxes, a crash as Lambda reports one) and CodeDeploy (the hook's verdict).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { LambdaFunction } from '#local/gateway/functions';

const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:StageCheckKey-rehearsal';
const versionArn = (name: string): string => `arn:aws:lambda:us-east-1:000000000000:function:${name}:rehearsal`;

export interface HookStandIn {
  readonly origin: string;
  readonly secretArn: string;
  versionArn(name: string): string;
  /** What the secret holds now. */
  secret(): string;
  /** Each verdict the hook sent CodeDeploy. */
  readonly verdicts: string[];
  close(): Promise<void>;
}

type Reply = readonly [status: number, body: unknown, headers?: Record<string, string>];

const bodyOf = (request: IncomingMessage): Promise<string> =>
  new Promise((done) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => done(text));
  });

export async function startHookStandIn(functionNamed: (name: string) => LambdaFunction): Promise<HookStandIn> {
  let secret = 'a value Secrets Manager generated';
  const verdicts: string[] = [];
  const answer = async (request: IncomingMessage, text: string): Promise<Reply> => {
    const target = String(request.headers['x-amz-target'] ?? '');
    const body = (text ? JSON.parse(text) : {}) as Record<string, string | undefined>;
    if (target === 'secretsmanager.GetSecretValue' || target === 'secretsmanager.PutSecretValue') {
      if (body.SecretId !== SECRET_ARN) return [400, { __type: 'ResourceNotFoundException', message: 'no such secret' }];
      if (target === 'secretsmanager.PutSecretValue') secret = body.SecretString ?? '';
      return [200, { ARN: SECRET_ARN, SecretString: secret, VersionId: String(verdicts.length) }];
    }
    if (target === 'CodeDeploy_20141006.PutLifecycleEventHookExecutionStatus') {
      verdicts.push(body.status ?? '');
      return [200, { lifecycleEventHookExecutionId: body.lifecycleEventHookExecutionId }];
    }
    const arn = decodeURIComponent(/^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(request.url ?? '')?.[1] ?? '');
    const name = /:function:([^:]+):rehearsal$/.exec(arn)?.[1];
    if (!name) return [404, { Type: 'User', message: `Function not found: ${arn}` }];
    try {
      return [200, (await functionNamed(name)(JSON.parse(text), {} as never)) ?? null];
    } catch (error) {
      return [200, { errorType: 'Error', errorMessage: String(error) }, { 'x-amz-function-error': 'Unhandled' }];
    }
  };
  const server = createServer((request, response) => {
    void bodyOf(request)
      .then((text) => answer(request, text))
      .then(([status, body, headers]) => {
        response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', ...headers });
        response.end(JSON.stringify(body));
      });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    secretArn: SECRET_ARN,
    versionArn,
    secret: () => secret,
    verdicts,
    close: () => new Promise((closed) => server.close(() => closed())),
  };
}
