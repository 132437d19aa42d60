/**
 * What every body-carrying operation accepts as a request body, held to the spec: exactly
 * `application/json` (any parameters, case and spacing RFC 9110 allows; charset, if any, UTF-8), and
 * bytes that are valid UTF-8, each member name once per object (I-JSON, RFC 7493). Anything else is refused
 * with 400 and stores nothing.
 */
import { expectRefusedUnchanged, useTestApi } from '../support/test-api';

const api = useTestApi();

const OPERATIONS = [
  { label: 'POST /v1/pets', path: '/v1/pets', table: 'pets', created: 201, body: (text: string) => `{"name":"${text}","categoryId":1}` },
  { label: 'POST /messages', path: '/messages', table: 'messages', created: 202, body: (text: string) => `{"message":"${text}"}` },
] as const;

const send = (path: string, body: string | Uint8Array, contentType: string) =>
  api.call('POST', path, { body, headers: { 'content-type': contentType } });

describe.each(OPERATIONS)('$label', ({ path, table, created, body }) => {
  test.each([
    'application/json',
    'APPLICATION/JSON',
    'application/json; charset=utf-8',
    'application/json ; charset=utf-8',
    'application/json;\tcharset=UTF-8',
    'Application/Json;Charset="utf-8"',
    'application/json;',
    'application/json; version=1',
  ])('accepts Content-Type %p', async (contentType) => {
    const answer = await send(path, body('accepted'), contentType);
    expect(answer.status).toBe(created);
  });

  test.each([
    'application/vnd.api+json',
    'application/problem+json',
    'application/merge-patch+json',
    'application/json-patch+json',
    'application/jsonx',
    'application/json; charset=iso-8859-1',
    'application/json; charset=utf-16',
    'application/json, application/json',
    'text/json',
    'json',
    // Not media types under RFC 9110's grammar, or two charsets of which one is not UTF-8.
    'application/json; charset',
    'application/json; =x',
    'application/json; a b=c',
    'application/json; charset=utf-8;charset=latin1',
  ])('refuses Content-Type %p with 400 unsupported_media_type', async (contentType) => {
    await expectRefusedUnchanged(api, table, () => send(path, body('refused'), contentType), {
      status: 400,
      code: 'unsupported_media_type',
      message: /application\/json/,
    });
  });

  test.each([
    ['a Latin-1 é', [0x63, 0x61, 0x66, 0xe9]],
    ['a truncated 3-byte sequence', [0x61, 0xe2, 0x82]],
    ['an overlong encoding of /', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
  ])('refuses a body with invalid UTF-8 (%s) with 400 invalid_json, never storing a replacement character', async (_label, bytes) => {
    const [before, after] = body('@@').split('@@') as [string, string];
    const raw = Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
    await expectRefusedUnchanged(api, table, () => send(path, new Uint8Array(raw), 'application/json'), {
      status: 400,
      code: 'invalid_json',
      message: /UTF-8/,
    });
  });

  test('refuses a body that starts with a byte order mark with 400 invalid_json', async () => {
    await expectRefusedUnchanged(api, table, () => send(path, `\uFEFF${body('bom')}`, 'application/json'), {
      status: 400,
      code: 'invalid_json',
    });
  });

  test.each([
    ['at the top level', (json: string) => json.replace(/^\{/, '{"dup":1,"dup":2,')],
    ['spelled with an escape', (json: string) => json.replace(/^\{/, '{"dup":1,"d\\u0075p":2,')],
    ['in a nested object', (json: string) => json.replace(/^\{/, '{"extra":{"a":1,"a":1},')],
    ['a field of the operation, the second value valid', (json: string) => json.replace(/^\{/, `${json.slice(0, json.indexOf(','))},`)],
  ])('refuses a member name repeated %s with 400 invalid_json naming it', async (_label, repeat) => {
    await expectRefusedUnchanged(api, table, () => send(path, repeat(body('twice')), 'application/json'), {
      status: 400,
      code: 'invalid_json',
      message: /repeats the member name/,
    });
  });

  test('a member name that also appears as a value is fine', async () => {
    const [before, after] = body('@@').split('@@') as [string, string];
    const answer = await send(path, `${before}name${after}`, 'application/json');
    expect(answer.status).toBe(created);
  });
});
