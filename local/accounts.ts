/**
 * Everything the developer portal needs on this machine, started together: cognito-local (the user
 * pool), the account API's JWT authorizer trusting it, and what the local server needs to serve
 * /portal. `npm start` and the tests use this one function.
 *
 * cognito-local differs from Cognito where the portal depends on it, so those targets are wrapped
 * here: it stores any password (Cognito enforces the pool's policy), has no ResendConfirmationCode,
 * tells who has an account through ForgotPassword (the stage's client hides that) and resets the
 * password of an unconfirmed user (Cognito refuses: the address was never verified). And what the stage's
 * web ACL blocks (Cognito's own DeleteUser) is refused here too.
 */
import { UpdateUserPoolClientCommand } from '@aws-sdk/client-cognito-identity-provider';
import { CognitoError, InvalidParameterError } from 'cognito-local/lib/errors';
import type { Route, Router } from 'cognito-local/lib/server/Router';
import type { Services } from 'cognito-local/lib/services';
import type { Context } from 'cognito-local/lib/services/context';
import { attributeValue } from 'cognito-local/lib/services/userPoolService';
import { ACCESS_TOKEN_VALIDITY_MINUTES, ACCOUNT_API_ONLY_OPERATIONS, PASSWORD_POLICY, REFRESH_TOKEN_VALIDITY_DAYS } from '#shared/accounts';
import { localCognitoClient, startLocalCognito, type LocalCognito, type LocalCognitoOptions } from './cognito';
import { jwtAuthorizer, type JwtAuthorizer } from './jwt-authorizer';
import type { PortalIdentity } from './portal-server';

export interface LocalAccounts {
  readonly cognito: LocalCognito;
  readonly accountAuthorizer: JwtAuthorizer;
  readonly portal: PortalIdentity;
  stop(): Promise<void>;
}

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

/** Which field of a request carries the new password, per target that sets one. */
const PASSWORD_FIELDS: Readonly<Record<string, 'Password' | 'ProposedPassword'>> = {
  SignUp: 'Password',
  ConfirmForgotPassword: 'Password',
  AdminSetUserPassword: 'Password',
  ChangePassword: 'ProposedPassword',
};

/** Cognito's answer for an unknown address when user-existence errors are hidden: as if a code went out. */
const CODE_SENT_SOMEWHERE = { CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: 'e***@e***' } };

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

export async function startLocalAccounts(options: Omit<LocalCognitoOptions, 'router'> = {}): Promise<LocalAccounts> {
  const cognito = await startLocalCognito({ ...options, router: withCognitoRules });
  // A data directory kept from before keeps its app client: give it this project's token lifetimes.
  const sdk = localCognitoClient(cognito.endpoint);
  try {
    await sdk.send(
      new UpdateUserPoolClientCommand({
        UserPoolId: cognito.userPoolId,
        ClientId: cognito.clientId,
        AccessTokenValidity: ACCESS_TOKEN_VALIDITY_MINUTES,
        IdTokenValidity: ACCESS_TOKEN_VALIDITY_MINUTES,
        RefreshTokenValidity: REFRESH_TOKEN_VALIDITY_DAYS,
        TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'days' },
      }),
    );
  } catch (error) {
    await cognito.stop();
    throw error;
  } finally {
    sdk.destroy();
  }
  return {
    cognito,
    accountAuthorizer: jwtAuthorizer({ issuer: cognito.issuer, audience: [cognito.clientId], jwksUrl: cognito.jwksUrl }),
    portal: { cognitoEndpoint: cognito.endpoint, userPoolId: cognito.userPoolId, clientId: cognito.clientId },
    stop: () => cognito.stop(),
  };
}
