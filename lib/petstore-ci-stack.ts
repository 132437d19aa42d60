/**
 * PetStore-ci (docs/pipeline.md): GitHub's OIDC provider and the roles .github/workflows/ assume, each trusting one
 * kind of this repository's tokens and allowed only the CDK bootstrap roles (and, to deploy, what `npm run smoke`
 * does). Kept out of bin/app.ts so that a stage's `deploy --all` can never change the roles it deploys with.
 */
import { DefaultStackSynthesizer, CfnOutput, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { OidcProviderNative, OpenIdConnectPrincipal, PolicyStatement, Role } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { stackNameOf } from '#shared/stages';

const GITHUB_ISSUER = 'token.actions.githubusercontent.com';
const QUALIFIER = DefaultStackSynthesizer.DEFAULT_QUALIFIER;
/** The logical id of a stage's API-keys table starts so (lib/petstore-stack.ts: Tables/ApiKeys). */
export const API_KEYS_TABLE_PREFIX = 'TablesApiKeys';

/** The stage's stack (its id ends in a generated suffix) and its API-keys table (`<stack>-TablesApiKeys<hash>-<suffix>`). */
const smokeResources = (stack: string, partition: string, region: string, account: string): [string, string] => [
  `arn:${partition}:cloudformation:${region}:${account}:stack/${stack}/*`,
  `arn:${partition}:dynamodb:${region}:${account}:table/${stack}-${API_KEYS_TABLE_PREFIX}*`,
];

export interface CiConfig {
  /** The GitHub repository whose workflows may assume the roles, as `<owner>/<name>`. */
  readonly repository: string;
  /** Use the account's GitHub OIDC provider rather than create one (IAM holds one per URL). @default false */
  readonly oidcProviderExists?: boolean;
}

/** config/ci.json, refused with the key to fill in while it holds the placeholder. */
export function parseCiConfig(file: { repository?: unknown; oidcProviderExists?: unknown }): CiConfig {
  const { repository, oidcProviderExists } = file;
  if (typeof repository !== 'string' || !/^[\w.-]+\/[\w.-]+$/.test(repository)) {
    throw new Error(`config/ci.json: set "repository" to the GitHub repository's <owner>/<name> (it is ${JSON.stringify(repository)})`);
  }
  return { repository, oidcProviderExists: oidcProviderExists === true };
}

export class PetStoreCiStack extends Stack {
  constructor(scope: Construct, id: string, props: StackProps & { readonly config: CiConfig }) {
    super(scope, id, props);
    const { repository, oidcProviderExists } = props.config;
    const iam = `arn:${this.partition}:iam::${this.account}`;
    const provider = oidcProviderExists
      ? OidcProviderNative.fromOidcProviderArn(this, 'GitHub', `${iam}:oidc-provider/${GITHUB_ISSUER}`)
      : new OidcProviderNative(this, 'GitHub', { url: `https://${GITHUB_ISSUER}`, clientIds: ['sts.amazonaws.com'] });
    const bootstrapRoles = (kinds: readonly string[]): string[] =>
      [this.region, 'us-east-1'].flatMap((region) =>
        kinds.map((kind) => `${iam}:role/cdk-${QUALIFIER}-${kind}-role-${this.account}-${region}`),
      );
    /** A role for the tokens whose `sub` is `repo:<repository>:<subject>`; its ARN is output as `<id>RoleArn`. */
    const role = (id: string, subject: string, kinds: readonly string[]): Role => {
      const assumedBy = new OpenIdConnectPrincipal(provider, {
        StringEquals: { [`${GITHUB_ISSUER}:aud`]: 'sts.amazonaws.com', [`${GITHUB_ISSUER}:sub`]: `repo:${repository}:${subject}` },
      });
      const created = new Role(this, id, { assumedBy, description: `GitHub Actions of ${repository} (${subject})` });
      created.addToPolicy(new PolicyStatement({ actions: ['sts:AssumeRole'], resources: bootstrapRoles(kinds) }));
      new CfnOutput(this, `${id}RoleArn`, { value: created.roleArn });
      return created;
    };
    // `cdk diff --no-change-set` reads the deployed template through the lookup role alone.
    role('Diff', 'pull_request', ['lookup']);
    for (const [stage, id, subject] of [
      ['staging', 'DeployStaging', 'ref:refs/heads/main'],
      ['prod', 'DeployProd', 'environment:production'],
    ] as const) {
      const deploy = role(id, subject, ['deploy', 'file-publishing', 'lookup']);
      // npm run smoke: the stack's outputs, then a temporary key put into its API-keys table, listed and revoked.
      const [stack, table] = smokeResources(stackNameOf(stage), this.partition, this.region, this.account);
      deploy.addToPolicy(new PolicyStatement({ actions: ['cloudformation:DescribeStacks'], resources: [stack] }));
      deploy.addToPolicy(
        new PolicyStatement({
          actions: ['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:Scan'],
          resources: [table],
        }),
      );
      for (const resource of smokeResources(stackNameOf(stage), '<AWS::Partition>', '<AWS::Region>', '<AWS::AccountId>')) {
        Validations.of(deploy).acknowledge({
          id: `AwsSolutions-IAM5[Resource::${resource}]`,
          reason: "A stack's id and a table's name end in a suffix CloudFormation generates; the rest of each is fixed.",
        });
      }
    }
  }
}
