/**
 * Synthesizes the stack the way bin/app.ts does (same cdk.json context, so the same feature flags),
 * minus bundling: these tests look at the template, not at the code assets.
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addPetStore } from '#lib/petstore-app';
import type { PetStoreEdgeStack } from '#lib/petstore-edge-stack';
import type { PetStoreStack } from '#lib/petstore-stack';
import { COGNITO_SENDER, NO_ALARM_EMAIL, stageConfig, type StageContext } from '#lib/stage-config';
import { stackNameOf, type StageName } from '#shared/stages';
import type { FunctionName } from '#shared/table-access';
import { TABLES } from '#shared/tables';
import type { ApiName } from '#shared/routes';
import { PROJECT_ROOT } from './project-root';

const CDK_JSON_CONTEXT = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;

export interface Synthesized {
  readonly stack: PetStoreStack;
  readonly template: Template;
  /** The front door's us-east-1 stack, for a stage with a front door deployed elsewhere. */
  readonly edge?: { readonly stack: PetStoreEdgeStack; readonly template: Template };
}

/** The names the custom-domain variants give the pets and messages APIs. */
export const NAMES = { petsDomain: 'api.example.com', messagesDomain: 'messages.example.com' } as const;
export const ZONE = { hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'example.com' } as const;
/** A certificate of the stage's own region (API Gateway's custom domains), and one of us-east-1 (CloudFront's). */
export const REGIONAL_CERTIFICATE_ARN = 'arn:aws:acm:eu-west-1:123456789012:certificate/12345678-1234-1234-1234-123456789012';
export const EDGE_CERTIFICATE_ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/12345678-1234-1234-1234-123456789012';
/** What an operator fills in before prod's first deploy: the two values the committed example cannot know. */
export const FILLED_IN = { alarmEmail: 'ops@example.com', sesFromEmail: 'no-reply@example.com' } as const;
const CORS_ORIGINS = 'https://app.example.com, https://admin.example.com';

interface Variant {
  readonly stage: StageName;
  readonly context: StageContext;
  readonly region?: string;
}

/**
 * Every synthesis the template tests share besides the three committed stages, each made once per run:
 * synthesizing costs seconds, so a variant carries every option that does not change what another
 * asserts, and a new context is a new entry here, in sight of the count stack.test.ts holds them to.
 * Options that exclude each other (front door or not, a certificate or a hosted zone, the region
 * known or not, us-east-1 or elsewhere) stay apart.
 */
export const VARIANTS = {
  // Each stage with the options that do not interact: CORS on all three, each of the others on one.
  /** With custom domains on API Gateway in a hosted zone, the execute-api endpoints kept, the region unknown. */
  devWithOptions: {
    stage: 'dev',
    context: {
      corsOrigins: CORS_ORIGINS,
      tracing: 'true',
      sesFromEmail: 'no-reply@example.com',
      ...NAMES,
      ...ZONE,
      disableDefaultEndpoint: 'false',
    },
  },
  /** With custom domains on API Gateway from a given certificate (no hosted zone: their DNS targets are outputs). */
  stagingWithOptions: {
    stage: 'staging',
    context: { corsOrigins: CORS_ORIGINS, ...NAMES, certificateArn: REGIONAL_CERTIFICATE_ARN },
    region: 'eu-west-1',
  },
  prodWithOptions: {
    stage: 'prod',
    context: {
      corsOrigins: CORS_ORIGINS,
      alarmEmail: 'ops@example.com',
      alarmHttpsEndpoint: 'https://chat.example.com/hooks/petstore',
      sesFromEmail: 'no-reply@example.com',
      sesVerifiedDomain: 'example.com',
      tracing: 'false',
      hotfix: 'true',
      petsRateLimit: '4000',
      petsBurstLimit: '8000',
      // Below prod's 1,000: a faster rate needs more status shards than prod's layout has (shared/status-shards.ts).
      createPetRateLimit: '900',
      createPetBurstLimit: '2000',
      petsWarmReads: '30000',
      petsWarmWrites: '10000',
      messagesWarmWrites: '5000',
    },
  },
  /** config/prod.json with its placeholders filled in, deployed from eu-west-1: nothing else on the command line. */
  prodAsCommitted: { stage: 'prod', context: FILLED_IN, region: 'eu-west-1' },
  /** The front door alone, outside us-east-1: its edge stack, the distributions' own names. */
  frontDoor: { stage: 'staging', context: { frontDoor: 'true' }, region: 'eu-west-1' },
  /** The front door in us-east-1 (no edge stack), with custom domains on a given certificate and no zone. */
  frontDoorInUsEast1: {
    stage: 'staging',
    context: { frontDoor: 'true', ...NAMES, certificateArn: EDGE_CERTIFICATE_ARN },
    region: 'us-east-1',
  },
  /** The front door with custom domains in a hosted zone, and its limits set on the command line. */
  frontDoorWithZone: {
    stage: 'prod',
    context: { frontDoor: 'true', ...NAMES, ...ZONE, frontDoorRateLimit: '2000', frontDoorKeyRateLimit: '12000' },
    region: 'eu-west-1',
  },
  /**
   * Staging as a governed account takes it (docs/compliance.md): the option changes encryption, retention and logging
   * throughout; with the front door from eu-west-1, so every kind of distribution is there, beside an edge stack.
   */
  stagingControlTower: { stage: 'staging', context: { compliance: 'control-tower', frontDoor: 'true' }, region: 'eu-west-1' },
} as const satisfies Record<string, Variant>;

export type VariantName = keyof typeof VARIANTS;

const cache = new Map<string, Synthesized>();

/** The stage as its config/<stage>.json has it (prod: see synthesize). */
export const synth = (stage: StageName): Synthesized => cached(stage, { stage, context: {} });

/** One of VARIANTS. */
export const variant = (name: VariantName): Synthesized => cached(name, VARIANTS[name]);

/** A stage's variant with every independent option. */
export const withOptions = (stage: StageName): Synthesized => variant(`${stage}WithOptions`);

let synthesized = 0;

/** How many stacks this run synthesized, for the budget stack.test.ts holds them to. */
export const synthesisCount = (): number => synthesized;

function cached(name: string, { stage, context, region }: Variant): Synthesized {
  const found = cache.get(name) ?? synthesize(stage, context, region);
  cache.set(name, found);
  return found;
}

/**
 * A fresh synthesis, not shared: only for a context that must be refused while synthesizing (the others
 * go through synth or variant, once per run; templates are read-only, so sharing is safe).
 * config/prod.json holds placeholders for alarmEmail and sesFromEmail: these tests opt out (`none`,
 * `cognito`) unless they set them. Without a region, prod leaves its front door out (an
 * environment-agnostic stack cannot place the edge stack); VARIANTS.prodAsCommitted is the committed
 * prod, front door and all.
 */
export function synthesize(stage: StageName, given: StageContext = {}, region?: string): Synthesized {
  const context =
    stage === 'prod'
      ? {
          ...(region === undefined ? { frontDoor: 'false' } : {}),
          ...given,
          alarmEmail: given.alarmEmail ?? NO_ALARM_EMAIL,
          sesFromEmail: given.sesFromEmail ?? COGNITO_SENDER,
        }
      : given;
  // An App without an outdir synthesizes into a fresh cdk.out* under the temp folder and never removes
  // it; with the portal's 22 MB CLI layer staged each time, a full run once filled a CI machine's disk.
  const outdir = mkdtempSync(join(tmpdir(), 'petstore-synth-'));
  try {
    const app = new App({ outdir, context: { ...CDK_JSON_CONTEXT, 'aws:cdk:bundling-stacks': [] } });
    // Without a region the stack is environment-agnostic, as `npm run synth` without AWS settings used to make it.
    const { main, edge } = addPetStore(app, {
      config: stageConfig(stage, context),
      projectRoot: PROJECT_ROOT,
      env: region ? { region } : {},
    });
    synthesized++;
    // Template.fromStack reads the synthesized template into memory, so the assembly can go at once.
    return {
      stack: main,
      template: Template.fromStack(main),
      ...(edge ? { edge: { stack: edge, template: Template.fromStack(edge) } } : {}),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** A resource of the synthesized template, as much of it as these tests read. */
export interface Resource {
  readonly Type: string;
  readonly Properties: Record<string, unknown>;
  readonly DeletionPolicy?: string;
  readonly UpdateReplacePolicy?: string;
}

export function resourcesOfType(template: Template, type: string): Map<string, Resource> {
  return new Map(Object.entries(template.findResources(type) as Record<string, Resource>));
}

export function onlyResource(template: Template, type: string, where: (resource: Resource) => boolean): [string, Resource] {
  const matches = [...resourcesOfType(template, type)].filter(([, resource]) => where(resource));
  if (matches.length !== 1) throw new Error(`expected exactly one ${type} to match, found ${matches.length}`);
  return matches[0] as [string, Resource];
}

/** `{ Ref: id }` or `{ 'Fn::GetAtt': [id, attribute] }` → id. */
export function referencedId(value: unknown): string | undefined {
  if (value && typeof value === 'object') {
    if ('Ref' in value && typeof value.Ref === 'string') return value.Ref;
    if ('Fn::GetAtt' in value && Array.isArray(value['Fn::GetAtt'])) return value['Fn::GetAtt'][0] as string;
  }
  return undefined;
}

/** The stack's functions are described as `<name>: <summary>` (lib/petstore-stack.ts). */
export function functionNamed(template: Template, name: FunctionName): [string, Resource] {
  return onlyResource(template, 'AWS::Lambda::Function', (fn) => String(fn.Properties.Description).startsWith(`${name}: `));
}

export function apiNamed(template: Template, stage: StageName, api: ApiName): string {
  return onlyResource(template, 'AWS::ApiGatewayV2::Api', (resource) => resource.Properties.Name === `${stackNameOf(stage)}-${api}`)[0];
}

export interface Statement {
  readonly Effect: string;
  readonly Action: string[];
  readonly Resource: unknown[];
  readonly Condition?: unknown;
}

/** Every IAM statement granted to a function's role, inline or attached, actions and resources as lists. */
export function statementsOf(template: Template, functionId: string): Statement[] {
  const fn = resourcesOfType(template, 'AWS::Lambda::Function').get(functionId);
  const roleId = referencedId(fn?.Properties.Role);
  if (!roleId) throw new Error(`${functionId} has no role of this stack`);
  const role = resourcesOfType(template, 'AWS::IAM::Role').get(roleId);
  const inline = ((role?.Properties.Policies ?? []) as { PolicyDocument: { Statement: unknown[] } }[]).flatMap(
    (policy) => policy.PolicyDocument.Statement,
  );
  const attached = [...resourcesOfType(template, 'AWS::IAM::Policy').values()]
    .filter((policy) => (policy.Properties.Roles as unknown[]).some((ref) => referencedId(ref) === roleId))
    .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: unknown[] }).Statement);
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);
  return [...inline, ...attached].map((raw) => {
    const statement = raw as { Effect: string; Action: unknown; Resource: unknown; Condition?: unknown };
    return { ...statement, Action: list(statement.Action) as string[], Resource: list(statement.Resource) };
  });
}

/** The CloudFormation value of `<table ARN>` and `<table ARN>/index/<name>`. */
export const tableArn = (tableId: string): unknown => ({ 'Fn::GetAtt': [tableId, 'Arn'] });
export const indexArn = (tableId: string, indexName: string): unknown => ({ 'Fn::Join': ['', [tableArn(tableId), `/index/${indexName}`]] });

const TABLE_OUTPUTS = {
  pets: 'PetsTableName',
  messages: 'MessagesTableName',
  apiKeys: 'ApiKeysTableName',
  accounts: 'AccountsTableName',
} as const;

export type TableName = keyof typeof TABLE_OUTPUTS | 'idempotency';

/**
 * A table's logical id, found the way the keys CLI finds tables: through the stack outputs. The
 * idempotency table has no output (no operator needs it); it is the one whose records expire on `expiration`.
 */
export function tableId(template: Template, table: TableName): string {
  if (table === 'idempotency') {
    const expiring = (resource: Resource): boolean =>
      (resource.Properties.TimeToLiveSpecification as { AttributeName?: string } | undefined)?.AttributeName ===
      TABLES.idempotency.timeToLiveAttribute;
    return onlyResource(template, 'AWS::DynamoDB::Table', expiring)[0];
  }
  const output = TABLE_OUTPUTS[table];
  const id = referencedId((template.findOutputs(output) as Record<string, { Value: unknown }>)[output]?.Value);
  if (!id) throw new Error(`output ${output} does not reference a table`);
  return id;
}

/** Every (action, resource) pair a list of statements allows, order and grouping aside. */
export function grants(statements: readonly Pick<Statement, 'Action' | 'Resource'>[]): string[] {
  return statements
    .flatMap(({ Action, Resource }) => Action.flatMap((action) => Resource.map((resource) => `${action} on ${JSON.stringify(resource)}`)))
    .sort();
}

/** The alarms a function's deployment group rolls back on, by logical id. */
export function rollbackAlarmsOf(template: Template, name: FunctionName): Map<string, Resource> {
  const [functionId] = functionNamed(template, name);
  const [, alias] = onlyResource(
    template,
    'AWS::Lambda::Alias',
    (candidate) => referencedId(candidate.Properties.FunctionName) === functionId,
  );
  const policy = (alias as Resource & { UpdatePolicy: { CodeDeployLambdaAliasUpdate: { DeploymentGroupName: unknown } } }).UpdatePolicy;
  const group = resourcesOfType(template, 'AWS::CodeDeploy::DeploymentGroup').get(
    referencedId(policy.CodeDeployLambdaAliasUpdate.DeploymentGroupName) ?? '',
  );
  const alarms = resourcesOfType(template, 'AWS::CloudWatch::Alarm');
  const ids = (group?.Properties.AlarmConfiguration as { Alarms: { Name: unknown }[] }).Alarms.map(({ Name }) => referencedId(Name) ?? '');
  return new Map(ids.map((id) => [id, alarms.get(id) as Resource]));
}
