import { Duration, Validations } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  Alias,
  ApplicationLogLevel,
  Architecture,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
  type IFunction,
  type IVersion,
} from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { LAMBDA_BUNDLE_OPTIONS } from './bundling';
import type { FunctionRecipe } from '#shared/function-recipe';
import { FUNCTION_MEMORY_MB, FUNCTION_TIMEOUT_SECONDS } from '#shared/function-settings';
import type { StageConfig } from './stage-config';
import type { TableAccess } from '#shared/table-access';
import type { TableKey } from '#shared/tables';

/** lib/bundling.ts in NodejsFunction's vocabulary; `esbuildArgs` carries what it has no prop for. */
export const NODEJS_BUNDLING: BundlingOptions = {
  format: { cjs: OutputFormat.CJS, esm: OutputFormat.ESM }[LAMBDA_BUNDLE_OPTIONS.format],
  target: LAMBDA_BUNDLE_OPTIONS.target,
  minify: LAMBDA_BUNDLE_OPTIONS.minify,
  sourceMap: LAMBDA_BUNDLE_OPTIONS.sourcemap,
  sourcesContent: LAMBDA_BUNDLE_OPTIONS.sourcesContent,
  mainFields: [...LAMBDA_BUNDLE_OPTIONS.mainFields],
  // An explicit empty list: NodejsFunction would otherwise leave `@aws-sdk/*` to the runtime's copy.
  externalModules: [...LAMBDA_BUNDLE_OPTIONS.external],
  esbuildArgs: {
    '--tree-shaking': String(LAMBDA_BUNDLE_OPTIONS.treeShaking),
    // One `--alias:<from>=<to>` argument per entry (NodejsFunction has no alias prop).
    ...Object.fromEntries(Object.entries(LAMBDA_BUNDLE_OPTIONS.alias).map(([from, to]) => [`--alias:${from}`, to])),
  },
  // The project's esbuild (a dev dependency) bundles on this machine; Docker is never asked for.
  forceDockerBundling: false,
};

/** What every function of one stack shares. */
export interface PetStoreFunctionDefaults {
  /** Directory holding package-lock.json; entries are relative to it. */
  readonly projectRoot: string;
  readonly config: StageConfig;
  // Table, not ITable: Table's `tableStreamArn: string | undefined` is not ITable's optional one (exactOptionalPropertyTypes).
  readonly tables: Readonly<Record<TableKey, Table>>;
}

interface PetStoreFunctionProps extends PetStoreFunctionDefaults {
  /** Relative to projectRoot. */
  readonly entry: string;
  readonly description: string;
  readonly recipe: FunctionRecipe;
  /** Where the recipe's identity actions are granted. */
  readonly userPoolArn: string;
  /** @default FUNCTION_TIMEOUT_SECONDS: what a request may take; the stage check runs longer. */
  readonly timeout?: Duration;
}

/** The alias API Gateway invokes on a stage with gradual deploys; CodeDeploy moves it from version to version. */
const LIVE_ALIAS = 'live';

const resourceArn = (table: Table, access: TableAccess): string =>
  access.index ? `${table.tableArn}/index/${access.index}` : table.tableArn;

/**
 * One Lambda function with every shared setting in one place; its environment, IAM statements and reserved
 * concurrency come from its recipe (shared/function-recipe.ts) and nothing else.
 */
export class PetStoreFunction extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: LogGroup;
  readonly role: Role;
  /** On a stage whose deploys shift traffic gradually (lib/petstore-deployments.ts). */
  readonly live?: Alias;
  /** The live alias where there is one, else the function itself. */
  readonly invoked: IFunction;

  constructor(scope: Construct, id: string, props: PetStoreFunctionProps) {
    super(scope, id);
    const { config, tables, projectRoot, recipe } = props;

    this.logGroup = new LogGroup(this, 'Logs', { retention: config.logRetention, removalPolicy: config.logRemovalPolicy });

    // Our own role instead of AWSLambdaBasicExecutionRole: that managed policy may write to any log group.
    this.role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description: props.description });
    this.role.addToPolicy(
      new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [this.logGroup.logGroupArn] }),
    );
    for (const access of recipe.tables) {
      this.role.addToPolicy(new PolicyStatement({ actions: [...access.actions], resources: [resourceArn(tables[access.table], access)] }));
    }
    if (recipe.identityActions.length > 0) {
      this.role.addToPolicy(new PolicyStatement({ actions: [...recipe.identityActions], resources: [props.userPoolArn] }));
    }

    this.function = new NodejsFunction(this, 'Function', {
      entry: join(projectRoot, props.entry),
      handler: 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: FUNCTION_MEMORY_MB,
      timeout: props.timeout ?? Duration.seconds(FUNCTION_TIMEOUT_SECONDS),
      role: this.role,
      logGroup: this.logGroup,
      // Log levels apply only to JSON logs.
      loggingFormat: LoggingFormat.JSON,
      applicationLogLevelV2: ApplicationLogLevel[config.logLevel],
      systemLogLevelV2: SystemLogLevel[config.systemLogLevel],
      // Lambda grants X-Ray's write actions on `*` itself: they have no resource-level permissions.
      tracing: recipe.traced ? Tracing.ACTIVE : Tracing.DISABLED,
      // Caps a write route's storm of throttled calls; both versions share it during a shift.
      ...(recipe.reservedConcurrency !== undefined ? { reservedConcurrentExecutions: recipe.reservedConcurrency } : {}),
      environment: { ...recipe.environment },
      projectRoot,
      depsLockFilePath: join(projectRoot, 'package-lock.json'),
      bundling: NODEJS_BUNDLING,
    });
    if (recipe.traced) {
      Validations.of(this.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.',
      });
    }

    if (config.trafficShift) {
      // Casts: classes declare `role?: IRole`, interfaces `role: IRole | undefined` (exactOptionalPropertyTypes).
      this.live = new Alias(this, 'Live', { aliasName: LIVE_ALIAS, version: this.function.currentVersion as IVersion });
    }
    this.invoked = (this.live ?? this.function) as IFunction;
  }
}
