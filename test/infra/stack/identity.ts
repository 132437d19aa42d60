/**
 * The user pool as a public sign-up must be deployed: AWS WAF in front of Cognito's API, the email
 * sender, sessions that end within minutes, and an app client with nothing the portal does not use.
 */
import { EMAILING_OPERATIONS } from '#lib/petstore-identity';
import { COGNITO_SENDER, stageConfig } from '#lib/stage-config';
import { ACCESS_TOKEN_VALIDITY_MINUTES } from '#shared/accounts';
import { STAGES, type StageName } from '#shared/stages';
import { referencedId, resourcesOfType, synth, variant, type Resource, type Synthesized } from '../support/synth';

const only = (stage: StageName | Synthesized, type: string): [string, Resource] => {
  const found = [...resourcesOfType((typeof stage === 'string' ? synth(stage) : stage).template, type)];
  expect(found).toHaveLength(1);
  return found[0] as [string, Resource];
};

interface RateRule {
  readonly Name: string;
  readonly Priority: number;
  readonly Action: unknown;
  readonly Statement: {
    readonly RateBasedStatement: { AggregateKeyType: string; Limit: number; EvaluationWindowSec: number; ScopeDownStatement?: unknown };
  };
}

describe.each(STAGES)('%s stage user pool', (stage) => {
  const { userPoolProtection } = stageConfig(stage, { alarmEmail: 'none', sesFromEmail: COGNITO_SENDER });

  it('a regional AWS WAF web ACL is associated with the user pool', () => {
    const [poolId] = only(stage, 'AWS::Cognito::UserPool');
    const [aclId, acl] = only(stage, 'AWS::WAFv2::WebACL');
    const [, association] = only(stage, 'AWS::WAFv2::WebACLAssociation');
    expect(acl.Properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    expect(association.Properties).toEqual({ ResourceArn: { 'Fn::GetAtt': [poolId, 'Arn'] }, WebACLArn: { 'Fn::GetAtt': [aclId, 'Arn'] } });
  });

  it("Cognito's own DeleteUser is blocked, in any letter case: an account is deleted only through DELETE /account, which revokes its keys", () => {
    const [block] = only(stage, 'AWS::WAFv2::WebACL')[1].Properties.Rules as {
      Name: string;
      Priority: number;
      Action: unknown;
      Statement: unknown;
    }[];
    expect(block).toMatchObject({ Name: 'SelfServiceOnlyThroughTheAccountApi', Priority: 0, Action: { Block: {} } });
    expect(block?.Statement).toEqual({
      ByteMatchStatement: {
        FieldToMatch: { SingleHeader: { Name: 'x-amz-target' } },
        PositionalConstraint: 'EXACTLY',
        SearchString: 'awscognitoidentityproviderservice.deleteuser',
        TextTransformations: [{ Priority: 0, Type: 'LOWERCASE' }],
      },
    });
  });

  it('one client IP may call SignUp, ResendConfirmationCode and ForgotPassword only a few times, and the whole API a bounded number', () => {
    const rules = only(stage, 'AWS::WAFv2::WebACL')[1].Properties.Rules as RateRule[];
    expect(rules.map(({ Name }) => Name)).toEqual(['SelfServiceOnlyThroughTheAccountApi', 'EmailingCallsPerClientIp', 'CallsPerClientIp']);
    const [, emailing, calls] = rules as [RateRule, RateRule, RateRule];

    expect(emailing.Action).toEqual({ Block: {} });
    expect(emailing.Statement.RateBasedStatement).toMatchObject({
      AggregateKeyType: 'IP',
      Limit: userPoolProtection.emailingCallsPerClientIp.limit,
      EvaluationWindowSec: userPoolProtection.emailingCallsPerClientIp.windowSeconds,
    });
    const targets = (emailing.Statement.RateBasedStatement.ScopeDownStatement as { OrStatement: { Statements: unknown[] } }).OrStatement
      .Statements;
    expect(targets).toEqual(
      EMAILING_OPERATIONS.map((operation) => ({
        ByteMatchStatement: {
          FieldToMatch: { SingleHeader: { Name: 'x-amz-target' } },
          PositionalConstraint: 'EXACTLY',
          SearchString: `AWSCognitoIdentityProviderService.${operation}`,
          TextTransformations: [{ Priority: 0, Type: 'NONE' }],
        },
      })),
    );
    expect([...EMAILING_OPERATIONS]).toEqual(['SignUp', 'ResendConfirmationCode', 'ForgotPassword']);

    expect(calls.Action).toEqual({ Block: {} });
    expect(calls.Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'IP',
      Limit: userPoolProtection.callsPerClientIp.limit,
      EvaluationWindowSec: userPoolProtection.callsPerClientIp.windowSeconds,
    });
    // A person needs a handful of codes; the ceiling on all calls must leave room for token refreshes.
    expect(userPoolProtection.emailingCallsPerClientIp.limit).toBeLessThanOrEqual(10);
    expect(userPoolProtection.callsPerClientIp.limit).toBeGreaterThan(userPoolProtection.emailingCallsPerClientIp.limit);
  });

  it('without an SES sender (prod: -c sesFromEmail=cognito) the pool uses Cognito’s own', () => {
    const [, pool] = only(stage, 'AWS::Cognito::UserPool');
    expect(pool.Properties.EmailConfiguration).toEqual({ EmailSendingAccount: 'COGNITO_DEFAULT' });
  });

  it('access and ID tokens live 5 minutes (Cognito’s minimum), the refresh token a day, and sign-out can revoke it', () => {
    const [, client] = only(stage, 'AWS::Cognito::UserPoolClient');
    expect(ACCESS_TOKEN_VALIDITY_MINUTES).toBe(5);
    expect(client.Properties).toMatchObject({
      AccessTokenValidity: 5,
      IdTokenValidity: 5,
      RefreshTokenValidity: 24 * 60,
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'minutes' },
      EnableTokenRevocation: true,
    });
  });

  it('the app client allows only USER_PASSWORD_AUTH and refresh tokens, and no OAuth flow, scope or callback', () => {
    const [poolId] = only(stage, 'AWS::Cognito::UserPool');
    const [, client] = only(stage, 'AWS::Cognito::UserPoolClient');
    expect(referencedId(client.Properties.UserPoolId)).toBe(poolId);
    expect((client.Properties.ExplicitAuthFlows as string[]).sort()).toEqual(['ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_USER_PASSWORD_AUTH']);
    expect(client.Properties.AllowedOAuthFlowsUserPoolClient).not.toBe(true);
    for (const property of ['AllowedOAuthFlows', 'AllowedOAuthScopes', 'CallbackURLs', 'LogoutURLs', 'DefaultRedirectURI']) {
      expect(client.Properties).not.toHaveProperty(property);
    }
    expect(client.Properties.PreventUserExistenceErrors).toBe('ENABLED');
  });
});

describe('the email sender setting', () => {
  it('-c sesFromEmail sends through SES from that verified address, or from the verified domain of -c sesVerifiedDomain', () => {
    // dev: -c sesFromEmail=no-reply@example.com; prod: the same with -c sesVerifiedDomain=example.com.
    const byAddress = only(variant('devWithOptions'), 'AWS::Cognito::UserPool')[1].Properties.EmailConfiguration;
    expect(byAddress).toMatchObject({ EmailSendingAccount: 'DEVELOPER', From: 'no-reply@example.com' });
    expect(JSON.stringify(byAddress)).toMatch(/:ses:.*:identity\/no-reply@example\.com"/);

    const byDomain = only(variant('prodWithOptions'), 'AWS::Cognito::UserPool')[1].Properties.EmailConfiguration;
    expect(byDomain).toMatchObject({ EmailSendingAccount: 'DEVELOPER', From: 'no-reply@example.com' });
    expect(JSON.stringify(byDomain)).toMatch(/:ses:.*:identity\/example\.com"/);
  });

  it("refuses prod while config/prod.json holds sesFromEmail's placeholder; dev and staging say cognito", () => {
    expect(() => stageConfig('prod', { alarmEmail: 'none' })).toThrow(
      /^sesFromEmail: config\/prod\.json still holds the placeholder "<.*>"; write the real value there, or give one for this deploy: -c sesFromEmail=…$/,
    );
    expect(stageConfig('prod', { alarmEmail: 'none', sesFromEmail: COGNITO_SENDER }).sesSender).toBeUndefined();
    expect(stageConfig('prod', { alarmEmail: 'none', sesFromEmail: 'no-reply@example.com' }).sesSender).toEqual({
      fromEmail: 'no-reply@example.com',
    });
    expect(stageConfig('staging').sesSender).toBeUndefined();
    expect(stageConfig('dev', { sesFromEmail: COGNITO_SENDER }).sesSender).toBeUndefined();
  });

  it('refuses an address without @, a verified domain that is not the address’s, and a domain without an address', () => {
    expect(() => stageConfig('staging', { sesFromEmail: 'no-reply' })).toThrow(/sesFromEmail: "no-reply" is not an email address/);
    expect(() => stageConfig('staging', { sesFromEmail: 'no-reply@mail.example.com', sesVerifiedDomain: 'example.com' })).toThrow(
      /sesVerifiedDomain: "example.com" is not the domain of sesFromEmail/,
    );
    expect(() => stageConfig('staging', { sesVerifiedDomain: 'example.com' })).toThrow(/sesVerifiedDomain: given without sesFromEmail/);
    expect(() => stageConfig('prod', { alarmEmail: 'none', sesFromEmail: COGNITO_SENDER, sesVerifiedDomain: 'example.com' })).toThrow(
      /sesVerifiedDomain: given without sesFromEmail/,
    );
  });
});
