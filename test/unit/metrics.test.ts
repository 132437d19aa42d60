/**
 * The embedded metric format writer (lambda/runtime/metrics.ts) on its own: the switch that keeps the local
 * server's output free of metrics documents unless asked, and dimensions that cannot grow with traffic. What a
 * request's line publishes is shown through the local stack (test/integration/observability.test.ts).
 */
import { count, metricsPublished } from '#runtime/metrics';
import { BUSINESS_METRICS, METRICS } from '#shared/metrics';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

test('outside Lambda no metrics unless POWERTOOLS_METRICS_DISABLED=false; in Lambda unless it is true', () => {
  delete process.env.POWERTOOLS_METRICS_DISABLED;
  delete process.env.AWS_LAMBDA_FUNCTION_NAME;
  expect(metricsPublished()).toBe(false);
  process.env.AWS_LAMBDA_FUNCTION_NAME = 'PetStore-dev-submitMessage';
  expect(metricsPublished()).toBe(true);
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  expect(metricsPublished()).toBe(false);
  delete process.env.AWS_LAMBDA_FUNCTION_NAME;
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  expect(metricsPublished()).toBe(true);
});

test('a count outside a request writes nothing: it belongs to a request’s line', () => {
  const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  count('MessagesQueued', {});
  expect(write).not.toHaveBeenCalled();
  write.mockRestore();
});

test('the metric definitions name no dimension that could grow with keys or accounts', () => {
  const names = METRICS.flatMap((metric) => [...metric.dimensions, ...(metric.breakdowns ?? []).flat()]);
  expect(new Set(names)).toEqual(new Set(['Service', 'Stage', 'Operation', 'Version', 'Outcome', 'Code', 'status']));
  expect(Object.keys(BUSINESS_METRICS)).toEqual(['PetsCreated', 'MessagesQueued', 'KeysIssued', 'KeysRevoked']);
});
