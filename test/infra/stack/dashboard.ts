/**
 * The stage's dashboard and its traces, read by meaning: every graphed metric is one a resource of this stack
 * publishes (its API, function, table or index, an access-log metric filter) or one shared/metrics.ts declares
 * for the functions to emit; every alarm of the stack shows its state. No snapshot.
 */
import { BUSINESS_METRICS, METRICS_NAMESPACE, OPERATION_METRICS, type MetricDefinition } from '#shared/metrics';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { TRACE_ENABLED_ENV } from '#shared/function-recipe';
import { STAGES, stackNameOf, type StageName } from '#shared/stages';
import { TABLES, type TableDefinition, type TableKey } from '#shared/tables';
import { stageConfig } from '#lib/stage-config';
import { functionNamed, resourcesOfType, statementsOf, synth, variant, type Resource, type Synthesized } from '../support/synth';

interface Widget {
  readonly type: string;
  readonly properties: { title?: string; alarms?: string[]; metrics?: unknown[][]; query?: string; markdown?: string };
}

/** The dashboard body with each CloudFormation reference written as `<<logicalId>>`. */
function dashboardOf(stage: StageName): { name: unknown; widgets: Widget[] } {
  const { template } = synth(stage);
  const dashboards = [...resourcesOfType(template, 'AWS::CloudWatch::Dashboard').values()];
  expect(dashboards).toHaveLength(1);
  const body = dashboards[0]?.Properties.DashboardBody as { 'Fn::Join': [string, unknown[]] };
  const text = body['Fn::Join'][1]
    .map((part) => {
      if (typeof part === 'string') return part;
      const ref = part as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
      return `<<${ref.Ref ?? ref['Fn::GetAtt']?.[0] ?? JSON.stringify(part)}>>`;
    })
    .join('');
  return { name: dashboards[0]?.Properties.DashboardName, widgets: (JSON.parse(text) as { widgets: Widget[] }).widgets };
}

const idOf = (value: unknown): string => /^<<([A-Za-z0-9]+)>>$/.exec(String(value))?.[1] ?? '';

/** Where a metric row of a graph comes from, or why it does not fit any resource of the stack. */
function checkMetricRow(stage: StageName, row: unknown[]): void {
  const { template } = synth(stage);
  const ofType = (type: string) => resourcesOfType(template, type);
  const last = row[row.length - 1];
  if (row.length === 1 && typeof last === 'object' && last && 'expression' in last) {
    const expression = (last as { expression: string }).expression;
    const search = /^SEARCH\('\{([^}]*)\} MetricName="([A-Za-z]+)"(?: Stage="([a-z]+)")?', '[A-Za-z0-9.]+', 300\)$/.exec(expression);
    if (search) {
      const [namespace, ...dimensions] = (search[1] ?? '').split(',');
      const declared = [...Object.values(OPERATION_METRICS), ...Object.values(BUSINESS_METRICS)] as MetricDefinition[];
      const metric = declared.find((candidate) => candidate.name === search[2]);
      expect(namespace).toBe(METRICS_NAMESPACE);
      expect(metric).toBeDefined();
      expect(dimensions).toEqual([...(metric?.dimensions ?? [])]);
      // Stages may share an account: a metric that names its stage is searched for this one's only.
      expect(search[3]).toBe(dimensions.includes('Stage') ? stage : undefined);
      return;
    }
    // A math expression over metrics of its own rows (they are checked as rows of the widget).
    expect(expression).toMatch(/^FILL\(/);
    return;
  }
  const [namespace, metricName, ...rest] = row.filter((cell): cell is string => typeof cell === 'string');
  const dimensions = new Map<string, string>();
  for (let i = 0; i + 1 < rest.length; i += 2) dimensions.set(rest[i] ?? '', rest[i + 1] ?? '');
  switch (namespace) {
    case 'AWS/ApiGateway':
      expect(['Count', 'Latency', '4xx', '5xx']).toContain(metricName);
      expect(ofType('AWS::ApiGatewayV2::Api').has(idOf(dimensions.get('ApiId')))).toBe(true);
      expect(dimensions.get('Stage')).toBe('$default');
      return;
    case 'AWS/Lambda':
      // Invocations: the stage check's runs.
      expect(['Duration', 'Errors', 'Throttles', 'ConcurrentExecutions', 'Invocations']).toContain(metricName);
      expect(ofType('AWS::Lambda::Function').has(idOf(dimensions.get('FunctionName')))).toBe(true);
      return;
    case 'AWS/DynamoDB': {
      expect(['ConsumedReadCapacityUnits', 'ConsumedWriteCapacityUnits', 'ReadThrottleEvents', 'WriteThrottleEvents']).toContain(
        metricName,
      );
      const table = ofType('AWS::DynamoDB::Table').get(idOf(dimensions.get('TableName')));
      expect(table).toBeDefined();
      const index = dimensions.get('GlobalSecondaryIndexName');
      if (index !== undefined) {
        const indexes = (table?.Properties.GlobalSecondaryIndexes as { IndexName: string }[] | undefined) ?? [];
        expect(indexes.map((candidate) => candidate.IndexName)).toContain(index);
      }
      return;
    }
    case `PetStore/${stage}`: {
      const published = [...ofType('AWS::Logs::MetricFilter').values()].flatMap(
        (filter) => filter.Properties.MetricTransformations as { MetricNamespace: string; MetricName: string }[],
      );
      expect(published).toContainEqual(expect.objectContaining({ MetricNamespace: namespace, MetricName: metricName }));
      return;
    }
    case 'AWS/WAFV2':
      // The user pool's web ACL, by the metric name of its visibility config.
      expect(['AllowedRequests', 'BlockedRequests']).toContain(metricName);
      expect(dimensions.get('WebACL')).toBe(`PetStore-${stage}-user-pool`);
      expect(JSON.stringify(ofType('AWS::WAFv2::WebACL').values().next().value?.Properties.VisibilityConfig)).toContain(
        dimensions.get('WebACL') ?? '-',
      );
      return;
    case 'AWS/Cognito':
      expect(ofType('AWS::Cognito::UserPool').has(idOf(dimensions.get('UserPool')))).toBe(true);
      expect(ofType('AWS::Cognito::UserPoolClient').has(idOf(dimensions.get('UserPoolClient')))).toBe(true);
      return;
    default:
      throw new Error(`a graph shows ${namespace}/${metricName}, which nothing of the ${stage} stack publishes`);
  }
}

describe.each(STAGES)('%s dashboard', (stage) => {
  const { widgets, name } = dashboardOf(stage);
  const metricRows = widgets.filter((widget) => widget.type === 'metric').flatMap((widget) => widget.properties.metrics ?? []);

  it('is one per stage, named after its stack, and the DashboardUrl output opens it', () => {
    const { template } = synth(stage);
    expect(name).toBe(stackNameOf(stage));
    const url = JSON.stringify((template.findOutputs('DashboardUrl') as Record<string, { Value: unknown }>).DashboardUrl?.Value);
    expect(url).toContain('cloudwatch/home?region=');
    expect(url).toContain(`#dashboards/dashboard/${stackNameOf(stage)}`);
  });

  it('shows the state of every alarm of the stack', () => {
    const { template } = synth(stage);
    const shown = widgets.filter((widget) => widget.type === 'alarm').flatMap((widget) => widget.properties.alarms ?? []);
    expect(shown.map(idOf).sort()).toEqual([...resourcesOfType(template, 'AWS::CloudWatch::Alarm').keys()].sort());
  });

  it("shows the canaries' verdicts in a row of their own, where deploys are canaries", () => {
    const { template } = synth(stage);
    const verdictIds = [...resourcesOfType(template, 'AWS::CloudWatch::Alarm').keys()].filter((id) =>
      /NewVersion(Failures|Refusals)[0-9A-F]{8}$/.test(id),
    );
    const row = widgets.filter((widget) => widget.type === 'alarm' && widget.properties.title?.startsWith('Canary verdicts'));
    expect(
      row
        .flatMap((widget) => widget.properties.alarms ?? [])
        .map(idOf)
        .sort(),
    ).toEqual(verdictIds.sort());
    expect(verdictIds).toHaveLength(stage === 'dev' ? 0 : DEPLOYED_FUNCTIONS.length + 1);
  });

  it('graphs only metrics a resource of this stack publishes, or shared/metrics.ts declares', () => {
    expect(metricRows.length).toBeGreaterThan(50);
    for (const row of metricRows) checkMetricRow(stage, row);
  });

  const graphed = (predicate: (row: unknown[]) => boolean) => metricRows.filter(predicate);
  const names = (row: unknown[]) => row.filter((cell) => typeof cell === 'string');

  it('graphs each API: requests, latency p50 and p99, 4xx, 5xx and 429', () => {
    const { template } = synth(stage);
    for (const apiId of resourcesOfType(template, 'AWS::ApiGatewayV2::Api').keys()) {
      const ofApi = graphed((row) => names(row).includes(`<<${apiId}>>`)).map((row) => `${String(row[1])} ${JSON.stringify(row.at(-1))}`);
      for (const metric of ['Count', '4xx', '5xx']) expect(ofApi.some((line) => line.startsWith(`${metric} `))).toBe(true);
      for (const stat of ['p50', 'p99'])
        expect(ofApi.some((line) => line.startsWith('Latency ') && line.includes(`"stat":"${stat}"`))).toBe(true);
    }
    expect(graphed((row) => /ApiThrottled$/.test(String(row[1])))).toHaveLength(3);
  });

  it.each(DEPLOYED_FUNCTIONS.map((fn) => fn.name))('graphs %s: duration, errors, throttles and concurrency', (fnName) => {
    const [functionId] = functionNamed(synth(stage).template, fnName);
    const ofFunction = graphed((row) => names(row).includes(`<<${functionId}>>`)).map((row) => row[1]);
    expect(new Set(ofFunction)).toEqual(new Set(['Duration', 'Errors', 'Throttles', 'ConcurrentExecutions']));
  });

  it('graphs every table and the pets status index: consumed capacity and throttles', () => {
    const dynamoDb = graphed((row) => row[0] === 'AWS/DynamoDB');
    for (const key of Object.keys(TABLES) as TableKey[]) {
      const definition: TableDefinition = TABLES[key];
      const indexes = (definition.globalSecondaryIndexes ?? []).map((index) => index.indexName);
      for (const indexName of [undefined, ...indexes]) {
        const rows = dynamoDb.filter((row) =>
          indexName === undefined ? !names(row).includes('GlobalSecondaryIndexName') : names(row).includes(indexName),
        );
        const metrics = new Set(rows.map((row) => row[1]));
        for (const metric of ['ReadThrottleEvents', 'WriteThrottleEvents']) expect(metrics).toContain(metric);
        if (key === 'pets' || indexName === undefined) {
          for (const metric of ['ConsumedReadCapacityUnits', 'ConsumedWriteCapacityUnits']) expect(metrics).toContain(metric);
        }
      }
    }
  });

  it("graphs every metric of shared/metrics.ts: each operation's requests, errors, latency, cold starts, and the business counts", () => {
    const searched = metricRows.flatMap((row) => {
      const expression = (row.at(-1) as { expression?: string } | undefined)?.expression ?? '';
      return [...expression.matchAll(/MetricName="([A-Za-z]+)"/g)].map((match) => match[1]);
    });
    for (const metric of [...Object.values(OPERATION_METRICS), ...Object.values(BUSINESS_METRICS)]) expect(searched).toContain(metric.name);
  });

  it('shows init duration from the REPORT records where the stage keeps them, and says where it is otherwise', () => {
    const query = widgets.find((widget) => widget.type === 'log');
    const text = widgets.find((widget) => widget.type === 'text' && widget.properties.markdown?.includes('Init duration'));
    if (stageConfig(stage, { alarmEmail: 'none', sesFromEmail: 'cognito' }).systemLogLevel === 'WARN') {
      expect(query).toBeUndefined();
      expect(text).toBeDefined();
    } else {
      expect(query?.properties.query).toContain('initDurationMs');
      expect(text).toBeUndefined();
    }
  });
});

describe.each<[string, boolean, () => Synthesized]>([
  ['dev', false, () => synth('dev')],
  ['staging', true, () => synth('staging')],
  ['prod', true, () => synth('prod')],
  ['dev with -c tracing=true', true, () => variant('devWithOptions')],
  ['prod with -c tracing=false', false, () => variant('prodWithOptions')],
])('%s: tracing %s', (_stage, tracing, synthesized) => {
  const { template } = synthesized();

  it.each(DEPLOYED_FUNCTIONS.map((fn) => fn.name))(
    '%s: active tracing (never the authorizer), X-Ray writes and the tracer told so',
    (fnName) => {
      const traced = tracing && fnName !== 'authorizer';
      const [functionId, fn] = functionNamed(template, fnName);
      expect((fn.Properties.TracingConfig as { Mode?: string } | undefined)?.Mode).toBe(traced ? 'Active' : undefined);
      const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables[TRACE_ENABLED_ENV]).toBe(String(traced));
      const xray = statementsOf(template, functionId).filter((statement) => statement.Action.some((action) => action.startsWith('xray:')));
      expect(xray.map((statement) => ({ ...statement, Action: [...statement.Action].sort() }))).toEqual(
        traced ? [{ Effect: 'Allow', Action: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], Resource: ['*'] }] : [],
      );
    },
  );

  it('the HTTP API stages carry no tracing setting: X-Ray traces REST APIs only, so a trace starts at the function', () => {
    for (const stageResource of resourcesOfType(template, 'AWS::ApiGatewayV2::Stage').values() as Iterable<Resource>) {
      expect(JSON.stringify(stageResource.Properties)).not.toMatch(/[Tt]rac/);
    }
  });
});

it('an unknown tracing value stops the synth with a message naming it', () => {
  expect(() => stageConfig('dev', { tracing: 'yes' })).toThrow('tracing: "yes" is neither true nor false');
});
