/**
 * The portal's user pool on this machine: `cognito-local`, assembled from its parts rather than its
 * `createDefaultServer` (which keeps data in `./.cognito` and reads HOST/PORT): data in the data directory, 127.0.0.1
 * only, each confirmation code to `onCode` instead of an email. Its signing key is public: its tokens prove nothing.
 * The one module that uses cognito-local's internals; test/unit/cognito-local-adapter.test.ts checks they are there.
 */
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
  UpdateUserPoolClientCommand,
  type CreateUserPoolClientCommandInput,
} from '@aws-sdk/client-cognito-identity-provider';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { CognitoError, InvalidParameterError } from 'cognito-local/lib/errors';
import { DefaultConfig } from 'cognito-local/lib/server/config';
import { Router, type Route } from 'cognito-local/lib/server/Router';
import { createServer } from 'cognito-local/lib/server/server';
import type { Services } from 'cognito-local/lib/services';
import type { Context } from 'cognito-local/lib/services/context';
import { DateClock } from 'cognito-local/lib/services/clock';
import { CognitoServiceFactoryImpl } from 'cognito-local/lib/services/cognitoService';
import { StormDBDataStoreFactory } from 'cognito-local/lib/services/dataStore/stormDb';
import { MessageDeliveryService } from 'cognito-local/lib/services/messageDelivery/messageDelivery';
import type { MessageSender } from 'cognito-local/lib/services/messageDelivery/messageSender';
import { MessagesService } from 'cognito-local/lib/services/messages';
import { otp } from 'cognito-local/lib/services/otp';
import { JwtTokenGenerator } from 'cognito-local/lib/services/tokenGenerator';
import type { Triggers } from 'cognito-local/lib/services/triggers';
import { attributeValue, UserPoolServiceFactoryImpl } from 'cognito-local/lib/services/userPoolService';
import { ACCESS_TOKEN_VALIDITY_MINUTES, ACCOUNT_API_ONLY_OPERATIONS, PASSWORD_POLICY, REFRESH_TOKEN_VALIDITY_DAYS } from '#shared/accounts';
import { freePort, LOCAL_CREDENTIALS, LOCAL_REGION } from '#local/engine/dynamodb-engine';

const POOL_NAME = 'petstore-local';
const CLIENT_NAME = 'portal';

export interface LocalCognito {
  readonly endpoint: string;
  readonly userPoolId: string;
  readonly clientId: string;
  /** The `iss` of its tokens: `http://127.0.0.1:PORT/<pool id>`. */
  readonly issuer: string;
  readonly jwksUrl: string;
  lastCode(email: string): string | undefined;
  stop(): Promise<void>;
}

export interface LocalCognitoOptions {
  /** Users are kept in its `cognito/`; a temporary directory when absent. */
  readonly dataDir?: string;
  readonly port?: number;
  readonly onCode?: (email: string, code: string) => void;
}

/** Triggers call Lambda functions; the portal's pool has none, and cognito-local asks `enabled` before each call. */
const NO_TRIGGERS = { enabled: () => false } as Partial<Triggers> as Triggers;

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
  const existing = clients.UserPoolClients?.find((candidate) => candidate.ClientName === CLIENT_NAME)?.ClientId;
  const settings = {
    UserPoolId: userPoolId,
    ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
    AccessTokenValidity: ACCESS_TOKEN_VALIDITY_MINUTES,
    IdTokenValidity: ACCESS_TOKEN_VALIDITY_MINUTES,
    RefreshTokenValidity: REFRESH_TOKEN_VALIDITY_DAYS,
    TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'days' },
  } satisfies Partial<CreateUserPoolClientCommandInput>;
  // A data directory kept from before keeps its app client: give it this project's settings.
  if (existing) await client.send(new UpdateUserPoolClientCommand({ ...settings, ClientId: existing }));
  const clientId =
    existing ??
    (await client.send(new CreateUserPoolClientCommand({ ...settings, ClientName: CLIENT_NAME, GenerateSecret: false }))).UserPoolClient
      ?.ClientId;
  if (!clientId) throw new Error('cognito-local created no app client');
  return { userPoolId, clientId };
}

export const localCognitoClient = (endpoint: string): CognitoIdentityProviderClient =>
  new CognitoIdentityProviderClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });

/** Which characters each rule of the policy asks for, in the order Cognito reports them. */
const CHARACTER_RULES: readonly (readonly [required: boolean, present: RegExp, missing: string])[] = [
  [PASSWORD_POLICY.requireLowercase, /\p{Ll}/u, 'lowercase'],
  [PASSWORD_POLICY.requireUppercase, /\p{Lu}/u, 'uppercase'],
  [PASSWORD_POLICY.requireDigits, /\d/, 'numeric'],
  [PASSWORD_POLICY.requireSymbols, /[^\p{L}\d\s]/u, 'symbol'],
];

/** Cognito's own words for a password its pool refuses (InvalidPasswordException), first rule broken first. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_POLICY.minLength) return 'Password did not conform with policy: Password not long enough';
  const missing = CHARACTER_RULES.find(([required, present]) => required && !present.test(password))?.[2];
  return missing && `Password did not conform with policy: Password must have ${missing} characters`;
}

interface PasswordRequest {
  readonly ClientId: string;
  readonly Username: string;
  readonly Password?: string;
  readonly ProposedPassword?: string;
}

const PASSWORD_FIELDS: Readonly<Record<string, 'Password' | 'ProposedPassword'>> = {
  SignUp: 'Password',
  ConfirmForgotPassword: 'Password',
  AdminSetUserPassword: 'Password',
  ChangePassword: 'ProposedPassword',
};

/** Cognito's answer for an unknown address when user-existence errors are hidden: as if a code went out. */
const CODE_SENT_SOMEWHERE = { CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: 'e***@e***' } };

/**
 * Where cognito-local differs from Cognito: it takes any password, has no ResendConfirmationCode, its ForgotPassword
 * tells who has an account and resets an unconfirmed one, and it has no web ACL.
 */
function withCognitoRules(own: Router, services: Services): Router {
  const userOf = async (ctx: Context, request: PasswordRequest) => {
    const pool = await services.cognito.getUserPoolForClientId(ctx, request.ClientId);
    return { pool, user: await pool.getUserByUsername(ctx, request.Username) };
  };

  const resendConfirmationCode: Route = async (ctx, request: PasswordRequest) => {
    const { pool, user } = await userOf(ctx, request);
    if (!user) return CODE_SENT_SOMEWHERE;
    if (user.UserStatus !== 'UNCONFIRMED') throw new InvalidParameterError('User is already confirmed.');
    const details = {
      AttributeName: 'email',
      DeliveryMedium: 'EMAIL',
      Destination: attributeValue('email', user.Attributes) ?? '',
    } as const;
    const code = services.otp();
    await services.messages.deliver(ctx, 'ResendCode', request.ClientId, pool.options.Id, user, code, undefined, details);
    await pool.saveUser(ctx, { ...user, ConfirmationCode: code, UserLastModifiedDate: services.clock.get() });
    return { CodeDeliveryDetails: details };
  };

  const forgotPassword: Route = async (ctx, request: PasswordRequest) => {
    const { user } = await userOf(ctx, request);
    if (!user) return CODE_SENT_SOMEWHERE;
    if (user.UserStatus === 'UNCONFIRMED')
      throw new InvalidParameterError('Cannot reset password for the user as there is no registered/verified email or phone_number');
    return (await own('ForgotPassword')(ctx, request)) as unknown;
  };

  // What the stage's WAF blocks (lib/petstore-identity.ts), refused as Cognito answers a WAF block.
  const blocked: Route = () => Promise.reject(new CognitoError('ForbiddenException', 'Request not allowed due to WAF block.'));

  return (target) => {
    if ((ACCOUNT_API_ONLY_OPERATIONS as readonly string[]).includes(target)) return blocked;
    if (target === 'ResendConfirmationCode') return resendConfirmationCode;
    if (target === 'ForgotPassword') return forgotPassword;
    const field = PASSWORD_FIELDS[target];
    if (!field) return own(target);
    const checked: Route = async (ctx, request: PasswordRequest) => {
      const problem = passwordProblem(request[field] ?? '');
      if (problem) throw new CognitoError('InvalidPasswordException', problem);
      return (await own(target)(ctx, request)) as unknown;
    };
    return checked;
  };
}

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
  const server: Server = await createServer(withCognitoRules(router, services), logger, config.ServerConfig, services).start();

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
