/**
 * The embedded metric format writer (lambda/runtime/metrics.ts) on its own: a business count outside a request,
 * and the switch that keeps the local server's output free of metrics documents unless asked.
 */
import { count } from '#runtime/metrics';
import { BUSINESS_METRICS, METRICS, METRICS_NAMESPACE } from '#shared/metrics';

const saved = { ...process.env };
let written: string[];
beforeEach(() => {
  written = [];
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));
});
afterEach(() => {
  jest.restoreAllMocks();
  process.env = { ...saved };
});

test('a count outside a request is a document of its own, with the stage and its dimensions', () => {
  Object.assign(process.env, { POWERTOOLS_METRICS_DISABLED: 'false', PETSTORE_STAGE: 'staging' });
  count('PetsCreated', { status: 'pending' });
  expect(written).toHaveLength(1);
  const doc = JSON.parse(written[0] ?? '') as Record<string, unknown>;
  expect(doc).toMatchObject({
    _aws: {
      Timestamp: expect.any(Number) as unknown,
      CloudWatchMetrics: [
        { Namespace: METRICS_NAMESPACE, Dimensions: [['Service', 'Stage', 'status']], Metrics: [{ Name: 'PetsCreated', Unit: 'Count' }] },
      ],
    },
    Service: 'petstore',
    Stage: 'staging',
    status: 'pending',
    PetsCreated: 1,
  });
});

test('outside Lambda nothing is written unless POWERTOOLS_METRICS_DISABLED=false; in Lambda unless it is true', () => {
  delete process.env.POWERTOOLS_METRICS_DISABLED;
  delete process.env.AWS_LAMBDA_FUNCTION_NAME;
  count('MessagesQueued', {});
  expect(written).toHaveLength(0);
  process.env.AWS_LAMBDA_FUNCTION_NAME = 'PetStore-dev-submitMessage';
  count('MessagesQueued', {});
  expect(written).toHaveLength(1);
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  count('MessagesQueued', {});
  expect(written).toHaveLength(1);
});

test('the metric definitions name no dimension that could grow with keys or accounts', () => {
  const names = METRICS.flatMap((metric) => [...metric.dimensions, ...(metric.breakdowns ?? []).flat()]);
  expect(new Set(names)).toEqual(new Set(['Service', 'Stage', 'Operation', 'Version', 'Outcome', 'Code', 'status']));
  expect(Object.keys(BUSINESS_METRICS)).toEqual(['PetsCreated', 'MessagesQueued', 'KeysIssued', 'KeysRevoked']);
});
