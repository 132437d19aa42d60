/**
 * A canary's verdict, read from the synthesized template: each function's rollback alarms, fed recorded datapoints of
 * one alarm period (the new version's traffic and the old one's, the API's) and evaluated as CloudWatch would
 * (support/metric-math.ts). The deployment rolls back when any of its group's alarms is in ALARM.
 */
import { EXCESS_AT_LEAST, FAILURE_CODES, JUDGED_AT_LEAST, REFUSAL_MARGIN_PERCENT } from '#lib/canary-judgement';
import { stageConfig } from '#lib/stage-config';
import { ALL_ERROR_CODES } from '#contract/schemas/error';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import type { FunctionName } from '#shared/table-access';
import { alarmState, watchedSeries, type AlarmProperties, type MetricQuery, type Series } from '../support/metric-math';
import { rollbackAlarmsOf, synth, type Resource, type Synthesized } from '../support/synth';

type Template = Synthesized['template'];

/** One version's requests in the period, and how many of them went wrong. */
interface Traffic {
  readonly calls: number;
  readonly crashed?: number;
  /** Answered 5xx (the authorizer: its lookup failed). */
  readonly failed?: number;
  /** The authorizer's: made anonymous. */
  readonly refused?: number;
}

interface Case {
  readonly function: FunctionName;
  /** Requests to the API (or APIs) the function serves in the period, and how many of them answered 5xx. */
  readonly api: { readonly requests: number; readonly serverErrors: number };
  readonly old: Traffic;
  /** Through the live alias, and the pre-traffic hook's direct calls. */
  readonly new: Traffic;
  readonly hook?: Traffic;
  /** The code the failures carry: a 503 from a DynamoDB blip, a 500 from a bug. */
  readonly failureCode?: string;
}

const NONE: Traffic = { calls: 0 };
const sum = (traffics: readonly Traffic[], field: keyof Traffic) => traffics.reduce((total, traffic) => total + (traffic[field] ?? 0), 0);

/** The datapoint each metric of the stack's alarms would have: none for a count of 0 (nothing was published). */
function datapointsOf(scenario: Case): (query: MetricQuery) => Series {
  const hook = scenario.hook ?? NONE;
  return (query) => {
    const metric = query.MetricStat?.Metric;
    const dimensions = Object.fromEntries((metric?.Dimensions ?? []).map(({ Name, Value }) => [Name, Value]));
    const throughAlias = JSON.stringify(dimensions.Resource ?? '').includes(':live');
    const lambdaOf = (field: keyof Traffic) =>
      dimensions.ExecutedVersion !== undefined
        ? sum([scenario.new], field)
        : dimensions.Resource === undefined
          ? sum([scenario.old, scenario.new, hook], field)
          : throughAlias
            ? sum([scenario.old, scenario.new], field)
            : sum([hook], field);
    const value = ((): number => {
      switch (`${metric?.Namespace} ${metric?.MetricName}`) {
        case 'AWS/Lambda Invocations':
          return lambdaOf('calls');
        case 'AWS/Lambda Errors':
          return lambdaOf('crashed');
        case 'AWS/ApiGateway Count':
          return scenario.api.requests;
        case 'AWS/ApiGateway 5xx':
          return scenario.api.serverErrors;
        case 'PetStore Requests': {
          const versions = dimensions.Version === undefined ? [scenario.old, scenario.new, hook] : [scenario.new, hook];
          if (dimensions.Outcome === undefined) return sum(versions, 'refused') + sum(versions, 'failed');
          return sum(versions, dimensions.Outcome === 'server_error' ? 'failed' : 'refused');
        }
        case 'PetStore Errors': {
          const code = scenario.failureCode ?? 'internal_error';
          return dimensions.Code === code ? sum([scenario.old, scenario.new, hook], 'failed') : 0;
        }
        default:
          throw new Error(`no datapoints recorded for ${JSON.stringify(metric)}`);
      }
    })();
    return [value > 0 ? value : undefined];
  };
}

/** The alarm as CloudWatch holds it: a plain metric alarm becomes a one-metric expression. */
function asMathAlarm(alarm: Resource): AlarmProperties {
  const properties = alarm.Properties as unknown as Omit<AlarmProperties, 'Metrics'> & {
    Metrics?: AlarmProperties['Metrics'];
    MetricName?: string;
    Namespace?: string;
    Dimensions?: { Name: string; Value: unknown }[];
  };
  if (properties.Metrics) return { ...properties, Metrics: properties.Metrics };
  const metric = {
    Namespace: properties.Namespace ?? '',
    MetricName: properties.MetricName ?? '',
    Dimensions: properties.Dimensions ?? [],
  };
  return {
    ...properties,
    Metrics: [
      { Id: 'm', MetricStat: { Metric: metric }, ReturnData: false },
      { Id: 'watched', Expression: 'm' },
    ],
  };
}

/** Which of the function's rollback alarms the period leaves in ALARM (by the end of its id, CDK's hash aside). */
function firing(template: Template, scenario: Case): string[] {
  return [...rollbackAlarmsOf(template, scenario.function)]
    .filter(([, alarm]) => {
      const properties = asMathAlarm(alarm);
      return alarmState(properties, watchedSeries(properties.Metrics, datapointsOf(scenario))) === 'ALARM';
    })
    .map(([id]) => id.replace(/^Alarms/, '').replace(/[0-9A-F]{8}$/, ''));
}

/** At prod's and staging's configuration alike: the cases sit far enough from each margin (1 % and 5 %). */
const CASES: readonly (readonly [string, Case, readonly string[]])[] = [
  [
    'healthy with one blip: one 503 among 30 canary requests',
    {
      function: 'createPet',
      api: { requests: 3000, serverErrors: 1 },
      old: { calls: 270 },
      new: { calls: 30, failed: 1 },
      failureCode: 'service_unavailable',
    },
    [],
  ],
  [
    'a DynamoDB incident: both versions fail alike',
    {
      function: 'createPet',
      api: { requests: 3000, serverErrors: 10 },
      old: { calls: 270, failed: 9 },
      new: { calls: 30, failed: 1 },
      failureCode: 'service_unavailable',
    },
    [],
  ],
  [
    'keyless-heavy background: 62 % of callers anonymous to the old authorizer, 66 % to the new',
    {
      function: 'authorizer',
      api: { requests: 1000, serverErrors: 0 },
      old: { calls: 900, refused: 560 },
      new: { calls: 100, refused: 66 },
    },
    [],
  ],
  [
    "broken at 2 % of the API's traffic: every request to the new getPet fails, 0.2 % of the API's",
    { function: 'getPet', api: { requests: 10_000, serverErrors: 20 }, old: { calls: 180 }, new: { calls: 20, failed: 20 } },
    ['GetPetNewVersionFailures'],
  ],
  [
    'a new version crashing on 10 % of its requests',
    { function: 'listPets', api: { requests: 5000, serverErrors: 10 }, old: { calls: 900 }, new: { calls: 100, crashed: 10 } },
    ['ListPetsNewVersionFailures'],
  ],
  [
    'an authorizer that refuses valid keys',
    {
      function: 'authorizer',
      api: { requests: 1000, serverErrors: 0 },
      old: { calls: 900, refused: 560 },
      new: { calls: 100, refused: 100 },
    },
    ['AuthorizerNewVersionRefusals'],
  ],
  [
    'too few to judge: 5 of 5 fail, under the minimum of requests',
    { function: 'submitMessage', api: { requests: 2000, serverErrors: 5 }, old: { calls: 45 }, new: { calls: 5, failed: 5 } },
    [],
  ],
  ['no traffic at all', { function: 'createPet', api: { requests: 0, serverErrors: 0 }, old: NONE, new: NONE }, []],
  [
    "healthy with one blip at low traffic: one 503 among 40 API requests (2.5 %, over prod's 1 %)",
    {
      function: 'createPet',
      api: { requests: 40, serverErrors: 1 },
      old: { calls: 36 },
      new: { calls: 4, failed: 1 },
      hook: { calls: 20 },
      failureCode: 'service_unavailable',
    },
    [],
  ],
  [
    'an outage at low traffic: 30 of 40 API requests answer 503, both versions alike',
    {
      function: 'createPet',
      api: { requests: 40, serverErrors: 30 },
      old: { calls: 36, failed: 27 },
      new: { calls: 4, failed: 3 },
      failureCode: 'service_unavailable',
    },
    ['PetsApiServerErrorRate'],
  ],
  [
    'an authorizer blip at low traffic: one crash among 40 requests',
    { function: 'authorizer', api: { requests: 40, serverErrors: 1 }, old: { calls: 36, crashed: 1 }, new: { calls: 4 } },
    [],
  ],
  [
    'the authorizer down at low traffic: 30 of 40 requests crash it',
    { function: 'authorizer', api: { requests: 40, serverErrors: 30 }, old: { calls: 36, crashed: 27 }, new: { calls: 4, crashed: 3 } },
    ['PetsApiServerErrorRate', 'MessagesApiServerErrorRate', 'AuthorizerErrors'],
  ],
];

describe.each(['staging', 'prod'] as const)('%s canary verdicts', (stage) => {
  const { template } = synth(stage);

  it.each(CASES)('%s', (_name, scenario, expected) => {
    expect(firing(template, scenario)).toEqual(expected);
  });

  it("the pre-traffic hook's calls count for the new version: a version that fails them all is judged on them", () => {
    const scenario: Case = {
      function: 'createPet',
      api: { requests: 0, serverErrors: 0 },
      old: NONE,
      new: NONE,
      hook: { calls: 30, failed: 30 },
    };
    expect(firing(template, scenario)).toEqual(['CreatePetNewVersionFailures']);
  });
});

describe.each(['staging', 'prod'] as const)('%s baseline-relative rollback triggers', (stage) => {
  const { template } = synth(stage);
  const percent = stageConfig(stage, stage === 'prod' ? { alarmEmail: 'none', sesFromEmail: 'cognito' } : {}).alarms.serverErrorRatePercent;
  const verdict = (margin: number) =>
    `IF(newCalls >= ${JUDGED_AT_LEAST} AND excess >= ${EXCESS_AT_LEAST} AND 100 * excess > ${margin} * expectedGood, 1, 0)`;
  const expressions = (alarm: Resource) =>
    Object.fromEntries(
      (alarm.Properties.Metrics as MetricQuery[]).filter((query) => query.Expression).map((query) => [query.Id, query.Expression]),
    );

  it.each(DEPLOYED_FUNCTIONS.map((fn) => fn.name))(
    '%s rolls back when its new version fails clearly more than the old one, on enough requests to judge',
    (name) => {
      const alarms = [...rollbackAlarmsOf(template, name).values()].filter((alarm) =>
        /newest version crashed/.test(String(alarm.Properties.AlarmDescription)),
      );
      expect(alarms).toHaveLength(1);
      const alarm = alarms[0] as Resource;
      expect(alarm.Properties).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
      const codes = name === 'authorizer' ? FAILURE_CODES.authorizer : FAILURE_CODES.route;
      expect(expressions(alarm)).toMatchObject({
        newCalls: 'FILL(callsNew, 0) + FILL(callsDirect, 0)',
        newBad: 'FILL(crashedNew, 0) + FILL(crashedDirect, 0) + FILL(failedNew, 0)',
        oldCalls: 'FILL(callsAll, 0) - FILL(callsNew, 0)',
        oldBad: `FILL(crashedAll, 0) - FILL(crashedNew, 0) + ${codes.map((_, index) => `FILL(failedAll${index}, 0)`).join(' + ')} - FILL(failedNew, 0)`,
        oldShare: 'IF(oldCalls > 0, oldBad / oldCalls, 0)',
      });
      const watched = (alarm.Properties.Metrics as MetricQuery[]).find((query) => query.ReturnData !== false && query.Expression);
      expect(watched?.Expression).toBe(verdict(percent));
    },
  );

  it("the authorizer also rolls back when its new version refuses more than half of those its predecessor's share says it would admit", () => {
    const alarms = [...rollbackAlarmsOf(template, 'authorizer').values()].filter((alarm) =>
      /callers anonymous/.test(String(alarm.Properties.AlarmDescription)),
    );
    expect(alarms).toHaveLength(1);
    const alarm = alarms[0] as Resource;
    expect(expressions(alarm)).toMatchObject({
      newBad: 'FILL(refusedNew, 0) + FILL(failedNew, 0)',
      oldBad: 'FILL(turnedAwayAll, 0) - FILL(refusedNew, 0) - FILL(failedNew, 0)',
    });
    const watched = (alarm.Properties.Metrics as MetricQuery[]).find((query) => query.ReturnData !== false && query.Expression);
    expect(watched?.Expression).toBe(verdict(REFUSAL_MARGIN_PERCENT));
  });
});

it("every version's failures are counted by the codes of the 5xx answers the contract documents, and no others", () => {
  const serverErrors = Object.entries(ALL_ERROR_CODES).filter(([, docs]) => docs.status >= 500);
  expect(serverErrors.map(([code]) => code).sort()).toEqual([...FAILURE_CODES.route].sort());
});
