/**
 * Facts about developer accounts (docs/portal.md) shared by the CDK stack, the account functions and the local server
 * (the same identity flow against cognito-local). No aws-cdk-lib import here on purpose.
 */
import type { FunctionName } from './table-access';

/** How the account functions learn who may call them: the JWT authorizer's issuer and audience (the app client id). */
export const ACCOUNT_TOKEN_ISSUER_ENV = 'ACCOUNT_TOKEN_ISSUER';
export const ACCOUNT_TOKEN_AUDIENCE_ENV = 'ACCOUNT_TOKEN_AUDIENCE';
/** The user pool the delete-account function removes users from. */
export const USER_POOL_ID_ENV = 'USER_POOL_ID';
/** Local runs only: cognito-local's address. In AWS the SDK finds the regional Cognito endpoint itself. */
export const COGNITO_ENDPOINT_ENV = 'COGNITO_ENDPOINT';

/**
 * Cognito calls a user's own token could make that only the account API may do: DeleteUser would leave their keys
 * working. The user pool's WAF (deployed) and the emulator's gateway (local) refuse them.
 */
export const ACCOUNT_API_ONLY_OPERATIONS = ['DeleteUser'] as const;

export type CognitoAction = 'cognito-idp:AdminDeleteUser';

/** A function's Cognito calls on this stage's pool: its IAM statement, held to its real calls by test/infra/iam-from-calls.test.ts. */
export const IDENTITY_ACCESS: Readonly<Partial<Record<FunctionName, readonly CognitoAction[]>>> = {
  // Deleting an account removes its sign-in after revoking its keys (lambda/handlers/delete-account.ts).
  deleteAccount: ['cognito-idp:AdminDeleteUser'],
};

/**
 * Every user pool's password rule (the local emulator does not enforce it): long rather than symbol-heavy, as NIST
 * SP 800-63B advises; Cognito also refuses passwords with leading or trailing spaces.
 */
export const PASSWORD_POLICY = {
  minLength: 12,
  requireLowercase: true,
  requireUppercase: true,
  requireDigits: true,
  requireSymbols: false,
} as const;

/**
 * How long a sign-in lasts. The JWT authorizer checks an access token's signature and expiry only, so after sign-out it
 * works this long: 5 minutes is Cognito's shortest; the page renews it with the refresh token, which sign-out revokes.
 */
export const ACCESS_TOKEN_VALIDITY_MINUTES = 5;
export const REFRESH_TOKEN_VALIDITY_DAYS = 1;

/** The portal page's `config.json`: the stack writes it to the portal bucket, `npm start` serves it with local values. */
export interface PortalConfig {
  readonly stage: string;
  /** Locally no email is sent: the page says where the confirmation code is printed. */
  readonly local: boolean;
  readonly region: string;
  /** Cognito's API, called by the page directly (`https://cognito-idp.<region>.amazonaws.com/` in AWS). */
  readonly cognitoEndpoint: string;
  readonly userPoolId: string;
  readonly clientId: string;
  readonly accountBaseUrl: string;
  readonly petsBaseUrl: string;
  readonly messagesBaseUrl: string;
  readonly passwordPolicy: typeof PASSWORD_POLICY;
}

/** Where the portal lives: the path `npm start` serves it under, and the config file's name in it. */
export const PORTAL_PATH = '/portal';
export const PORTAL_CONFIG_FILE = 'config.json';
/** The portal's static files, relative to the project root (deployed to S3, served locally). */
export const PORTAL_DIRECTORY = 'portal';
