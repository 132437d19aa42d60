import { STAGES } from '#shared/stages';
import { referencedId, resourcesOfType, synth, type Resource } from '../support/synth';

const only = (stage: (typeof STAGES)[number], type: string): [string, Resource] => {
  const found = [...resourcesOfType(synth(stage).template, type)];
  expect(found).toHaveLength(1);
  return found[0] as [string, Resource];
};

describe.each(STAGES)('%s stage developer portal', (stage) => {
  it('the user pool lets anyone sign up with an email address, verified by a code, under a 12-character password rule', () => {
    const [, pool] = only(stage, 'AWS::Cognito::UserPool');
    expect(pool.Properties).toMatchObject({
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      Policies: {
        PasswordPolicy: { MinimumLength: 12, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: false },
      },
      VerificationMessageTemplate: { DefaultEmailOption: 'CONFIRM_WITH_CODE' },
      MfaConfiguration: 'OFF',
    });
  });

  it('users are kept like the tables: retained outside dev, deletion-protected in prod', () => {
    const [, pool] = only(stage, 'AWS::Cognito::UserPool');
    expect(pool.DeletionPolicy).toBe(stage === 'dev' ? 'Delete' : 'Retain');
    expect(pool.Properties.DeletionProtection).toBe(stage === 'prod' ? 'ACTIVE' : 'INACTIVE');
  });

  it('the portal app client has no secret, signs in with USER_PASSWORD_AUTH and refresh tokens only, and hides whether a user exists', () => {
    const [poolId] = only(stage, 'AWS::Cognito::UserPool');
    const [, client] = only(stage, 'AWS::Cognito::UserPoolClient');
    expect(client.Properties).toMatchObject({
      UserPoolId: { Ref: poolId },
      GenerateSecret: false,
      PreventUserExistenceErrors: 'ENABLED',
      EnableTokenRevocation: true,
      AccessTokenValidity: 5,
    });
    expect((client.Properties.ExplicitAuthFlows as string[]).sort()).toEqual(['ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_USER_PASSWORD_AUTH']);
  });

  it('the site bucket is private and encrypted, and only this distribution may read it (origin access control)', () => {
    const [bucketId, bucket] = only(stage, 'AWS::S3::Bucket');
    const [distributionId, distribution] = only(stage, 'AWS::CloudFront::Distribution');
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(JSON.stringify(bucket.Properties.BucketEncryption)).toContain('AES256');
    const [, policy] =
      [...resourcesOfType(synth(stage).template, 'AWS::S3::BucketPolicy')].find(
        ([, candidate]) => referencedId(candidate.Properties.Bucket) === bucketId,
      ) ?? [];
    const statements = (policy?.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Action: 's3:GetObject',
        Condition: {
          StringEquals: {
            'AWS:SourceArn': expect.objectContaining({
              'Fn::Join': expect.arrayContaining([expect.arrayContaining([{ Ref: distributionId }])]),
            }),
          },
        },
      }),
    );
    const config = distribution.Properties.DistributionConfig as {
      DefaultRootObject: string;
      Origins: { OriginAccessControlId?: unknown; S3OriginConfig?: { OriginAccessIdentity: string } }[];
      DefaultCacheBehavior: { ViewerProtocolPolicy: string; ResponseHeadersPolicyId: unknown };
    };
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.Origins[0]?.OriginAccessControlId).toBeDefined();
    expect(config.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
  });

  it('the site cannot be framed (the Content-Security-Policy: test/infra/stack/portal-csp.ts)', () => {
    const [, headers] = only(stage, 'AWS::CloudFront::ResponseHeadersPolicy');
    const security = (headers.Properties.ResponseHeadersPolicyConfig as { SecurityHeadersConfig: Record<string, Record<string, unknown>> })
      .SecurityHeadersConfig;
    expect(security.FrameOptions).toMatchObject({ FrameOption: 'DENY' });
  });

  it("the deployment uploads the site with this stage's config.json and clears CloudFront's cache", () => {
    const [, deployment] = only(stage, 'Custom::CDKBucketDeployment');
    expect(deployment.Properties).toMatchObject({ Prune: true, DistributionPaths: ['/*'] });
    const markers = JSON.stringify(deployment.Properties.SourceMarkers);
    for (const output of ['UserPool', 'PortalClient', 'AccountApi', 'PetsApi', 'MessagesApi']) expect(markers).toContain(output);
  });
});
