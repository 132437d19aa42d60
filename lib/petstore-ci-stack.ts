/**
 * PetStore-ci (docs/pipeline.md): GitHub's OIDC provider and the roles .github/workflows/ assume in one account, for
 * the stages that account holds (one account per stage by default, or one for all). Each role trusts one kind of this
 * repository's tokens. A deploy role may use the CDK bootstrap roles, do what `npm run smoke` does and record the
 * commit its stage runs; the pull request's role may only read its stages' templates and stack state. Kept out of
 * bin/app.ts so that a stage's `deploy --all` can never change the roles it deploys with.
 */
import { DefaultStackSynthesizer, CfnOutput, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { OidcProviderNative, OpenIdConnectPrincipal, PolicyStatement, Role } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { stackNameOf, type StageName } from '#shared/stages';

const GITHUB_ISSUER = 'token.actions.githubusercontent.com';
const QUALIFIER = DefaultStackSynthesizer.DEFAULT_QUALIFIER;
/** The logical id of a stage's API-keys table starts so (lib/petstore-stack.ts: Tables/ApiKeys). */
export const API_KEYS_TABLE_PREFIX = 'TablesApiKeys';

/** The stage's stack (its id ends in a generated suffix) and its API-keys table (`<stack>-TablesApiKeys<hash>-<suffix>`). */
const smokeResources = (stack: string, partition: string, region: string, account: string): [string, string] => [
  `arn:${partition}:cloudformation:${region}:${account}:stack/${stack}/*`,
  `arn:${partition}:dynamodb:${region}:${account}:table/${stack}-${API_KEYS_TABLE_PREFIX}*`,
];

/** The stages GitHub Actions deploys; dev is deployed by hand. */
export const PIPELINE_STAGES = ['staging', 'prod'] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number] & StageName;

/** The SSM parameter the workflow keeps the commit a stage runs in (scripts/promotion-check.ts compares against it). */
export const deployedCommitParameter = (stage: PipelineStage): string => `/petstore/${stage}/deployed-commit`;

/** Whose tokens may deploy a stage: main's pushes to staging, the `production` environment's jobs to prod. */
const DEPLOY_SUBJECTS: Readonly<Record<PipelineStage, string>> = {
  staging: 'ref:refs/heads/main',
  prod: 'environment:production',
};

export interface CiConfig {
  /** The GitHub repository whose workflows may assume the roles, as `<owner>/<name>`. */
  readonly repository: string;
  /** Use the account's GitHub OIDC provider rather than create one (IAM holds one per URL). @default false */
  readonly oidcProviderExists?: boolean;
  /** The stages this account holds (`-c stages=prod`): a deploy role for each, and the pull request's read of them. @default both */
  readonly stages?: readonly PipelineStage[];
}

/** config/ci.json, refused with the key to fill in while it holds the placeholder; `stages`: the `-c stages=` context. */
export function parseCiConfig(file: { repository?: unknown; oidcProviderExists?: unknown }, stages?: string): CiConfig {
  const { repository, oidcProviderExists } = file;
  if (typeof repository !== 'string' || !/^[\w.-]+\/[\w.-]+$/.test(repository)) {
    throw new Error(`config/ci.json: set "repository" to the GitHub repository's <owner>/<name> (it is ${JSON.stringify(repository)})`);
  }
  const named = stages === undefined ? [...PIPELINE_STAGES] : stages.split(',');
  const unknown = named.filter((stage) => !(PIPELINE_STAGES as readonly string[]).includes(stage));
  if (named.length === 0 || unknown.length > 0) {
    throw new Error(`-c stages=${stages ?? ''}: name the stages this account holds, among ${PIPELINE_STAGES.join(', ')}`);
  }
  return { repository, oidcProviderExists: oidcProviderExists === true, stages: named as PipelineStage[] };
}

export class PetStoreCiStack extends Stack {
  constructor(scope: Construct, id: string, props: StackProps & { readonly config: CiConfig }) {
    super(scope, id, props);
    const { repository, oidcProviderExists, stages = PIPELINE_STAGES } = props.config;
    const iam = `arn:${this.partition}:iam::${this.account}`;
    const provider = oidcProviderExists
      ? OidcProviderNative.fromOidcProviderArn(this, 'GitHub', `${iam}:oidc-provider/${GITHUB_ISSUER}`)
      : new OidcProviderNative(this, 'GitHub', { url: `https://${GITHUB_ISSUER}`, clientIds: ['sts.amazonaws.com'] });
    const bootstrapRoles = (kinds: readonly string[]): string[] =>
      [this.region, 'us-east-1'].flatMap((region) =>
        kinds.map((kind) => `${iam}:role/cdk-${QUALIFIER}-${kind}-role-${this.account}-${region}`),
      );
    /** A role for the tokens whose `sub` is `repo:<repository>:<subject>`; its ARN is output as `<id>RoleArn`. */
    const role = (id: string, subject: string): Role => {
      const assumedBy = new OpenIdConnectPrincipal(provider, {
        StringEquals: { [`${GITHUB_ISSUER}:aud`]: 'sts.amazonaws.com', [`${GITHUB_ISSUER}:sub`]: `repo:${repository}:${subject}` },
      });
      const created = new Role(this, id, { assumedBy, description: `GitHub Actions of ${repository} (${subject})` });
      new CfnOutput(this, `${id}RoleArn`, { value: created.roleArn });
      return created;
    };
    const acknowledgeSuffixes = (grantee: Role, resources: readonly string[]): void => {
      for (const resource of resources) {
        Validations.of(grantee).acknowledge({
          id: `AwsSolutions-IAM5[Resource::${resource}]`,
          reason: "A stack's id and a table's name end in a suffix CloudFormation generates; the rest of each is fixed.",
        });
      }
    };
    const stackArn = (partition: string, region: string, account: string, name: string): string =>
      `arn:${partition}:cloudformation:${region}:${account}:stack/${name}/*`;

    // `cdk diff --no-change-set` reads each deployed template with DescribeStacks and GetTemplate (the original
    // template: secrets stay dynamic references). Denied the CDK lookup role (AWS's ReadOnlyAccess: items, logs,
    // function settings), the CLI warns and reads with these credentials, which are for the stack's account.
    const diff = role('Diff', 'pull_request');
    const read = (partition: string, region: string, account: string): string[] =>
      stages.flatMap((stage) => [
        stackArn(partition, region, account, stackNameOf(stage)),
        stackArn(partition, 'us-east-1', account, `${stackNameOf(stage)}-edge`),
      ]);
    diff.addToPolicy(
      new PolicyStatement({
        actions: ['cloudformation:DescribeStacks', 'cloudformation:GetTemplate'],
        resources: read(this.partition, this.region, this.account),
      }),
    );
    acknowledgeSuffixes(diff, read('<AWS::Partition>', '<AWS::Region>', '<AWS::AccountId>'));

    for (const stage of stages) {
      const deploy = role(stage === 'prod' ? 'DeployProd' : 'DeployStaging', DEPLOY_SUBJECTS[stage]);
      deploy.addToPolicy(
        new PolicyStatement({ actions: ['sts:AssumeRole'], resources: bootstrapRoles(['deploy', 'file-publishing', 'lookup']) }),
      );
      // npm run smoke: the stack's outputs, then a temporary key put into its API-keys table, listed and revoked.
      const [stack, table] = smokeResources(stackNameOf(stage), this.partition, this.region, this.account);
      deploy.addToPolicy(new PolicyStatement({ actions: ['cloudformation:DescribeStacks'], resources: [stack] }));
      deploy.addToPolicy(
        new PolicyStatement({
          actions: ['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:Scan'],
          resources: [table],
        }),
      );
      // scripts/promotion-check.ts: the commit the stage runs, read before a deploy and written after it.
      deploy.addToPolicy(
        new PolicyStatement({
          actions: ['ssm:GetParameter', 'ssm:PutParameter'],
          resources: [`arn:${this.partition}:ssm:${this.region}:${this.account}:parameter${deployedCommitParameter(stage)}`],
        }),
      );
      acknowledgeSuffixes(deploy, smokeResources(stackNameOf(stage), '<AWS::Partition>', '<AWS::Region>', '<AWS::AccountId>'));
    }
  }
}
