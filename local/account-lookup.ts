/**
 * Finds the account (the user's `sub`) of an email address in a user pool: the keys CLI's `--email`.
 * In AWS the stage's pool; locally the cognito-local of a running `npm start` (it notes its address in
 * the data directory), or one started on the data directory for the lookup.
 */
import { ListUsersCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { localCognitoClient, startLocalCognito } from './cognito';
import { lockHolder } from './data-dir-lock';

const RUNNING_FILE = 'cognito.json';

interface RunningCognito {
  readonly endpoint: string;
  readonly userPoolId: string;
  readonly pid: number;
}

/** Written by `npm start` once cognito-local listens. */
export function noteRunningCognito(dataDir: string, endpoint: string, userPoolId: string): void {
  writeFileSync(join(dataDir, RUNNING_FILE), JSON.stringify({ endpoint, userPoolId, pid: process.pid } satisfies RunningCognito));
}

function runningCognito(dataDir: string): RunningCognito | undefined {
  const file = join(dataDir, RUNNING_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const noted = JSON.parse(readFileSync(file, 'utf8')) as RunningCognito;
    // Only the live holder of the data directory's lock (npm start) runs it; a pid alone may be reused.
    return noted.pid === lockHolder(dataDir)?.pid ? noted : undefined;
  } catch {
    return undefined;
  }
}

/** The `sub` of the user with this email address, or undefined when the pool has none. */
export async function accountOfEmail(
  cognito: CognitoIdentityProviderClient,
  userPoolId: string,
  email: string,
): Promise<string | undefined> {
  if (!/^[^"\\\s]+@[^"\\\s]+$/.test(email)) throw new Error(`--email ${JSON.stringify(email)} is not an email address`);
  const { Users } = await cognito.send(new ListUsersCommand({ UserPoolId: userPoolId, Filter: `email = "${email}"`, Limit: 2 }));
  return Users?.[0]?.Attributes?.find((attribute) => attribute.Name === 'sub')?.Value;
}

/** The same lookup in the local user pool of a data directory. */
export async function localAccountOfEmail(dataDir: string, email: string): Promise<string | undefined> {
  const running = runningCognito(dataDir);
  const started = running ? undefined : await startLocalCognito({ dataDir });
  const client = localCognitoClient(running?.endpoint ?? (started as { endpoint: string }).endpoint);
  try {
    return await accountOfEmail(client, running?.userPoolId ?? (started as { userPoolId: string }).userPoolId, email);
  } finally {
    client.destroy();
    await started?.stop();
  }
}
