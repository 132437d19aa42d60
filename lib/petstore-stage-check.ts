import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { ComparisonOperator, MathExpression, TreatMissingData, type Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { functionRecipe, type RunFacts } from '#shared/function-recipe';
import { STAGE_CHECK, STAGE_CHECK_ENV } from '#shared/stage-check';
import type { PublicApiName } from '#shared/routes';
import type { FunctionName } from '#shared/table-access';
import type { PetStoreAlarms } from './petstore-alarms';
import { PetStoreFunction, type PetStoreFunctionDefaults } from './petstore-function';
import type { StageConfig } from './stage-config';

export interface PetStoreStageCheckProps extends PetStoreFunctionDefaults {
  readonly check: NonNullable<StageConfig['stageCheck']>;
  readonly facts: RunFacts;
  readonly userPoolArn: string;
  /** The base URLs clients call (lib/petstore-entrance.ts). */
  readonly baseUrls: Readonly<Record<PublicApiName, string>>;
  readonly alarms: PetStoreAlarms;
  /** On a stage with gradual deploys: the version of each function this deploy publishes, for the pre-traffic hook. */
  readonly versions?: ReadonlyMap<FunctionName, { readonly functionArn: string }>;
}

/**
 * The stage watched from outside, and each canary checked before it takes traffic, with one set of checks
 * (scripts/smoke/checks.ts, also `npm run smoke`) and one handler (scripts/smoke/stage-check.ts), deployed twice so
 * that each has only its own rights and metrics:
 * - every few minutes, through the public base URLs: every other alarm needs traffic, and stays green on a stage
 *   whose name no longer resolves, whose certificate expired or that nobody calls. Its alarm fires when no run
 *   passed in two of three periods, failed runs and missing ones alike;
 * - as every deployment group's BeforeAllowTraffic hook, against the versions the deploy publishes.
 * Both use the check's own key, issued with `npm run keys` into a secret (docs/runbooks.md).
 */
export class PetStoreStageCheck extends Construct {
  readonly scheduled: PetStoreFunction;
  readonly preTraffic?: PetStoreFunction;
  readonly alarm: Alarm;
  /** The secret the operator puts the check's key into. */
  readonly keySecretArn: string;

  constructor(scope: Construct, id: string, props: PetStoreStageCheckProps) {
    super(scope, id);
    const { check, baseUrls, versions } = props;
    const stage = props.config.stage;
    const key = new Secret(this, 'Key', {
      description: `PetStore ${stage}: the stage check's API key (docs/runbooks.md, "The stage check's key")`,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.keySecretArn = key.secretArn;
    Validations.of(key).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'An API key of the service: issued and revoked with npm run keys (docs/runbooks.md); Secrets Manager cannot rotate it.',
    });
    // Not shifted by CodeDeploy itself: nothing routes to it but its schedule and CodeDeploy.
    const { trafficShift: _notShifted, ...config } = props.config;
    const urls = { [STAGE_CHECK_ENV.petsBaseUrl]: baseUrls.pets, [STAGE_CHECK_ENV.messagesBaseUrl]: baseUrls.messages };
    const recipe = functionRecipe(STAGE_CHECK, props.facts);
    const checkFunction = (functionId: string, role: string, timeout: Duration, environment: Record<string, string>) => {
      const fn = new PetStoreFunction(this, functionId, {
        ...props,
        config,
        entry: STAGE_CHECK.entry,
        description: `${STAGE_CHECK.name}: ${role}`,
        recipe: { ...recipe, environment: { ...recipe.environment, [STAGE_CHECK_ENV.keySecret]: key.secretArn, ...environment } },
        timeout,
      });
      key.grantRead(fn.role);
      // One run per call: Lambda retries a failed asynchronous invocation twice by default.
      fn.function.configureAsyncInvoke({ retryAttempts: 0 });
      return fn;
    };

    this.scheduled = checkFunction('Scheduled', 'the smoke checks, read-only, through the public URLs', Duration.minutes(1), urls);
    new Rule(this, 'Schedule', {
      description: `PetStore ${stage}: the stage check through the public URLs`,
      schedule: Schedule.rate(check.every),
      targets: [new LambdaFunction(this.scheduled.function, { retryAttempts: 0 })],
    });
    const period = check.every;
    const passed = new MathExpression({
      expression: 'FILL(runs, 0) - FILL(failed, 0)',
      usingMetrics: {
        runs: this.scheduled.function.metricInvocations({ period, statistic: 'Sum' }),
        failed: this.scheduled.function.metricErrors({ period, statistic: 'Sum' }),
      },
      period,
      label: 'stage check runs passed',
    });
    this.alarm = props.alarms.add(
      'StageCheckFailing',
      passed,
      1,
      `No run of the stage check passed in 2 of the last 3 periods of ${period.toHumanString()}: the public URLs fail a smoke check, or nothing runs it.`,
      ComparisonOperator.LESS_THAN_THRESHOLD,
      TreatMissingData.BREACHING,
      { evaluationPeriods: 3, datapointsToAlarm: 2 },
    );

    if (!versions) return;
    const traffic = check.canaryTraffic ?? Duration.seconds(0);
    this.preTraffic = checkFunction(
      'PreTraffic',
      "CodeDeploy's BeforeAllowTraffic hook: the new versions",
      Duration.minutes(2).plus(traffic),
      {
        ...urls,
        [STAGE_CHECK_ENV.versions]: Stack.of(this).toJsonString(
          Object.fromEntries([...versions].map(([name, version]) => [name, version.functionArn])),
        ),
        [STAGE_CHECK_ENV.writes]: String(check.writes),
        [STAGE_CHECK_ENV.canaryTrafficMs]: String(traffic.toMilliseconds()),
      },
    );
    this.preTraffic.role.addToPolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [...versions.values()].map((version) => version.functionArn) }),
    );
  }
}
