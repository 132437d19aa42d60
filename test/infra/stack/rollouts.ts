/**
 * Rollouts and the stage seen from outside: the rollback triggers that see a canary's new version alone, the
 * pre-traffic hook, the scheduled stage check and its alarm, the hotfix switch, and the budget.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constructIdOf } from '#lib/construct-ids';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { ALL_ROUTES } from '#shared/routes';
import { STAGES } from '#shared/stages';
import { TABLE_KEYS } from '#shared/tables';
import { STAGE_CHECK_ENV } from '#shared/stage-check';
import { ACCOUNT_TOKEN_AUDIENCE_ENV, ACCOUNT_TOKEN_ISSUER_ENV } from '#shared/accounts';
import type { FunctionName } from '#shared/table-access';
import { FAILURE_CODES } from '#lib/canary-judgement';
import { PROJECT_ROOT } from '../support/project-root';
import {
  functionNamed,
  onlyResource,
  referencedId,
  resourcesOfType,
  statementsOf,
  synth,
  variant,
  rollbackAlarmsOf,
  type Resource,
  type Synthesized,
} from '../support/synth';

type Template = Synthesized['template'];

interface MetricStat {
  readonly Id: string;
  readonly Expression?: string;
  readonly MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions: { Name: string; Value: unknown }[] } };
}

const dimensionsOf = (metric: MetricStat): Record<string, unknown> =>
  Object.fromEntries((metric.MetricStat?.Metric.Dimensions ?? []).map(({ Name, Value }) => [Name, Value]));

/** The version resource a function's live alias points at. */
function liveVersionOf(template: Template, name: FunctionName): string {
  const [functionId] = functionNamed(template, name);
  const [, alias] = onlyResource(
    template,
    'AWS::Lambda::Alias',
    (candidate) => referencedId(candidate.Properties.FunctionName) === functionId,
  );
  return referencedId(alias.Properties.FunctionVersion) ?? '';
}

const checkFunction = (template: Template, role: 'the smoke checks' | "CodeDeploy's BeforeAllowTraffic hook") =>
  onlyResource(template, 'AWS::Lambda::Function', (fn) => String(fn.Properties.Description).startsWith(`stageCheck: ${role}`));

const variablesOf = (fn: Resource): Record<string, unknown> =>
  (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;

describe.each(['staging', 'prod'] as const)('%s rollouts', (stage) => {
  const { template } = synth(stage);
  const functions = DEPLOYED_FUNCTIONS.map((fn) => fn.name);

  it.each(functions)('%s rolls back on what its new version alone and the alias as a whole crashed, timed out or answered 5xx', (name) => {
    const [functionId] = functionNamed(template, name);
    const version = { 'Fn::GetAtt': [liveVersionOf(template, name), 'Version'] };
    const perVersion = [...rollbackAlarmsOf(template, name).values()].filter((alarm) =>
      /newest version crashed/.test(String(alarm.Properties.AlarmDescription)),
    );
    expect(perVersion).toHaveLength(1);
    const metrics = perVersion[0]?.Properties.Metrics as MetricStat[];
    const byId = new Map(metrics.map((metric) => [metric.Id, metric]));
    const alias = { FunctionName: { Ref: functionId }, Resource: { 'Fn::Join': ['', [{ Ref: functionId }, ':live']] } };
    for (const [prefix, metricName] of [
      ['calls', 'Invocations'],
      ['crashed', 'Errors'],
    ] as const) {
      for (const suffix of ['New', 'All', 'Direct']) {
        expect(byId.get(`${prefix}${suffix}`)?.MetricStat?.Metric).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: metricName });
      }
      // Lambda's metrics of the alias's invocations that it sent to this deploy's version, of all of them, and of the
      // version invoked directly (the pre-traffic hook).
      expect(dimensionsOf(byId.get(`${prefix}New`) as MetricStat)).toEqual({ ...alias, ExecutedVersion: version });
      expect(dimensionsOf(byId.get(`${prefix}All`) as MetricStat)).toEqual(alias);
      expect(dimensionsOf(byId.get(`${prefix}Direct`) as MetricStat)).toEqual({
        FunctionName: { Ref: functionId },
        Resource: { 'Fn::Join': ['', [{ Ref: functionId }, ':', version]] },
      });
    }
    expect(byId.get('failedNew')?.MetricStat?.Metric).toMatchObject({ Namespace: 'PetStore', MetricName: 'Requests' });
    expect(dimensionsOf(byId.get('failedNew') as MetricStat)).toEqual({
      Service: 'petstore',
      Stage: stage,
      Operation: name,
      Version: version,
      Outcome: 'server_error',
    });
    // Every version's failures: the operation's errors by the codes of its 5xx answers.
    const codes = name === 'authorizer' ? FAILURE_CODES.authorizer : FAILURE_CODES.route;
    codes.forEach((code, index) => {
      expect(byId.get(`failedAll${index}`)?.MetricStat?.Metric).toMatchObject({ Namespace: 'PetStore', MetricName: 'Errors' });
      expect(dimensionsOf(byId.get(`failedAll${index}`) as MetricStat)).toEqual({
        Service: 'petstore',
        Stage: stage,
        Operation: name,
        Code: code,
      });
    });
  });

  it("the authorizer's new version also rolls back on the callers it makes anonymous, against the old version's", () => {
    const refusals = [...rollbackAlarmsOf(template, 'authorizer').values()].filter((alarm) =>
      /callers anonymous/.test(String(alarm.Properties.AlarmDescription)),
    );
    expect(refusals).toHaveLength(1);
    const { Properties } = refusals[0] as Resource;
    expect(Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    const metrics = Properties.Metrics as MetricStat[];
    const byId = new Map(metrics.map((metric) => [metric.Id, metric]));
    const version = { 'Fn::GetAtt': [liveVersionOf(template, 'authorizer'), 'Version'] };
    const [functionId] = functionNamed(template, 'authorizer');
    // Over every invocation Lambda counts: the authorizer writes no metric for a caller it admits.
    expect(byId.get('callsNew')?.MetricStat?.Metric).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Invocations' });
    expect(dimensionsOf(byId.get('callsNew') as MetricStat)).toEqual({
      FunctionName: { Ref: functionId },
      Resource: { 'Fn::Join': ['', [{ Ref: functionId }, ':live']] },
      ExecutedVersion: version,
    });
    expect(dimensionsOf(byId.get('refusedNew') as MetricStat)).toEqual({
      Service: 'petstore',
      Stage: stage,
      Operation: 'authorizer',
      Version: version,
      Outcome: 'client_error',
    });
    // Every version's lines: the authorizer writes one for each caller it does not admit.
    expect(byId.get('turnedAwayAll')?.MetricStat?.Metric).toMatchObject({ Namespace: 'PetStore', MetricName: 'Requests' });
    expect(dimensionsOf(byId.get('turnedAwayAll') as MetricStat)).toEqual({ Service: 'petstore', Stage: stage, Operation: 'authorizer' });
  });

  it('every deployment runs the pre-traffic hook, which CodeDeploy may invoke and which may report to every group', () => {
    const [hookId] = checkFunction(template, "CodeDeploy's BeforeAllowTraffic hook");
    const groups = resourcesOfType(template, 'AWS::CodeDeploy::DeploymentGroup');
    for (const alias of resourcesOfType(template, 'AWS::Lambda::Alias').values()) {
      const policy = (alias as Resource & { UpdatePolicy: { CodeDeployLambdaAliasUpdate: Record<string, unknown> } }).UpdatePolicy;
      expect(policy.CodeDeployLambdaAliasUpdate.BeforeAllowTrafficHook).toEqual({ Ref: hookId });
    }
    const reported = statementsOf(template, hookId).filter((statement) =>
      statement.Action.includes('codedeploy:PutLifecycleEventHookExecutionStatus'),
    );
    expect(new Set(reported.flatMap((statement) => statement.Resource.map((resource) => JSON.stringify(resource))))).toHaveProperty(
      'size',
      groups.size,
    );
    const codeDeployRole = referencedId([...groups.values()][0]?.Properties.ServiceRoleArn) ?? '';
    const roleGrants = [...resourcesOfType(template, 'AWS::IAM::Policy').values()]
      .filter((policy) => (policy.Properties.Roles as unknown[]).some((ref) => referencedId(ref) === codeDeployRole))
      .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }).Statement);
    expect(roleGrants).toContainEqual({ Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: { 'Fn::GetAtt': [hookId, 'Arn'] } });
  });

  it('the hook is told the version of every canaried function this deploy publishes, and may invoke exactly those', () => {
    const [hookId, hook] = checkFunction(template, "CodeDeploy's BeforeAllowTraffic hook");
    // Canaried: a function whose live alias CodeDeploy shifts. Each is one of the service's, by its description.
    const canaried = [...resourcesOfType(template, 'AWS::Lambda::Alias').values()]
      .filter((alias) => (alias as Resource & { UpdatePolicy?: unknown }).UpdatePolicy !== undefined)
      .map((alias) => referencedId(alias.Properties.FunctionName) ?? '');
    const named = new Map(functions.map((name) => [functionNamed(template, name)[0], name]));
    expect(canaried.map((id) => named.get(id) ?? id).sort()).toEqual([...functions].sort());
    const versions = JSON.stringify(variablesOf(hook)[STAGE_CHECK_ENV.versions]);
    const told = [...versions.matchAll(/\\"(\w+)\\":\\"/g)].map((match) => match[1]);
    expect(told.sort()).toEqual([...functions].sort());
    const invokable = statementsOf(template, hookId).filter((statement) => statement.Action.includes('lambda:InvokeFunction'));
    const resources = invokable.flatMap((statement) => statement.Resource.map((resource) => referencedId(resource)));
    const published = functions.map((name) => liveVersionOf(template, name));
    expect(resources.sort()).toEqual([...published].sort());
    for (const versionId of published) expect(versions).toContain(`"Ref":"${versionId}"`);
  });

  it("the hook's made-up users carry the issuer and audience the account functions accept", () => {
    const [, hook] = checkFunction(template, "CodeDeploy's BeforeAllowTraffic hook");
    const accountFunctions = DEPLOYED_FUNCTIONS.filter((fn) => fn.account).map((fn) => variablesOf(functionNamed(template, fn.name)[1]));
    expect(accountFunctions).toHaveLength(5);
    for (const name of [ACCOUNT_TOKEN_ISSUER_ENV, ACCOUNT_TOKEN_AUDIENCE_ENV]) {
      expect(variablesOf(hook)[name]).toBeDefined();
      for (const variables of accountFunctions) expect(variables[name]).toEqual(variablesOf(hook)[name]);
    }
  });

  it('the hook creates in staging only, and keeps calling the stage through the canary in staging only', () => {
    const [, hook] = checkFunction(template, "CodeDeploy's BeforeAllowTraffic hook");
    const variables = variablesOf(hook);
    expect(variables[STAGE_CHECK_ENV.writes]).toBe(String(stage === 'staging'));
    expect(variables[STAGE_CHECK_ENV.canaryTrafficMs]).toBe(stage === 'staging' ? String(12 * 60_000) : '0');
    // The canary's traffic runs in the hook's own invocation, after its verdict.
    expect(hook.Properties.Timeout).toBe(stage === 'staging' ? 14 * 60 : 2 * 60);
  });

  it('deploys watch the rollback alarms, unless -c hotfix=true says this one must not', () => {
    const enabled = ({ template: deployed }: Synthesized) =>
      [...resourcesOfType(deployed, 'AWS::CodeDeploy::DeploymentGroup').values()].map(
        (group) => (group.Properties.AlarmConfiguration as { Enabled: boolean }).Enabled,
      );
    expect(new Set(enabled(synth(stage)))).toEqual(new Set([true]));
    if (stage === 'prod') expect(new Set(enabled(variant('prodWithOptions')))).toEqual(new Set([false]));
  });
});

describe.each(['staging', 'prod'] as const)('%s stage check', (stage) => {
  const { template } = synth(stage);

  it('runs every 5 minutes, once per tick, through the public base URLs, with the key of its secret', () => {
    const [checkId, check] = checkFunction(template, 'the smoke checks');
    const [, rule] = onlyResource(template, 'AWS::Events::Rule', (candidate) =>
      (candidate.Properties.Targets as { Arn: unknown }[]).some((target) => referencedId(target.Arn) === checkId),
    );
    expect(rule.Properties.ScheduleExpression).toBe('rate(5 minutes)');
    const [, retries] = onlyResource(
      template,
      'AWS::Lambda::EventInvokeConfig',
      (config) => referencedId(config.Properties.FunctionName) === checkId,
    );
    expect(retries.Properties.MaximumRetryAttempts).toBe(0);
    const variables = variablesOf(check);
    expect(JSON.stringify(variables[STAGE_CHECK_ENV.petsBaseUrl])).toContain('/v1');
    expect(variables[STAGE_CHECK_ENV.messagesBaseUrl]).toBeDefined();
    const secretId = referencedId(variables[STAGE_CHECK_ENV.keySecret]);
    expect(resourcesOfType(template, 'AWS::SecretsManager::Secret').has(secretId ?? '')).toBe(true);
    const granted = statementsOf(template, checkId).flatMap((statement) => statement.Action);
    expect(granted).toContain('secretsmanager:GetSecretValue');
    // A client like any other: no invocation of versions, no word to CodeDeploy. On a fresh stage it mints its own key:
    // it registers the key's hash (a conditional put, read back on failure) and keeps the key in its secret.
    expect(granted.filter((action) => /^(lambda|codedeploy):/.test(action))).toEqual([]);
    expect(granted.filter((action) => action.startsWith('dynamodb:')).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem']);
    const puts = statementsOf(template, checkId).filter((statement) => statement.Action.includes('secretsmanager:PutSecretValue'));
    expect(puts.flatMap((statement) => statement.Resource)).toEqual([{ Ref: secretId }]);
    expect(template.findOutputs('StageCheckKeySecret').StageCheckKeySecret?.Value).toEqual({ Ref: secretId });
  });

  it('alarms when no run passed in 2 of 3 periods: failed runs and missing ones alike', () => {
    const [checkId] = checkFunction(template, 'the smoke checks');
    const [, alarm] = onlyResource(template, 'AWS::CloudWatch::Alarm', (candidate) =>
      /No run of the stage check passed/.test(String(candidate.Properties.AlarmDescription)),
    );
    expect(alarm.Properties).toMatchObject({
      ComparisonOperator: 'LessThanThreshold',
      Threshold: 1,
      TreatMissingData: 'breaching',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
      AlarmActions: [expect.anything()],
    });
    const metrics = alarm.Properties.Metrics as MetricStat[];
    expect(metrics.find((metric) => metric.Expression)?.Expression).toBe('FILL(runs, 0) - FILL(failed, 0)');
    for (const [id, metricName] of [
      ['runs', 'Invocations'],
      ['failed', 'Errors'],
    ] as const) {
      const metric = metrics.find((candidate) => candidate.Id === id) as MetricStat;
      expect(metric.MetricStat?.Metric.MetricName).toBe(metricName);
      expect(dimensionsOf(metric)).toEqual({ FunctionName: { Ref: checkId } });
    }
  });
});

it('dev has no stage check and no hook: nothing shifts, and a throwaway stage pages nobody', () => {
  const { template } = synth('dev');
  const described = [...resourcesOfType(template, 'AWS::Lambda::Function').values()].map((fn) => String(fn.Properties.Description));
  expect(described.filter((description) => description.startsWith('stageCheck:'))).toEqual([]);
  expect(resourcesOfType(template, 'AWS::Events::Rule').size).toBe(0);
});

describe.each([
  ['dev', 25],
  ['staging', 50],
  ['prod', 200],
] as const)('%s budget', (stage, dollars) => {
  it(`is ${dollars} USD a month of the stage's tagged costs, told to the alarm topic at 80 % spent and at a forecast over it`, () => {
    const { template } = synth(stage);
    const [, budget] = onlyResource(template, 'AWS::Budgets::Budget', () => true);
    const topicId = onlyResource(template, 'AWS::SNS::Topic', () => true)[0];
    expect(budget.Properties.Budget).toMatchObject({
      BudgetType: 'COST',
      TimeUnit: 'MONTHLY',
      BudgetLimit: { Amount: dollars, Unit: 'USD' },
      CostFilters: { TagKeyValue: [`user:stage$${stage}`] },
    });
    const notifications = budget.Properties.NotificationsWithSubscribers as {
      Notification: Record<string, unknown>;
      Subscribers: unknown[];
    }[];
    expect(notifications.map((notification) => [notification.Notification.NotificationType, notification.Notification.Threshold])).toEqual([
      ['ACTUAL', 80],
      ['FORECASTED', 100],
    ]);
    for (const { Subscribers } of notifications) expect(Subscribers).toEqual([{ SubscriptionType: 'SNS', Address: { Ref: topicId } }]);
    const policy = onlyResource(template, 'AWS::SNS::TopicPolicy', () => true)[1];
    expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('"Service":"budgets.amazonaws.com"');
  });
});

describe('docs/runbooks.md, "When an alarm fires"', () => {
  const runbooks = readFileSync(join(PROJECT_ROOT, 'docs/runbooks.md'), 'utf8');
  const section = runbooks.slice(
    runbooks.indexOf('## When an alarm fires'),
    runbooks.indexOf('\n## ', runbooks.indexOf('## When an alarm fires') + 1),
  );
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => /^\| `([^`]+)`/.exec(line)?.[1] ?? '');
  const placeholders: Record<string, readonly string[]> = {
    '<Api>': [...new Set(ALL_ROUTES.map((route) => route.api))],
    '<Table>': TABLE_KEYS,
    '<Function>': DEPLOYED_FUNCTIONS.map((fn) => fn.name),
  };
  const patternOf = (row: string): RegExp =>
    new RegExp(`^${row.replace(/<[A-Za-z]+>/g, (placeholder) => `(${(placeholders[placeholder] ?? []).map(constructIdOf).join('|')})`)}$`);
  /** An alarm's logical id, less its scope and CDK's hash: the construct id a row names. */
  const alarmIds = new Set(
    STAGES.flatMap((stage) =>
      [...resourcesOfType(synth(stage).template, 'AWS::CloudWatch::Alarm').keys()].map((id) =>
        id.replace(/^Alarms/, '').replace(/[0-9A-F]{8}$/, ''),
      ),
    ),
  );

  it('has a row for every alarm of every stage', () => {
    expect([...alarmIds].filter((id) => !rows.some((row) => patternOf(row).test(id)))).toEqual([]);
  });

  it('has no row for an alarm no stage creates', () => {
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.filter((row) => ![...alarmIds].some((id) => patternOf(row).test(id)))).toEqual([]);
  });
});
