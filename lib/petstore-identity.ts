import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { AccountRecovery, FeaturePlan, Mfa, UserPool, UserPoolEmail, VerificationEmailStyle } from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { ACCESS_TOKEN_VALIDITY_MINUTES, PASSWORD_POLICY, REFRESH_TOKEN_VALIDITY_DAYS } from '#shared/accounts';
import type { StageConfig } from './stage-config';

/**
 * The developer portal's identity provider for one stage: a Cognito user pool where anyone can sign
 * up with an email address (verified by a code), and the portal's app client. Locally cognito-local
 * stands in for it (local/cognito.ts creates the same pool and client there).
 */
export class PetStoreIdentity extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  /** The `iss` of its tokens, which the account API's JWT authorizer and functions expect. */
  readonly issuer: string;
  /** Cognito's API endpoint in this region, which the portal page calls. */
  readonly cognitoEndpoint: string;

  constructor(scope: Construct, id: string, props: { readonly config: StageConfig }) {
    super(scope, id);
    const { config } = props;

    this.userPool = new UserPool(this, 'UserPool', {
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      keepOriginal: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      userVerification: {
        emailStyle: VerificationEmailStyle.CODE,
        emailSubject: `Your Pet Store developer portal code (${config.stage})`,
        emailBody: 'Your confirmation code for the Pet Store developer portal is {####}.',
      },
      // Cognito's own sender: no setup, but a daily quota of 50 emails per account (docs/portal.md); use SES for more.
      email: UserPoolEmail.withCognito(),
      passwordPolicy: {
        minLength: PASSWORD_POLICY.minLength,
        requireLowercase: PASSWORD_POLICY.requireLowercase,
        requireUppercase: PASSWORD_POLICY.requireUppercase,
        requireDigits: PASSWORD_POLICY.requireDigits,
        requireSymbols: PASSWORD_POLICY.requireSymbols,
        tempPasswordValidity: Duration.days(3),
      },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      mfa: Mfa.OFF,
      featurePlan: FeaturePlan.ESSENTIALS,
      // Users are data, like the tables: retained outside dev.
      removalPolicy: config.removalPolicy,
      deletionProtection: config.deletionProtection,
    });
    Validations.of(this.userPool).acknowledge(
      {
        id: 'AwsSolutions-COG1',
        reason: 'Length over symbols (NIST SP 800-63B): 12+ characters with lower, upper and digits, no symbol required.',
      },
      {
        id: 'AwsSolutions-COG2',
        reason: 'A self-service sign-up for API keys; the portal offers no MFA step, and keys are revocable and capped.',
      },
      { id: 'AwsSolutions-COG3', reason: 'Threat protection needs the Plus feature plan (per-user cost); revisit if abuse shows up.' },
      { id: 'AwsSolutions-COG8', reason: 'Essentials plan: the Plus plan only adds threat protection (see COG3).' },
    );

    // No secret: a browser page cannot keep one. USER_PASSWORD_AUTH (the password goes over TLS to
    // Cognito, never to our APIs) rather than SRP, because the local emulator has no SRP and the two
    // must behave the same; refresh tokens let a tab stay signed in for a day.
    this.client = this.userPool.addClient('PortalClient', {
      generateSecret: false,
      authFlows: { userPassword: true },
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.minutes(ACCESS_TOKEN_VALIDITY_MINUTES),
      idTokenValidity: Duration.minutes(ACCESS_TOKEN_VALIDITY_MINUTES),
      refreshTokenValidity: Duration.days(REFRESH_TOKEN_VALIDITY_DAYS),
    });

    const { region, urlSuffix } = Stack.of(this);
    this.cognitoEndpoint = `https://cognito-idp.${region}.${urlSuffix}/`;
    this.issuer = `https://cognito-idp.${region}.${urlSuffix}/${this.userPool.userPoolId}`;
  }
}
