import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEYS_TABLE_PREFIX, parseCiConfig, PetStoreCiStack, type CiConfig } from '#lib/petstore-ci-stack';
import { PROJECT_ROOT } from '../support/project-root';
import { referencedId, resourcesOfType, synth, tableId } from '../support/synth';

const REPOSITORY = 'octo-org/petstore';
const ISSUER = 'token.actions.githubusercontent.com';

const CDK_JSON_CONTEXT = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;

function synthCi(config: CiConfig): { stack: PetStoreCiStack; template: Template } {
  const outdir = mkdtempSync(join(tmpdir(), 'petstore-ci-synth-'));
  try {
    const stack = new PetStoreCiStack(new App({ outdir, context: CDK_JSON_CONTEXT }), 'PetStore-ci', { config });
    return { stack, template: Template.fromStack(stack) };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** A CloudFormation string as text: `{ Ref: 'AWS::Region' }` → `<AWS::Region>`, joins flattened. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  const { Ref, 'Fn::Join': join } = value as { Ref?: string; 'Fn::Join'?: [string, unknown[]] };
  if (Ref) return `<${Ref}>`;
  if (join) return join[1].map(text).join(join[0]);
  throw new Error(`not a string: ${JSON.stringify(value)}`);
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

interface RoleView {
  readonly trust: unknown[];
  /** `<action> on <resource>`, sorted. */
  readonly grants: string[];
}

/** Each role by its construct id (Diff, DeployStaging, DeployProd): its trust statements and every grant of its policies. */
function rolesOf(template: Template): Map<string, RoleView> {
  const policies = [...resourcesOfType(template, 'AWS::IAM::Policy').values()];
  return new Map(
    [...resourcesOfType(template, 'AWS::IAM::Role')].map(([id, role]) => {
      const statements = policies
        .filter((policy) => list(policy.Properties.Roles).some((ref) => referencedId(ref) === id))
        .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }).Statement);
      const grants = statements.flatMap(({ Action, Resource }) =>
        list(Action).flatMap((action) => list(Resource).map((resource) => `${String(action)} on ${text(resource)}`)),
      );
      const trust = (role.Properties.AssumeRolePolicyDocument as { Statement: unknown[] }).Statement;
      return [id.replace(/[0-9A-F]{8}$/, ''), { trust, grants: grants.sort() }];
    }),
  );
}

const bootstrapRole = (kind: string, region: string): string =>
  `sts:AssumeRole on arn:<AWS::Partition>:iam::<AWS::AccountId>:role/cdk-hnb659fds-${kind}-role-<AWS::AccountId>-${region}`;
const bootstrapRoles = (...kinds: string[]): string[] =>
  kinds.flatMap((kind) => [bootstrapRole(kind, '<AWS::Region>'), bootstrapRole(kind, 'us-east-1')]);
const smokeGrants = (stack: string): string[] => [
  `cloudformation:DescribeStacks on arn:<AWS::Partition>:cloudformation:<AWS::Region>:<AWS::AccountId>:stack/${stack}/*`,
  ...['GetItem', 'PutItem', 'Scan', 'UpdateItem'].map(
    (action) => `dynamodb:${action} on arn:<AWS::Partition>:dynamodb:<AWS::Region>:<AWS::AccountId>:table/${stack}-TablesApiKeys*`,
  ),
];
const commitGrants = (stage: string): string[] =>
  ['GetParameter', 'PutParameter'].map(
    (action) => `ssm:${action} on arn:<AWS::Partition>:ssm:<AWS::Region>:<AWS::AccountId>:parameter/petstore/${stage}/deployed-commit`,
  );
/** What `cdk diff --no-change-set` reads of a stage: its stack here and its edge stack in us-east-1. */
const diffGrants = (stage: string): string[] =>
  ['DescribeStacks', 'GetTemplate'].flatMap((action) => [
    `cloudformation:${action} on arn:<AWS::Partition>:cloudformation:<AWS::Region>:<AWS::AccountId>:stack/PetStore-${stage}/*`,
    `cloudformation:${action} on arn:<AWS::Partition>:cloudformation:us-east-1:<AWS::AccountId>:stack/PetStore-${stage}-edge/*`,
  ]);
/** Reads of data, logs, function settings and secrets, which ReadOnlyAccess (the CDK lookup role's) allows. */
const READS_OF_DATA = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Scan',
  'dynamodb:Query',
  'logs:GetLogEvents',
  'logs:FilterLogEvents',
  'logs:StartQuery',
  'lambda:GetFunction',
  'lambda:GetFunctionConfiguration',
  'secretsmanager:GetSecretValue',
  'cloudfront:GetDistribution',
  'cloudfront:GetDistributionConfig',
  'ssm:GetParameter',
  'kms:Decrypt',
  'sts:AssumeRole',
  's3:GetObject',
];
const actionOf = (grant: string): string => grant.slice(0, grant.indexOf(' on '));

describe('PetStore-ci: the roles GitHub Actions deploys with (bin/ci.ts)', () => {
  const { stack, template } = synthCi({ repository: REPOSITORY });
  const roles = rolesOf(template);
  const [providerId] = [...resourcesOfType(template, 'AWS::IAM::OIDCProvider').keys()];

  it("creates GitHub's OIDC provider for the STS audience, without a thumbprint (no custom resource)", () => {
    template.resourceCountIs('AWS::IAM::OIDCProvider', 1);
    expect(resourcesOfType(template, 'AWS::IAM::OIDCProvider').get(providerId ?? '')?.Properties).toEqual({
      Url: `https://${ISSUER}`,
      ClientIdList: ['sts.amazonaws.com'],
    });
    template.resourceCountIs('AWS::CloudFormation::CustomResource', 0);
    template.resourceCountIs('AWS::Lambda::Function', 0);
  });

  it.each([
    ['Diff', 'pull_request'],
    ['DeployStaging', 'ref:refs/heads/main'],
    ['DeployProd', 'environment:production'],
  ])('%s trusts only tokens of this repository whose subject is %s, for the STS audience', (role, subject) => {
    expect(roles.get(role)?.trust).toEqual([
      {
        Action: 'sts:AssumeRoleWithWebIdentity',
        Effect: 'Allow',
        Principal: { Federated: { Ref: providerId } },
        Condition: { StringEquals: { [`${ISSUER}:aud`]: 'sts.amazonaws.com', [`${ISSUER}:sub`]: `repo:${REPOSITORY}:${subject}` } },
      },
    ]);
  });

  it('one account for every stage: these three roles and no other', () => {
    expect([...roles.keys()].sort()).toEqual(['DeployProd', 'DeployStaging', 'Diff']);
  });

  it("a pull request may only read its stages' stacks (DescribeStacks, GetTemplate), nothing else: no CDK role, no data", () => {
    const grants = roles.get('Diff')?.grants ?? [];
    expect(grants).toEqual([...diffGrants('staging'), ...diffGrants('prod')].sort());
    expect(grants.map(actionOf).filter((action) => READS_OF_DATA.includes(action))).toEqual([]);
  });

  it.each([
    ['DeployStaging', 'staging'],
    ['DeployProd', 'prod'],
  ])(
    '%s may assume the CDK deploy, file-publishing and lookup roles here and in us-east-1, do what the smoke suite does to PetStore-%s, and read and record the commit it runs',
    (role, stage) => {
      expect(roles.get(role)?.grants).toEqual(
        [...bootstrapRoles('deploy', 'file-publishing', 'lookup'), ...smokeGrants(`PetStore-${stage}`), ...commitGrants(stage)].sort(),
      );
    },
  );

  it("the smoke grants name the stage's API-keys table: its logical id starts with the prefix they allow", () => {
    expect(API_KEYS_TABLE_PREFIX).toBe('TablesApiKeys');
    expect(tableId(synth('staging').template, 'apiKeys').startsWith(API_KEYS_TABLE_PREFIX)).toBe(true);
  });

  it('the AwsSolutions pack finds nothing', () => {
    const report = new AwsSolutionsChecks().validateScope(stack);
    expect(report.violations.map((violation) => `${violation.ruleName}: ${violation.violatingResources.length}`)).toEqual([]);
  });

  it("with oidcProviderExists, the roles trust the account's existing provider and none is created", () => {
    const existing = synthCi({ repository: REPOSITORY, oidcProviderExists: true }).template;
    existing.resourceCountIs('AWS::IAM::OIDCProvider', 0);
    const trust = rolesOf(existing).get('DeployProd')?.trust[0] as { Principal: { Federated: unknown } };
    expect(text(trust.Principal.Federated)).toBe(`arn:<AWS::Partition>:iam::<AWS::AccountId>:oidc-provider/${ISSUER}`);
  });
});

describe('PetStore-ci, one account per stage (-c stages=…)', () => {
  const accounts = {
    staging: rolesOf(synthCi(parseCiConfig({ repository: REPOSITORY }, 'staging')).template),
    prod: rolesOf(synthCi(parseCiConfig({ repository: REPOSITORY }, 'prod')).template),
  };

  it("the staging account holds staging's deploy role and a pull request's read of staging alone", () => {
    expect([...accounts.staging.keys()].sort()).toEqual(['DeployStaging', 'Diff']);
    expect(accounts.staging.get('Diff')?.grants).toEqual(diffGrants('staging').sort());
  });

  it("the prod account holds prod's deploy role, which only the production environment's jobs may assume, and a read of prod alone", () => {
    expect([...accounts.prod.keys()].sort()).toEqual(['DeployProd', 'Diff']);
    expect(accounts.prod.get('Diff')?.grants).toEqual(diffGrants('prod').sort());
    expect(JSON.stringify(accounts.prod.get('DeployProd')?.trust)).toContain(`repo:${REPOSITORY}:environment:production`);
    expect(accounts.prod.get('DeployProd')?.grants).toEqual(
      [...bootstrapRoles('deploy', 'file-publishing', 'lookup'), ...smokeGrants('PetStore-prod'), ...commitGrants('prod')].sort(),
    );
  });

  it('an unknown stage is refused, naming the ones an account can hold', () => {
    expect(() => parseCiConfig({ repository: REPOSITORY }, 'staging,dev')).toThrow(
      '-c stages=staging,dev: name the stages this account holds, among staging, prod',
    );
  });
});

describe('config/ci.json', () => {
  it('the placeholder is refused with the key to fill in', () => {
    expect(() => parseCiConfig({ repository: '<owner>/<name>' })).toThrow(
      `config/ci.json: set "repository" to the GitHub repository's <owner>/<name> (it is "<owner>/<name>")`,
    );
    expect(() => parseCiConfig({})).toThrow(/set "repository"/);
  });
});
