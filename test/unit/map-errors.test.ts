import { DependencyUnavailableError, IdempotencyKeyReusedError } from '#contract/domain-errors';
import { ApiError } from '#contract/errors';
import { classify } from '#http/middleware/map-errors';

beforeAll(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
});

/** An error shaped like the AWS SDK v3's service and transport errors. */
const sdkError = (name: string, fields: Record<string, unknown>): Error => Object.assign(new Error(name), { name, ...fields });

describe('what a client sees for each kind of failure', () => {
  test.each([
    ['DynamoDB throttling', sdkError('ThrottlingException', { $fault: 'client', $metadata: { httpStatusCode: 400, attempts: 3 } })],
    [
      'provisioned throughput exceeded',
      sdkError('ProvisionedThroughputExceededException', { $fault: 'client', $metadata: { httpStatusCode: 400 } }),
    ],
    [
      "the account's request rate exceeded",
      sdkError('RequestLimitExceeded', { $fault: 'client', $metadata: { httpStatusCode: 400, attempts: 3 } }),
    ],
    ['a DynamoDB server error', sdkError('InternalServerError', { $fault: 'server', $metadata: { httpStatusCode: 500 } })],
    ['a transport failure (no HTTP answer)', sdkError('Error', { $metadata: { attempts: 3, totalRetryDelay: 120 } })],
    ['a request timeout', sdkError('TimeoutError', {})],
    ['a dependency the data layer reports unavailable (the user pool over its quota)', new DependencyUnavailableError('the user pool')],
  ])('%s is 503 service_unavailable with Retry-After', (_label, error) => {
    expect(classify(error).apiError).toMatchObject({ status: 503, code: 'service_unavailable', headers: { 'retry-after': '1' } });
  });

  test('a DynamoDB client error (our bug, e.g. a bad expression) is 500 internal_error without internals', () => {
    const mapped = classify(
      sdkError('ValidationException', {
        $fault: 'client',
        $metadata: { httpStatusCode: 400 },
        message: 'Invalid ProjectionExpression: secret detail',
      }),
    ).apiError;
    expect(mapped).toMatchObject({ status: 500, code: 'internal_error', message: 'internal error' });
  });

  test('anything thrown that is not an Error is 500 internal_error', () => {
    expect(classify('boom').apiError).toMatchObject({ status: 500, code: 'internal_error' });
  });

  test("an Idempotency-Key reused with another body (the data layer's error) is 422 idempotency_key_reused", () => {
    expect(classify(new IdempotencyKeyReusedError()).apiError).toMatchObject({
      status: 422,
      code: 'idempotency_key_reused',
      message: 'this Idempotency-Key was already used with a different request body',
    });
  });

  test('an ApiError passes through unchanged', () => {
    const error = new ApiError(404, 'not_found', 'no pet');
    expect(classify(error).apiError).toBe(error);
  });
});

describe('what gets logged', () => {
  test('failures on our side are logged with what failed; client mistakes are not', () => {
    expect(classify(sdkError('TimeoutError', {})).log).toMatchObject({ level: 'warn', fields: { errorName: 'TimeoutError' } });
    const bug = new Error('bug');
    expect(classify(bug).log).toMatchObject({ level: 'error', message: 'unhandled error', fields: { error: bug } });
    expect(classify(new ApiError(400, 'invalid_request', 'bad')).log).toBeUndefined();
  });
});
