/**
 * `compliance: control-tower` (docs/compliance.md, lib/petstore-compliance.ts): what AWS Control Tower's proactive
 * controls ask of the template. One synthesis of staging with the option; the committed staging shows the default.
 */
import { CfnDeletionPolicy, RemovalPolicy, Stack, type CfnResource } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { controlTowerBasics } from '#lib/petstore-compliance';
import { stageConfig } from '#lib/stage-config';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { functionRecipe } from '#shared/function-recipe';
import { functionNamed, referencedId, resourcesOfType, statementsOf, synth, variant, type Resource } from '../support/synth';

interface DistributionConfig {
  readonly DefaultRootObject?: string;
  readonly Origins: readonly { readonly DomainName: unknown }[];
  readonly Logging?: { readonly Bucket: unknown; readonly Prefix?: string };
}
const configOf = (distribution: Resource) => distribution.Properties.DistributionConfig as DistributionConfig;
const kmsEncrypted = (keyArn: unknown) => ({
  ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: keyArn } }],
});

describe('compliance: control-tower', () => {
  const { template } = variant('stagingControlTower');
  const keys = [...resourcesOfType(template, 'AWS::KMS::Key')];
  const [keyId, key] = keys[0] ?? [];
  const keyArn = { 'Fn::GetAtt': [keyId, 'Arn'] };

  it('one customer-managed key, rotated, kept with the tables it encrypts', () => {
    expect(keys).toHaveLength(1);
    expect(key?.Properties.EnableKeyRotation).toBe(true);
    // Staging keeps its tables (retainData), so the key stays with them.
    expect(key?.DeletionPolicy).toBe('Retain');
  });

  it('keeps the key while anything it encrypts is kept: the tables (retainData) or the logs (retainLogs)', () => {
    const deletionPolicy = (removalPolicy: RemovalPolicy, logRemovalPolicy: RemovalPolicy) => {
      const { key } = controlTowerBasics(new Stack(), { removalPolicy, logRemovalPolicy, logRetention: RetentionDays.ONE_YEAR });
      return (key.node.defaultChild as CfnResource).cfnOptions.deletionPolicy;
    };
    expect(deletionPolicy(RemovalPolicy.DESTROY, RemovalPolicy.DESTROY)).toBe(CfnDeletionPolicy.DELETE);
    expect(deletionPolicy(RemovalPolicy.RETAIN, RemovalPolicy.DESTROY)).toBe(CfnDeletionPolicy.RETAIN);
    expect(deletionPolicy(RemovalPolicy.DESTROY, RemovalPolicy.RETAIN)).toBe(CfnDeletionPolicy.RETAIN);
  });

  it('encrypts every table with that key (CT.DYNAMODB.PR.2)', () => {
    const tables = [...resourcesOfType(template, 'AWS::DynamoDB::Table').values()];
    expect(tables).toHaveLength(5);
    for (const table of tables)
      expect(table.Properties.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: keyArn });
  });

  it('encrypts every log group with it and keeps a year at least: staging’s 30 days become 365 (CT.CLOUDWATCH.PR.2, .3)', () => {
    const groups = [...resourcesOfType(template, 'AWS::Logs::LogGroup').values()];
    expect(groups.length).toBeGreaterThan(DEPLOYED_FUNCTIONS.length);
    for (const group of groups) {
      expect(group.Properties.KmsKeyId).toEqual(keyArn);
      expect(group.Properties.RetentionInDays).toBeGreaterThanOrEqual(365);
    }
  });

  it('names the source account on every Lambda permission (CT.LAMBDA.PR.2)', () => {
    const permissions = [...resourcesOfType(template, 'AWS::Lambda::Permission').values()];
    expect(permissions.length).toBeGreaterThan(0);
    for (const permission of permissions) expect(permission.Properties.SourceAccount).toEqual({ Ref: 'AWS::AccountId' });
  });

  it("the key's policy: CloudWatch Logs for this account's log groups only, and grants for AWS services only (CT.KMS.PR.3)", () => {
    const statements = (
      key?.Properties.KeyPolicy as { Statement: { Effect: string; Principal: unknown; Action: unknown; Condition?: unknown }[] }
    ).Statement;
    const logs = statements.find((statement) => JSON.stringify(statement.Principal).includes('logs.'));
    expect(logs?.Condition).toEqual({
      ArnLike: { 'kms:EncryptionContext:aws:logs:arn': expect.objectContaining({ 'Fn::Join': expect.anything() }) },
    });
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: 'kms:CreateGrant',
        Condition: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' } },
      }),
    );
  });

  const keyStatements = () => (key?.Properties.KeyPolicy as { Statement: Record<string, unknown>[] }).Statement;
  const distributions = [...resourcesOfType(template, 'AWS::CloudFront::Distribution').values()];
  const buckets = resourcesOfType(template, 'AWS::S3::Bucket');
  const logBucketId = referencedId(configOf(distributions[0] as Resource).Logging?.Bucket) ?? 'none';

  it('every distribution, the portal’s and the front door’s three, writes standard logs to one bucket, each under its name (CT.CLOUDFRONT.PR.5)', () => {
    expect(distributions).toHaveLength(4);
    for (const distribution of distributions)
      expect(configOf(distribution).Logging?.Bucket).toEqual({ 'Fn::GetAtt': [logBucketId, 'RegionalDomainName'] });
    expect(distributions.map((distribution) => configOf(distribution).Logging?.Prefix).sort()).toEqual([
      'account/',
      'messages/',
      'pets/',
      'portal/',
    ]);
    expect(buckets.has(logBucketId)).toBe(true);
  });

  it('the log bucket: the key (which CloudFront’s log delivery may encrypt with), ACLs on for that delivery, versioned, private, TLS only, a year of logs', () => {
    const bucket = buckets.get(logBucketId);
    expect(bucket?.Properties).toMatchObject({
      BucketEncryption: kmsEncrypted(keyArn),
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerPreferred' }] },
      VersioningConfiguration: { Status: 'Enabled' },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
    // CT.S3.PR.5 refuses a canned ACL on the bucket; CloudFront adds its own grant when it starts logging.
    expect(bucket?.Properties.AccessControl).toBeUndefined();
    // Removed with the log groups: staging does not keep them (retainLogs).
    expect(bucket?.DeletionPolicy).toBe('Delete');
    // Staging keeps 30 days of logs; the compliance raises it to 365, as for the log groups.
    expect((bucket?.Properties.LifecycleConfiguration as { Rules: unknown[] }).Rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', ExpirationInDays: 365 }),
    );
    const policy = [...resourcesOfType(template, 'AWS::S3::BucketPolicy').values()].find(
      (candidate) => referencedId(candidate.Properties.Bucket) === logBucketId,
    );
    expect((policy?.Properties.PolicyDocument as { Statement: unknown[] }).Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    expect(keyStatements()).toContainEqual({
      Effect: 'Allow',
      Principal: { Service: 'delivery.logs.amazonaws.com' },
      Action: 'kms:GenerateDataKey*',
      Resource: '*',
    });
  });

  it('the portal’s files are encrypted with the key (CT.S3.PR.10): CloudFront’s origin access may decrypt with it, the deployment write with it', () => {
    const portal = distributions.find((distribution) => configOf(distribution).DefaultRootObject === 'index.html');
    const portalBucketId = referencedId(configOf(portal as Resource).Origins[0]?.DomainName) ?? 'none';
    expect(buckets.get(portalBucketId)?.Properties.BucketEncryption).toEqual(kmsEncrypted(keyArn));
    // This account's distributions only; the bucket's own policy admits the portal's alone (test/infra/stack/portal.ts).
    expect(keyStatements()).toContainEqual({
      Effect: 'Allow',
      Principal: { Service: 'cloudfront.amazonaws.com' },
      Action: 'kms:Decrypt',
      Resource: '*',
      Condition: { ArnLike: { 'AWS:SourceArn': expect.objectContaining({ 'Fn::Join': expect.anything() }) } },
    });
    const [, deployment] = [...resourcesOfType(template, 'Custom::CDKBucketDeployment')][0] ?? [];
    const deployer = referencedId(deployment?.Properties.ServiceToken) ?? 'none';
    const onKey = statementsOf(template, deployer).filter((statement) => JSON.stringify(statement.Resource) === JSON.stringify([keyArn]));
    expect(onKey.flatMap((statement) => statement.Action)).toEqual(
      expect.arrayContaining(['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey*']),
    );
  });

  it('lets a function that uses a table use the key through DynamoDB only, and no other function', () => {
    const facts = { tableName: () => '', logLevel: 'INFO' };
    for (const fn of DEPLOYED_FUNCTIONS) {
      const kms = statementsOf(template, functionNamed(template, fn.name)[0]).filter((statement) =>
        statement.Action.some((action) => action.startsWith('kms:')),
      );
      if (functionRecipe(fn, facts).tables.length === 0) expect({ fn: fn.name, kms }).toEqual({ fn: fn.name, kms: [] });
      else
        expect({ fn: fn.name, kms }).toEqual({
          fn: fn.name,
          kms: [
            {
              Effect: 'Allow',
              Action: ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey'],
              Resource: [keyArn],
              Condition: { StringEquals: { 'kms:ViaService': 'dynamodb.eu-west-1.amazonaws.com' } },
            },
          ],
        });
    }
  });
});

describe('compliance: none, the default', () => {
  it('has no key of its own: tables on AWS-owned encryption, log groups for the stage’s own days, permissions as CDK writes them', () => {
    const { template } = synth('staging');
    expect(resourcesOfType(template, 'AWS::KMS::Key').size).toBe(0);
    for (const table of resourcesOfType(template, 'AWS::DynamoDB::Table').values())
      expect(table.Properties.SSESpecification).toBeUndefined();
    const groups = [...resourcesOfType(template, 'AWS::Logs::LogGroup').values()];
    for (const group of groups) expect(group.Properties.KmsKeyId).toBeUndefined();
    expect(groups.filter((group) => group.Properties.RetentionInDays === 30).length).toBeGreaterThan(DEPLOYED_FUNCTIONS.length);
    for (const permission of resourcesOfType(template, 'AWS::Lambda::Permission').values())
      expect(referencedId(permission.Properties.SourceAccount)).toBeUndefined();
  });

  it('the portal’s files on S3-managed keys, and no distribution logs, nor a bucket for them (the portal, the front door)', () => {
    for (const { template } of [synth('staging'), variant('frontDoor')]) {
      const distributions = [...resourcesOfType(template, 'AWS::CloudFront::Distribution').values()];
      expect(distributions.length).toBeGreaterThan(0);
      for (const distribution of distributions) expect(configOf(distribution).Logging).toBeUndefined();
      const buckets = [...resourcesOfType(template, 'AWS::S3::Bucket').values()];
      expect(buckets).toHaveLength(1);
      expect(JSON.stringify(buckets[0]?.Properties.BucketEncryption)).toContain('AES256');
    }
  });

  it('refuses any other value', () => {
    expect(() => stageConfig('dev', { compliance: 'strict' })).toThrow('compliance: "strict" is not one of none, control-tower');
  });
});
