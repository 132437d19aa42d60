import { useTestApi, expectError, expectRefusedUnchanged } from '../support/test-api';

const api = useTestApi();

interface Message {
  id: string;
  message: string;
  status: string;
  createdAt: string;
}

const submit = (json: unknown) => api.call('POST', '/messages', { json });
const submitRaw = (body: string | Uint8Array, contentType?: string) =>
  api.call('POST', '/messages', { body, headers: contentType ? { 'content-type': contentType } : {} });

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO_UTC_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /messages', () => {
  test('answers 202 with the queued Message and stores it with the caller', async () => {
    const before = Date.now();
    const answer = await submit({ message: 'hi' });

    expect(answer.status).toBe(202);
    expect(answer.headers.get('content-type')).toBe('application/json');
    const message = answer.json as Message;
    expect(message).toEqual({
      id: expect.stringMatching(ULID),
      message: 'hi',
      status: 'queued',
      createdAt: expect.stringMatching(ISO_UTC_MILLIS),
    });
    expect(Date.parse(message.createdAt)).toBeGreaterThanOrEqual(before - 1);

    const stored = (await api.scan('messages')).find((item) => item.id === message.id);
    // The write token tells this write from any other (conditional-put.ts); it is stored, never answered.
    expect(stored).toEqual({ ...message, accountId: 'acct_test', keyId: expect.stringMatching(/^key_/), writeToken: expect.any(String) });
  });

  test('is served on the messages base address, not under /v1', async () => {
    expectError(await api.call('POST', '/v1/messages', { json: { message: 'hi' } }), 404, 'not_found');
  });

  test('preserves unicode and emoji byte for byte', async () => {
    const text = 'Grüße, 世界! 👩‍👩‍👧‍👦 🏳️‍🌈 e\u0301 ﷺ 𝄞 \u200b tab\there\nnew line';
    const answer = await submit({ message: text });
    expect(answer.status).toBe(202);
    expect(Buffer.from((answer.json as Message).message, 'utf8')).toEqual(Buffer.from(text, 'utf8'));
    const stored = (await api.scan('messages')).find((item) => item.id === (answer.json as Message).id);
    expect(Buffer.from(stored?.message as string, 'utf8')).toEqual(Buffer.from(text, 'utf8'));
  });

  test('accepts `application/json; charset=utf-8` and a message of exactly 10,000 characters', async () => {
    const answer = await submitRaw(JSON.stringify({ message: 'm'.repeat(10_000) }), 'application/json; charset=utf-8');
    expect(answer.status).toBe(202);
  });
});

describe('POST /messages refuses bad input with 400 and stores nothing', () => {
  const cases: [string, () => ReturnType<typeof submit>, string, RegExp][] = [
    ['invalid JSON', () => submitRaw('{"message": hi}', 'application/json'), 'invalid_json', /not valid JSON/],
    ['an empty body', () => submitRaw('', 'application/json'), 'invalid_json', /empty/],
    ['an array body', () => submit(['hi']), 'invalid_request', /request body must be a JSON object/],
    ['a null body', () => submitRaw('null', 'application/json'), 'invalid_request', /JSON object/],
    ['a string body', () => submitRaw('"hi"', 'application/json'), 'invalid_request', /JSON object/],
    ['a missing message', () => submit({}), 'invalid_request', /'message' is required/],
    ['a numeric message', () => submit({ message: 42 }), 'invalid_request', /'message' must be a string/],
    ['a null message', () => submit({ message: null }), 'invalid_request', /'message' must be a string/],
    ['an object message', () => submit({ message: { text: 'hi' } }), 'invalid_request', /'message' must be a string/],
    ['an empty message', () => submit({ message: '' }), 'invalid_request', /'message' must not be empty/],
    ['a blank message', () => submit({ message: ' \n ' }), 'invalid_request', /'message' must not be blank/],
    ['a message over 10,000 characters', () => submit({ message: 'm'.repeat(10_001) }), 'invalid_request', /at most 10000 characters/],
    ['a message with NUL', () => submit({ message: 'a\u0000' }), 'invalid_request', /'message' must be well-formed/],
    ['a message with a C1 control (NEL)', () => submit({ message: 'line\u0085next' }), 'invalid_request', /'message' must be well-formed/],
    ['a message with a C1 control (CSI)', () => submit({ message: 'a\u009b31m' }), 'invalid_request', /'message' must be well-formed/],
    ['a message with DEL', () => submit({ message: 'a\u007f' }), 'invalid_request', /'message' must be well-formed/],
    ['a lone surrogate', () => submitRaw('{"message":"\\udc00"}', 'application/json'), 'invalid_request', /'message' must be well-formed/],
    ['an unknown field', () => submit({ message: 'hi', priority: 1 }), 'invalid_request', /unknown field 'priority'/],
    ...['__proto__', 'constructor', 'toString'].map((name): (typeof cases)[number] => [
      `a query parameter named ${name}`,
      () => api.call('POST', `/messages?${name}=1`, { json: { message: 'hi' } }),
      'invalid_request',
      new RegExp(`unknown query parameter '${name}'`),
    ]),
    ['a text/plain content type', () => submitRaw('{"message":"hi"}', 'text/plain'), 'unsupported_media_type', /application\/json/],
    ['no content type', () => submitRaw(new TextEncoder().encode('{"message":"hi"}')), 'unsupported_media_type', /application\/json/],
    [
      'a form content type',
      () => submitRaw('message=hi', 'application/x-www-form-urlencoded'),
      'unsupported_media_type',
      /application\/json/,
    ],
  ];

  test.each(cases)('%s', async (_label, send, code, message) => {
    await expectRefusedUnchanged(api, 'messages', send, { status: 400, code, message });
  });

  test('a 1 MB body answers 413 payload_too_large', async () => {
    await expectRefusedUnchanged(api, 'messages', () => submit({ message: 'x'.repeat(1024 * 1024) }), {
      status: 413,
      code: 'payload_too_large',
    });
  });
});

describe('POST /messages authentication comes first', () => {
  test.each([
    ['no key', {}],
    ['an invalid key', { authorization: 'Bearer pst_invalidinvalidinvalidinvalidinvalidinvali' }],
    ['a non-bearer header', { authorization: 'Basic dXNlcjpwYXNz' }],
  ])('%s answers 401, even with an invalid body', async (_label, headers) => {
    const answer = await api.call('POST', '/messages', {
      key: null,
      headers: { ...headers, 'content-type': 'text/plain' },
      body: 'not json',
    });
    expectError(answer, 401, 'unauthorized');
  });
});
