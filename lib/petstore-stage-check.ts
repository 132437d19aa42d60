import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { ComparisonOperator, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ACCOUNT_TOKEN_AUDIENCE_ENV, ACCOUNT_TOKEN_ISSUER_ENV } from '#shared/accounts';
import { functionRecipe, type RunFacts } from '#shared/function-recipe';
import { PRE_TRAFFIC_CHECK_MINUTES, STAGE_CHECK, STAGE_CHECK_ENV as ENV } from '#shared/stage-check';
import type { PublicApiName } from '#shared/routes';
import type { FunctionName } from '#shared/table-access';
import type { PetStoreAlarms } from './petstore-alarms';
import { PetStoreFunction, type PetStoreFunctionDefaults } from './petstore-function';
import type { StageConfig } from './stage-config';

export interface PetStoreStageCheckProps extends PetStoreFunctionDefaults {
  readonly check: NonNullable<StageConfig['stageCheck']>;
  readonly facts: RunFacts;
  readonly userPoolArn: string;
  readonly baseUrls: Readonly<Record<PublicApiName, string>>;
  readonly alarms: PetStoreAlarms;
  /** With gradual deploys: the version of each function the deploy publishes, for the pre-traffic hook. */
  readonly versions?: ReadonlyMap<FunctionName, { readonly functionArn: string }>;
}

/**
 * The smoke checks (lambda/handlers/stage-check.ts) as two functions: one every few minutes through the public URLs
 * (every other alarm needs traffic), one as each deployment group's BeforeAllowTraffic hook. Both call with the
 * check's own key, kept in a secret, which the check mints on a fresh stage (docs/runbooks.md).
 */
const TWO_OF_THREE = { evaluationPeriods: 3, datapointsToAlarm: 2 };

export class PetStoreStageCheck extends Construct {
  readonly scheduled: PetStoreFunction;
  readonly preTraffic?: PetStoreFunction;
  readonly keySecretArn: string;

  constructor(scope: Construct, id: string, props: PetStoreStageCheckProps) {
    super(scope, id);
    const { check, versions } = props;
    const key = new Secret(this, 'Key', {
      description: `PetStore ${props.config.stage}: the stage check's API key (docs/runbooks.md)`,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.keySecretArn = key.secretArn;
    Validations.of(key).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'An API key of the service: minted by the check itself, replaced with npm run keys -- rotate-stage-check.',
    });
    // No alias of its own: nothing routes to it but its schedule and CodeDeploy.
    const { trafficShift: _notShifted, ...config } = props.config;
    const recipe = functionRecipe(STAGE_CHECK, props.facts);
    const checkFunction = (functionId: string, role: string, timeout: Duration, environment: Record<string, string>) => {
      const fn = new PetStoreFunction(this, functionId, {
        ...props,
        config,
        entry: STAGE_CHECK.entry,
        description: `${STAGE_CHECK.name}: ${role}`,
        recipe: { ...recipe, environment: { ...recipe.environment, [ENV.keySecret]: key.secretArn, ...environment } },
        timeout,
      });
      key.grantRead(fn.role);
      // A fresh stage's secret holds no key yet: the check mints one and keeps it there.
      fn.role.addToPolicy(new PolicyStatement({ actions: ['secretsmanager:PutSecretValue'], resources: [key.secretArn] }));
      // One run per call: Lambda retries a failed asynchronous invocation twice by default.
      fn.function.configureAsyncInvoke({ retryAttempts: 0 });
      return fn;
    };
    const urls = { [ENV.petsBaseUrl]: props.baseUrls.pets, [ENV.messagesBaseUrl]: props.baseUrls.messages };

    this.scheduled = checkFunction('Scheduled', 'the smoke checks, read-only, through the public URLs', Duration.minutes(1), urls);
    new Rule(this, 'Schedule', {
      schedule: Schedule.rate(check.every),
      targets: [new LambdaFunction(this.scheduled.function, { retryAttempts: 0 })],
    });
    const metric = { period: check.every, statistic: 'Sum' };
    props.alarms.add(
      'StageCheckFailing',
      new MathExpression({
        expression: 'FILL(runs, 0) - FILL(failed, 0)',
        usingMetrics: { runs: this.scheduled.function.metricInvocations(metric), failed: this.scheduled.function.metricErrors(metric) },
        period: check.every,
      }),
      1,
      `No run of the stage check passed in 2 of the last 3 periods of ${check.every.toHumanString()}: the public URLs fail a smoke check, or nothing runs it.`,
      // Silence is a failure here: a run that never happens passes nothing.
      { comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD, treatMissingData: TreatMissingData.BREACHING, ...TWO_OF_THREE },
    );
    if (!versions) return;

    const traffic = check.canaryTraffic ?? Duration.seconds(0);
    const published = Stack.of(this).toJsonString(Object.fromEntries([...versions].map(([name, version]) => [name, version.functionArn])));
    this.preTraffic = checkFunction(
      'PreTraffic',
      "CodeDeploy's BeforeAllowTraffic hook: the new versions",
      Duration.minutes(PRE_TRAFFIC_CHECK_MINUTES).plus(traffic),
      {
        ...urls,
        [ENV.versions]: published,
        [ENV.writes]: String(check.writes),
        [ENV.canaryTrafficMs]: String(traffic.toMilliseconds()),
        // The claims the account functions accept, for the made-up users it calls them as (API Gateway's JWT authorizer is not there).
        ...(props.facts.identity
          ? { [ACCOUNT_TOKEN_ISSUER_ENV]: props.facts.identity.issuer, [ACCOUNT_TOKEN_AUDIENCE_ENV]: props.facts.identity.audience }
          : {}),
      },
    );
    const resources = [...versions.values()].map((version) => version.functionArn);
    this.preTraffic.role.addToPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources }));
  }
}
