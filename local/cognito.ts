/**
 * Amazon Cognito on this machine, for the developer portal: the `cognito-local` emulator (npm, MIT)
 * stands in for the stage's user pool — the same API calls the portal page makes (SignUp,
 * ConfirmSignUp, InitiateAuth with USER_PASSWORD_AUTH and REFRESH_TOKEN_AUTH, AdminDeleteUser …) and
 * RS256 access tokens whose keys it serves at `/<pool id>/.well-known/jwks.json`.
 *
 * Assembled from its parts instead of its `createDefaultServer`, which keeps its data in `.cognito/`
 * of the working directory and reads HOST/PORT when loaded: here the data lives in the project's data
 * directory, the server listens on 127.0.0.1 only, and no email is sent — each confirmation code goes
 * to `onCode` (npm start prints it). Its signing key is fixed and public (shipped in the package):
 * tokens it issues prove nothing outside this machine.
 */
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { DefaultConfig } from 'cognito-local/lib/server/config';
import { Router, type Router as CognitoRouter } from 'cognito-local/lib/server/Router';
import { createServer } from 'cognito-local/lib/server/server';
import type { Services } from 'cognito-local/lib/services';
import { DateClock } from 'cognito-local/lib/services/clock';
import { CognitoServiceFactoryImpl } from 'cognito-local/lib/services/cognitoService';
import { StormDBDataStoreFactory } from 'cognito-local/lib/services/dataStore/stormDb';
import { MessageDeliveryService } from 'cognito-local/lib/services/messageDelivery/messageDelivery';
import type { MessageSender } from 'cognito-local/lib/services/messageDelivery/messageSender';
import { MessagesService } from 'cognito-local/lib/services/messages';
import { otp } from 'cognito-local/lib/services/otp';
import { JwtTokenGenerator } from 'cognito-local/lib/services/tokenGenerator';
import type { Triggers } from 'cognito-local/lib/services/triggers';
import { UserPoolServiceFactoryImpl } from 'cognito-local/lib/services/userPoolService';
import { ACCESS_TOKEN_VALIDITY_MINUTES, PASSWORD_POLICY, REFRESH_TOKEN_VALIDITY_DAYS } from '#shared/accounts';
import { freePort, LOCAL_CREDENTIALS, LOCAL_REGION } from './dynamodb-engine';

const POOL_NAME = 'petstore-local';
const CLIENT_NAME = 'portal';

export interface LocalCognito {
  /** `http://127.0.0.1:PORT/`: where the portal page and the SDK send Cognito's API calls. */
  readonly endpoint: string;
  readonly userPoolId: string;
  readonly clientId: string;
  /** The `iss` of its tokens: `http://127.0.0.1:PORT/<pool id>`. */
  readonly issuer: string;
  readonly jwksUrl: string;
  /** The last confirmation code sent to this address, if any. */
  lastCode(email: string): string | undefined;
  stop(): Promise<void>;
}

export interface LocalCognitoOptions {
  /** The project's data directory; its `cognito/` subdirectory keeps users across restarts. A temporary directory when absent. */
  readonly dataDir?: string;
  readonly port?: number;
  /** Called with each confirmation code instead of sending an email. */
  readonly onCode?: (email: string, code: string) => void;
  /** Wraps the emulator's own API targets: where Cognito behaves differently and the portal depends on it (local/accounts.ts). */
  readonly router?: (own: CognitoRouter, services: Services) => CognitoRouter;
}

/** Triggers call Lambda functions; the portal's pool has none, so none is ever called. */
const unsupported = (): Promise<never> => Promise.reject(new Error('no Cognito triggers run locally'));
const NO_TRIGGERS: Triggers = {
  enabled: () => false,
  customMessage: unsupported,
  customEmailSender: unsupported,
  postAuthentication: unsupported,
  postConfirmation: unsupported,
  preSignUp: unsupported,
  preTokenGeneration: unsupported,
  userMigration: unsupported,
};

/** The user pool and app client of the portal, created on first start like the stack creates them in AWS. */
async function ensurePool(client: CognitoIdentityProviderClient): Promise<{ userPoolId: string; clientId: string }> {
  const pools = await client.send(new ListUserPoolsCommand({ MaxResults: 60 }));
  let userPoolId = pools.UserPools?.find((pool) => pool.Name === POOL_NAME)?.Id;
  if (!userPoolId) {
    const created = await client.send(
      new CreateUserPoolCommand({
        PoolName: POOL_NAME,
        UsernameAttributes: ['email'],
        AutoVerifiedAttributes: ['email'],
        Policies: {
          PasswordPolicy: {
            MinimumLength: PASSWORD_POLICY.minLength,
            RequireLowercase: PASSWORD_POLICY.requireLowercase,
            RequireUppercase: PASSWORD_POLICY.requireUppercase,
            RequireNumbers: PASSWORD_POLICY.requireDigits,
            RequireSymbols: PASSWORD_POLICY.requireSymbols,
          },
        },
      }),
    );
    userPoolId = created.UserPool?.Id;
  }
  if (!userPoolId) throw new Error('cognito-local created no user pool');
  const clients = await client.send(new ListUserPoolClientsCommand({ UserPoolId: userPoolId, MaxResults: 60 }));
  let clientId = clients.UserPoolClients?.find((candidate) => candidate.ClientName === CLIENT_NAME)?.ClientId;
  if (!clientId) {
    const created = await client.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: CLIENT_NAME,
        GenerateSecret: false,
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
        AccessTokenValidity: ACCESS_TOKEN_VALIDITY_MINUTES,
        IdTokenValidity: ACCESS_TOKEN_VALIDITY_MINUTES,
        RefreshTokenValidity: REFRESH_TOKEN_VALIDITY_DAYS,
        TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'days' },
      }),
    );
    clientId = created.UserPoolClient?.ClientId;
  }
  if (!clientId) throw new Error('cognito-local created no app client');
  return { userPoolId, clientId };
}

/** A Cognito SDK client for the emulator (any credentials: it checks none). */
export const localCognitoClient = (endpoint: string): CognitoIdentityProviderClient =>
  new CognitoIdentityProviderClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });

export async function startLocalCognito(options: LocalCognitoOptions = {}): Promise<LocalCognito> {
  const temporary = options.dataDir === undefined ? mkdtempSync(join(tmpdir(), 'petstore-cognito-')) : undefined;
  const directory = resolve(options.dataDir ?? (temporary as string), options.dataDir === undefined ? '.' : 'cognito');
  // cognito-local keeps every user's password and refresh tokens in clear: its files are the owner's alone.
  const db = join(directory, 'db');
  mkdirSync(db, { recursive: true });
  for (const folder of [directory, db]) chmodSync(folder, 0o700);
  const port = options.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const codes = new Map<string, string>();

  const sender: MessageSender = {
    sendEmail: (_ctx, _user, destination, message) => {
      if (message.__code !== undefined) {
        codes.set(destination.toLowerCase(), message.__code);
        options.onCode?.(destination, message.__code);
      }
      return Promise.resolve();
    },
    sendSms: () => Promise.resolve(),
  };
  const logger = pino({ level: 'silent' });
  const ctx = { logger };
  const clock = new DateClock();
  const config = { ...DefaultConfig, TokenConfig: { IssuerDomain: origin }, ServerConfig: { hostname: '127.0.0.1', port, https: false } };
  const dataStores = new StormDBDataStoreFactory(db);
  const cognito = await new CognitoServiceFactoryImpl(db, dataStores, new UserPoolServiceFactoryImpl(clock, dataStores)).create(
    ctx,
    config.UserPoolDefaults,
  );
  const services = {
    clock,
    cognito,
    config,
    messages: new MessagesService(NO_TRIGGERS, new MessageDeliveryService(sender)),
    otp,
    tokenGenerator: new JwtTokenGenerator(clock, NO_TRIGGERS, config.TokenConfig),
    triggers: NO_TRIGGERS,
  };
  const router = Router(services);
  const server: Server = await createServer(options.router?.(router, services) ?? router, logger, config.ServerConfig, services).start();

  const endpoint = `${origin}/`;
  const sdk = localCognitoClient(endpoint);
  try {
    const { userPoolId, clientId } = await ensurePool(sdk);
    // Written with the default mode (0644 under the usual umask): unreadable to others in their folder, and 0600 now.
    for (const file of readdirSync(db)) chmodSync(join(db, file), 0o600);
    const issuer = `${origin}/${userPoolId}`;
    return {
      endpoint,
      userPoolId,
      clientId,
      issuer,
      jwksUrl: `${issuer}/.well-known/jwks.json`,
      lastCode: (email) => codes.get(email.toLowerCase()),
      stop: () =>
        new Promise<void>((closed) => {
          server.close(() => {
            if (temporary) rmSync(temporary, { recursive: true, force: true });
            closed();
          });
          server.closeAllConnections();
        }),
    };
  } catch (error) {
    server.close();
    throw error;
  } finally {
    sdk.destroy();
  }
}
