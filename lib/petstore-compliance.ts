import { Aspects, Duration, RemovalPolicy, Stack, Validations, type IAspect } from 'aws-cdk-lib';
import type { DistributionProps } from 'aws-cdk-lib/aws-cloudfront';
import { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { AnyPrincipal, Effect, PolicyStatement, ServicePrincipal, type IRole } from 'aws-cdk-lib/aws-iam';
import { Key, type IKey } from 'aws-cdk-lib/aws-kms';
import { CfnPermission } from 'aws-cdk-lib/aws-lambda';
import { CfnLogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { IConstruct } from 'constructs';
import type { StageConfig } from './stage-config';

/** What a control-tower stack makes before its constructs, which encrypt and log with them. */
export interface ControlTowerBasics {
  /** `ComplianceKey`: tables, log groups, the portal's files and the CloudFront logs. */
  readonly key: Key;
  /** Every distribution's standard logs (CT.CLOUDFRONT.PR.5), kept as long as the log groups. */
  readonly accessLogs: IBucket;
}

/**
 * `compliance: control-tower` (docs/compliance.md): one customer-managed key per stack, rotated yearly, and the bucket
 * CloudFront writes its standard logs to. CT.CLOUDFRONT.PR.5 reads `Logging.Bucket`, which only standard logging (legacy)
 * fills: its writer, the `awslogsdelivery` account, is let in through the bucket's ACL, so ACLs stay on
 * (BUCKET_OWNER_PREFERRED; CT.S3.PR.5 refuses only an `AccessControl` on the bucket).
 */
export function controlTowerBasics(
  stack: Stack,
  config: Pick<StageConfig, 'removalPolicy' | 'logRemovalPolicy' | 'logRetention'>,
): ControlTowerBasics {
  const kept = [config.removalPolicy, config.logRemovalPolicy].includes(RemovalPolicy.RETAIN);
  // Kept while anything it encrypts is: a retained table, log group or log file cannot be read without it.
  const key = new Key(stack, 'ComplianceKey', {
    description: `${stack.stackName}: tables, logs and the portal's files (compliance: control-tower)`,
    enableKeyRotation: true,
    removalPolicy: kept ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
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
  // CloudFront's log delivery encrypts each log file with the key: the statement its developer guide gives for SSE-KMS buckets.
  key.addToResourcePolicy(
    new PolicyStatement({
      principals: [new ServicePrincipal('delivery.logs.amazonaws.com')],
      actions: ['kms:GenerateDataKey*'],
      resources: ['*'],
    }),
  );
  const destroyed = config.logRemovalPolicy === RemovalPolicy.DESTROY;
  const accessLogs = new Bucket(stack, 'CloudFrontLogs', {
    encryption: BucketEncryption.KMS,
    encryptionKey: key,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    // A log deleted by hand can be restored for a month; CloudFront never overwrites one.
    versioned: true,
    lifecycleRules: [{ expiration: Duration.days(config.logRetention), noncurrentVersionExpiration: Duration.days(30) }],
    removalPolicy: config.logRemovalPolicy,
    autoDeleteObjects: destroyed,
  });
  Validations.of(accessLogs).acknowledge({
    id: 'AwsSolutions-S1',
    reason: 'The log bucket itself: its own access logs would go to another bucket, which would need logs in turn.',
  });
  // Bucket's `isWebsite: boolean | undefined` is not IBucket's optional one under exactOptionalPropertyTypes.
  return { key, accessLogs: accessLogs as IBucket };
}

/** A distribution's standard logs under `<prefix>/` of the access log bucket, when the stage has one. */
export const accessLogging = (
  accessLogs: IBucket | undefined,
  prefix: string,
): Pick<DistributionProps, 'enableLogging' | 'logBucket' | 'logFilePrefix'> =>
  accessLogs ? { enableLogging: true, logBucket: accessLogs, logFilePrefix: `${prefix}/` } : {};

/**
 * What AWS Control Tower's proactive controls ask of the finished stack, whichever construct made the resource: every
 * table (CT.DYNAMODB.PR.2) and log group (CT.CLOUDWATCH.PR.3) encrypted with the key; every log group keeps a year at
 * least (CT.CLOUDWATCH.PR.2); every Lambda permission names the account it admits calls from (CT.LAMBDA.PR.2).
 * `tableUsers`: the roles that read or write a table, which DynamoDB then asks KMS for on their behalf.
 */
export function applyControlTower(stack: Stack, props: { readonly key: IKey; readonly tableUsers: readonly IRole[] }) {
  const { key } = props;
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
