import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { AccountRecovery, FeaturePlan, Mfa, UserPool, UserPoolEmail, VerificationEmailStyle } from 'aws-cdk-lib/aws-cognito';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { ACCESS_TOKEN_VALIDITY_MINUTES, ACCOUNT_API_ONLY_OPERATIONS, PASSWORD_POLICY, REFRESH_TOKEN_VALIDITY_DAYS } from '#shared/accounts';
import { visibility } from './petstore-front-door';
import type { RateLimit, StageConfig } from './stage-config';

/** The Cognito operations (X-Amz-Target) that anyone may call to email an address: to strangers, or to drain the quota. */
export const EMAILING_OPERATIONS = ['SignUp', 'ResendConfirmationCode', 'ForgotPassword'] as const;
const COGNITO_TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';

/** The metric name of the user pool's web ACL: WAF's `WebACL` dimension (lib/petstore-dashboard.ts). */
export const userPoolWebAclMetricName = (stage: string): string => `PetStore-${stage}-user-pool`;

/** WAF's OR needs two statements or more. */
const anyOf = (statements: CfnWebACL.StatementProperty[]): CfnWebACL.StatementProperty =>
  statements.length === 1 && statements[0] ? statements[0] : { orStatement: { statements } };

const perClientIp = ({ limit, windowSeconds }: RateLimit, scopeDownStatement?: CfnWebACL.StatementProperty) => ({
  rateBasedStatement: {
    aggregateKeyType: 'IP',
    limit,
    evaluationWindowSec: windowSeconds,
    ...(scopeDownStatement ? { scopeDownStatement } : {}),
  },
});

/**
 * The developer portal's Cognito user pool, where anyone signs up with a verified email address, behind AWS WAF,
 * and the portal's app client (local/identity/cognito.ts creates the same in cognito-local).
 */
export class PetStoreIdentity extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  /** The `iss` of its tokens. */
  readonly issuer: string;
  /** Which the portal page calls. */
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
      // Cognito's own sender needs no setup but allows about 50 emails a day per account (docs/deploy-reference.md, Sign-up and email).
      email: config.sesSender
        ? UserPoolEmail.withSES({
            fromEmail: config.sesSender.fromEmail,
            ...(config.sesSender.verifiedDomain ? { sesVerifiedDomain: config.sesSender.verifiedDomain } : {}),
            sesRegion: Stack.of(this).region,
          })
        : UserPoolEmail.withCognito(),
      passwordPolicy: { ...PASSWORD_POLICY, tempPasswordValidity: Duration.days(3) },
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

    this.protect(config);

    // No secret: a browser page cannot keep one. USER_PASSWORD_AUTH (over TLS to Cognito, never to our APIs)
    // rather than SRP, which the local emulator lacks. Token lifetimes: shared/accounts.ts.
    this.client = this.userPool.addClient('PortalClient', {
      generateSecret: false,
      authFlows: { userPassword: true },
      // No hosted UI: none of CDK's OAuth defaults (implicit and code flows, every scope, an example.com callback).
      disableOAuth: true,
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

  /**
   * AWS WAF in front of the pool's public API (config.json hands anyone the client id): per client IP, few emailing
   * calls and a ceiling on all, so one address can neither mail strangers nor use up the quotas every user shares.
   */
  private protect(config: StageConfig): void {
    const { emailingCallsPerClientIp, callsPerClientIp } = config.userPoolProtection;
    const prefix = userPoolWebAclMetricName(config.stage);
    const targetIs = (operation: string, anyCase = false): CfnWebACL.StatementProperty => ({
      byteMatchStatement: {
        fieldToMatch: { singleHeader: { Name: 'x-amz-target' } },
        positionalConstraint: 'EXACTLY',
        searchString: anyCase ? `${COGNITO_TARGET_PREFIX}${operation}`.toLowerCase() : `${COGNITO_TARGET_PREFIX}${operation}`,
        textTransformations: [{ priority: 0, type: anyCase ? 'LOWERCASE' : 'NONE' }],
      },
    });
    const webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      description: `PetStore ${config.stage}: per-client-IP limits on the public API of the user pool`,
      defaultAction: { allow: {} },
      visibilityConfig: visibility(prefix),
      rules: [
        {
          // DELETE /account revokes the keys first; Cognito's own DeleteUser would leave them working. Any case: a
          // block must not be escaped by spelling the header otherwise.
          name: 'SelfServiceOnlyThroughTheAccountApi',
          priority: 0,
          statement: anyOf(ACCOUNT_API_ONLY_OPERATIONS.map((operation) => targetIs(operation, true))),
          action: { block: {} },
          visibilityConfig: visibility(`${prefix}-self-service`),
        },
        {
          name: 'EmailingCallsPerClientIp',
          priority: 1,
          statement: perClientIp(emailingCallsPerClientIp, { orStatement: { statements: EMAILING_OPERATIONS.map((op) => targetIs(op)) } }),
          action: { block: {} },
          visibilityConfig: visibility(`${prefix}-emailing-calls`),
        },
        {
          name: 'CallsPerClientIp',
          priority: 2,
          statement: perClientIp(callsPerClientIp),
          action: { block: {} },
          visibilityConfig: visibility(`${prefix}-calls`),
        },
      ],
    });
    new CfnWebACLAssociation(this, 'WebAclAssociation', { resourceArn: this.userPool.userPoolArn, webAclArn: webAcl.attrArn });
  }
}
