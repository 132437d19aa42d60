/**
 * The check every HTTP test's answers go through (test/support/test-api.ts) must refuse what the
 * document does not allow — otherwise "every answer honours the contract" would prove nothing.
 */
import { contractViolations, type ContractAnswer } from '#openapi/contract-check';

const ORIGIN = 'http://127.0.0.1:3000';
const pet = { id: 244208697521988, name: 'Rex', categoryId: 1, status: 'available' };
const JSON_HEADERS = {
  'content-type': 'application/json',
  'cache-control': 'no-store',
  'content-length': '70',
  date: 'Sun, 22 Nov 2026 01:00:00 GMT',
};

function answer(status: number, body: unknown, headers: Record<string, string> = {}): ContractAnswer {
  return { status, headers: new Headers({ ...JSON_HEADERS, ...headers }), text: typeof body === 'string' ? body : JSON.stringify(body) };
}
/** As API Gateway answers by itself: no Content-Type, none of the service's headers. */
const gatewayReply = (status: number, message: string): ContractAnswer => ({
  status,
  headers: new Headers({ 'apigw-requestid': 'WEx2KrOF2tJSO4KJ', 'content-length': '30', date: JSON_HEADERS.date }),
  text: JSON.stringify({ message }),
});
const problems = (method: string, path: string, reply: ContractAnswer): string[] =>
  contractViolations({ method, url: `${ORIGIN}${path}` }, reply).problems;
const error = (status: number, code: string) => ({ code, message: 'something', status });

describe('answers the document allows', () => {
  test.each([
    ['GET', '/v1/pets?limit=2', answer(200, [pet], { link: `<${ORIGIN}/v1/pets?limit=2&cursor=abc>; rel="next"` })],
    ['POST', '/v1/pets', answer(201, pet, { location: `${ORIGIN}/v1/pets/${pet.id}` })],
    ['GET', `/v1/pets/${pet.id}`, answer(200, pet, { deprecation: '@1767225600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' })],
    [
      'POST',
      '/messages',
      answer(202, { id: '01KAQ5X4R3M0V6W8Y9Z1B2C3D4', message: 'hi', status: 'queued', createdAt: '2026-11-22T01:27:44.123Z' }),
    ],
    ['GET', '/v1/pets', answer(401, error(401, 'unauthorized'), { 'www-authenticate': 'Bearer realm="petstore"' })],
    ['GET', '/v1/pets', answer(503, error(503, 'service_unavailable'), { 'retry-after': '1' })],
    ['DELETE', '/v1/pets/1', answer(404, error(404, 'not_found'))],
    ['GET', '/v1/pets', gatewayReply(429, 'Too Many Requests')],
    ['POST', '/v1/pets', gatewayReply(413, 'Request Entity Too Large')],
    ['POST', '/messages', gatewayReply(500, 'Internal Server Error')],
  ])('%s %s answering as documented', (method, path, reply) => {
    expect(problems(method, path, reply)).toEqual([]);
  });
});

describe('answers the document does not allow', () => {
  test('an undocumented status', () => {
    expect(problems('GET', '/v1/pets', answer(418, error(418, 'teapot')))).toEqual([expect.stringMatching(/status 418 is not documented/)]);
    expect(problems('GET', '/v1/pets', answer(201, pet))).toEqual([expect.stringMatching(/status 201 is not documented/)]);
  });

  test('a missing required header', () => {
    expect(problems('POST', '/v1/pets', answer(201, pet))).toEqual(['required header Location is missing']);
    expect(problems('GET', '/v1/pets/1', answer(404, error(404, 'not_found')))).toEqual([
      'required header Deprecation is missing',
      'required header Sunset is missing',
    ]);
    expect(problems('GET', '/v1/pets', answer(401, error(401, 'unauthorized')))).toEqual(['required header WWW-Authenticate is missing']);
  });

  test('an undocumented header', () => {
    expect(problems('GET', '/v1/pets', answer(200, [], { 'x-debug': 'on' }))).toEqual(['header x-debug is not documented for this answer']);
    expect(
      problems(
        'GET',
        '/v1/pets/1',
        answer(404, error(404, 'not_found'), { deprecation: '@1767225600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', location: '/x' }),
      ),
    ).toEqual(['header location is not documented for this answer']);
  });

  test('a header value outside its schema', () => {
    expect(problems('GET', '/v1/pets', answer(200, [], { 'cache-control': 'max-age=60' }))).toEqual([
      expect.stringMatching(/^header Cache-Control: must be equal to constant/),
    ]);
    expect(problems('GET', '/v1/pets', answer(503, error(503, 'service_unavailable'), { 'retry-after': 'soon' }))).toEqual([
      expect.stringMatching(/^header Retry-After: must be integer/),
    ]);
  });

  test('a body that does not match the schema', () => {
    expect(problems('GET', '/v1/pets', answer(200, [{ ...pet, colour: 'brown' }]))).toEqual([
      expect.stringMatching(/^body \/0 must NOT have additional properties/),
    ]);
    expect(problems('POST', '/v1/pets', answer(201, { ...pet, id: 0 }, { location: `${ORIGIN}/v1/pets/0` }))).toEqual([
      expect.stringMatching(/^body \/id must be > 0/),
    ]);
    expect(problems('GET', '/v1/pets', answer(400, { message: 'bad' }))).toEqual([
      "body (root) must have required property 'code'",
      "body (root) must have required property 'status'",
    ]);
    expect(problems('GET', '/v1/pets', answer(200, 'not json'))).toEqual([expect.stringMatching(/^the body is not JSON/)]);
  });

  test('an undocumented media type', () => {
    expect(problems('GET', '/v1/pets', answer(200, [], { 'content-type': 'text/html' }))).toEqual([
      expect.stringMatching(/Content-Type text\/html is not documented/),
    ]);
  });

  test("an answer without Content-Type, unless it is API Gateway's own body where the document lists it", () => {
    const withoutType = (reply: ContractAnswer): ContractAnswer => {
      const headers = new Headers(reply.headers);
      headers.delete('content-type');
      return { ...reply, headers };
    };
    expect(problems('GET', '/v1/pets', withoutType(answer(400, error(400, 'invalid_request'))))).toEqual([
      expect.stringMatching(/Content-Type \(none\) is not documented/),
    ]);
    expect(problems('GET', '/v1/pets', withoutType(answer(429, error(429, 'throttled'))))).toContain(
      'body (root) must NOT have additional properties',
    );
    expect(problems('GET', '/v1/pets', gatewayReply(400, 'Bad Request'))).toContain(
      'Content-Type (none) is not documented (documented: application/json)',
    );
  });

  test('anything but 401 or 404 from a route the document does not list', () => {
    expect(problems('GET', '/v1/nowhere', answer(200, {}))).toEqual([
      expect.stringMatching(/status 200 is not documented \(documented: 401, 404\)/),
    ]);
    expect(problems('POST', '/v1/messages', answer(404, { message: 'Not Found' }))).toContain(
      "body (root) must have required property 'code'",
    );
  });
});
