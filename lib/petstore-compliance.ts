import { Aspects, Stack, type IAspect, type RemovalPolicy } from 'aws-cdk-lib';
import { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { AnyPrincipal, Effect, PolicyStatement, ServicePrincipal, type IRole } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { CfnPermission } from 'aws-cdk-lib/aws-lambda';
import { CfnLogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IConstruct } from 'constructs';

/**
 * `compliance: control-tower` (docs/compliance.md): what AWS Control Tower's proactive controls ask of this design.
 * One customer-managed key per stack, rotated yearly, encrypts every table (CT.DYNAMODB.PR.2) and log group
 * (CT.CLOUDWATCH.PR.3); every log group keeps a year at least (CT.CLOUDWATCH.PR.2); every Lambda permission names
 * the account it admits calls from (CT.LAMBDA.PR.2). Applied to the finished stack, whichever construct made the
 * resource. `tableUsers`: the roles that read or write a table, which DynamoDB then asks KMS for on their behalf.
 */
export function applyControlTower(stack: Stack, props: { readonly tableUsers: readonly IRole[]; readonly removalPolicy: RemovalPolicy }) {
  // Kept with the tables it encrypts: a retained table without its key cannot be read.
  const key = new Key(stack, 'ComplianceKey', {
    description: `${stack.stackName}: tables and log groups (compliance: control-tower)`,
    enableKeyRotation: true,
    removalPolicy: props.removalPolicy,
  });
  // CloudWatch Logs encrypts with the key itself, for this account's log groups only.
  key.addToResourcePolicy(
    new PolicyStatement({
      principals: [new ServicePrincipal(`logs.${stack.region}.amazonaws.com`)],
      actions: ['kms:Encrypt', 'kms:Decrypt', 'kms:ReEncryptFrom', 'kms:ReEncryptTo', 'kms:GenerateDataKey', 'kms:DescribeKey'],
      resources: ['*'],
      conditions: {
        ArnLike: { 'kms:EncryptionContext:aws:logs:arn': `arn:${stack.partition}:logs:${stack.region}:${stack.account}:log-group:*` },
      },
    }),
  );
  // CT.KMS.PR.3: grants of this key only for AWS services (DynamoDB makes its own).
  key.addToResourcePolicy(
    new PolicyStatement({
      effect: Effect.DENY,
      principals: [new AnyPrincipal()],
      actions: ['kms:CreateGrant'],
      resources: ['*'],
      conditions: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' } },
    }),
  );
  const viaDynamoDb = { StringEquals: { 'kms:ViaService': `dynamodb.${stack.region}.amazonaws.com` } };
  for (const role of props.tableUsers) {
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey', 'kms:DescribeKey'],
        resources: [key.keyArn],
        conditions: viaDynamoDb,
      }),
    );
  }
  const controls: IAspect = {
    visit(node: IConstruct) {
      if (node instanceof CfnTable) node.sseSpecification = { sseEnabled: true, sseType: 'KMS', kmsMasterKeyId: key.keyArn };
      if (node instanceof CfnLogGroup) {
        node.kmsKeyId = key.keyArn;
        node.retentionInDays = Math.max(node.retentionInDays ?? 0, RetentionDays.ONE_YEAR);
      }
      // A literal account where the stack knows it (every deploy): the control reads the template as written.
      if (node instanceof CfnPermission) node.sourceAccount ??= Stack.of(node).account;
    },
  };
  Aspects.of(stack).add(controls);
}
