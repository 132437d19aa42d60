/**
 * `compliance: control-tower` (docs/compliance.md, lib/petstore-compliance.ts): what AWS Control Tower's proactive
 * controls ask of the template. One synthesis of staging with the option; the committed staging shows the default.
 */
import { stageConfig } from '#lib/stage-config';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { functionRecipe } from '#shared/function-recipe';
import { functionNamed, referencedId, resourcesOfType, statementsOf, synth, variant } from '../support/synth';

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
              Condition: { StringEquals: { 'kms:ViaService': expect.objectContaining({ 'Fn::Join': expect.anything() }) } },
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

  it('refuses any other value', () => {
    expect(() => stageConfig('dev', { compliance: 'strict' })).toThrow('compliance: "strict" is not one of none, control-tower');
  });
});
