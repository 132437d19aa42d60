import { useTestApi, expectRefusedUnchanged } from '../support/test-api';

const api = useTestApi();

const post = (json: unknown) => api.call('POST', '/v1/pets', { json });
/** `contentType: null` sends no Content-Type at all (a byte body, so fetch adds none either). */
const postRaw = (body: string, contentType: string | null = 'application/json') =>
  contentType === null
    ? api.call('POST', '/v1/pets', { body: new TextEncoder().encode(body) })
    : api.call('POST', '/v1/pets', { body, headers: { 'content-type': contentType } });

describe('POST /v1/pets', () => {
  test('answers 201 with the stored pet, its assigned id and a Location that fetches it', async () => {
    const created = await post({ name: 'Rex', categoryId: 7, status: 'pending' });

    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/json');
    const pet = created.json as { id: number };
    expect(pet).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 7, status: 'pending' });
    expect(Number.isSafeInteger(pet.id) && pet.id > 0).toBe(true);
    expect(created.headers.get('location')).toBe(`${api.petsBaseUrl}/pets/${pet.id}`);

    const fetched = await api.call('GET', created.headers.get('location') as string);
    expect(fetched.status).toBe(200);
    expect(fetched.json).toEqual(pet);
  });

  test('without status stores the documented default `available`', async () => {
    const created = await post({ name: 'Tom', categoryId: 1 });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ status: 'available' });
  });

  test('a name of 200 characters counts code points: 200 emoji (400 UTF-16 units) are accepted and preserved', async () => {
    const name = '🐶'.repeat(200);
    expect([Array.from(name).length, name.length]).toEqual([200, 400]);
    const created = await post({ name, categoryId: 1 });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name });
  });

  test('a name mixing accents and emoji up to 200 code points is accepted', async () => {
    const name = `${'é🐶'.repeat(99)}ab`;
    expect(Array.from(name).length).toBe(200);
    expect((await post({ name, categoryId: 1 })).json).toMatchObject({ name });
  });
});

describe('POST /v1/pets refuses bad input with 400 and stores nothing', () => {
  const longName = 'x'.repeat(201);
  const cases: [string, () => ReturnType<typeof post>, string, RegExp][] = [
    ['missing name', () => post({ categoryId: 1 }), 'invalid_request', /'name' is required/],
    ['missing categoryId', () => post({ name: 'a' }), 'invalid_request', /'categoryId' is required/],
    ['an unknown field', () => post({ name: 'a', categoryId: 1, color: 'red' }), 'invalid_request', /unknown field 'color'/],
    ['a client-chosen id', () => post({ id: 5, name: 'a', categoryId: 1 }), 'invalid_request', /'id' is assigned by the service/],
    ['a name that is a number', () => post({ name: 5, categoryId: 1 }), 'invalid_request', /'name' must be a string/],
    ['an empty name', () => post({ name: '', categoryId: 1 }), 'invalid_request', /'name' must not be empty/],
    ['a blank name', () => post({ name: '   ', categoryId: 1 }), 'invalid_request', /'name' must not be blank/],
    ['a 201-character name', () => post({ name: longName, categoryId: 1 }), 'invalid_request', /'name' must have at most 200 characters/],
    [
      'a name of 201 emoji',
      () => post({ name: '🐶'.repeat(201), categoryId: 1 }),
      'invalid_request',
      /'name' must have at most 200 characters/,
    ],
    ['a name with a C1 control (NEL)', () => post({ name: 'a\u0085b', categoryId: 1 }), 'invalid_request', /'name' must be well-formed/],
    ['a name with a line break', () => post({ name: 'a\nb', categoryId: 1 }), 'invalid_request', /'name' must be well-formed/],
    ['a name with NUL', () => post({ name: 'a\u0000b', categoryId: 1 }), 'invalid_request', /'name' must be well-formed/],
    ['a name with a lone surrogate', () => postRaw('{"name":"a\\ud800","categoryId":1}'), 'invalid_request', /'name' must be well-formed/],
    ['a categoryId string', () => post({ name: 'a', categoryId: '1' }), 'invalid_request', /'categoryId' must be a number/],
    ['a fractional categoryId', () => post({ name: 'a', categoryId: 2.5 }), 'invalid_request', /'categoryId' must be an integer/],
    [
      'a categoryId whose text is no integer though JSON.parse rounds it to 1',
      () => postRaw('{"name":"a","categoryId":1.0000000000000001}'),
      'invalid_request',
      /'categoryId' must be an integer/,
    ],
    [
      'an unsafe-integer categoryId',
      () => postRaw('{"name":"a","categoryId":9007199254740993}'),
      'invalid_request',
      /'categoryId' must be a safe integer/,
    ],
    ['a zero categoryId', () => post({ name: 'a', categoryId: 0 }), 'invalid_request', /'categoryId' must be greater than 0/],
    ['a negative categoryId', () => post({ name: 'a', categoryId: -1 }), 'invalid_request', /'categoryId' must be greater than 0/],
    [
      'an unknown status',
      () => post({ name: 'a', categoryId: 1, status: 'lost' }),
      'invalid_request',
      /'status' must be one of: available, pending, sold/,
    ],
    ['a null status', () => post({ name: 'a', categoryId: 1, status: null }), 'invalid_request', /'status'/],
    ['an array body', () => post([{ name: 'a', categoryId: 1 }]), 'invalid_request', /request body must be a JSON object/],
    ['a null body', () => postRaw('null'), 'invalid_request', /request body must be a JSON object/],
    ['a string body', () => postRaw('"Rex"'), 'invalid_request', /request body must be a JSON object/],
    ['a number body', () => postRaw('42'), 'invalid_request', /request body must be a JSON object/],
    ['malformed JSON', () => postRaw('{"name":'), 'invalid_json', /not valid JSON/],
    ['trailing garbage after JSON', () => postRaw('{"name":"a","categoryId":1} x'), 'invalid_json', /not valid JSON/],
    ['an empty body', () => postRaw(''), 'invalid_json', /empty/],
    ['no content type', () => postRaw('{"name":"a","categoryId":1}', null), 'unsupported_media_type', /application\/json/],
    [
      'a text/plain content type',
      () => postRaw('{"name":"a","categoryId":1}', 'text/plain'),
      'unsupported_media_type',
      /application\/json/,
    ],
    ['a __proto__ key', () => postRaw('{"name":"a","categoryId":1,"__proto__":{"x":1}}'), 'invalid_request', /__proto__/],
  ];

  test.each(cases)('%s', async (_label, send, code, message) => {
    await expectRefusedUnchanged(api, 'pets', send, { status: 400, code, message });
  });

  test.each(['1.0', '1e0', '10E-1', '0.1e1'])('a categoryId written %s is the integer 1, as JSON Schema counts integers', async (text) => {
    const created = await postRaw(`{"name":"a","categoryId":${text}}`);
    expect({ status: created.status, categoryId: (created.json as { categoryId: number }).categoryId }).toEqual({
      status: 201,
      categoryId: 1,
    });
  });

  test('a body over 256 KiB answers 413 payload_too_large', async () => {
    await expectRefusedUnchanged(api, 'pets', () => post({ name: 'a', categoryId: 1, padding: 'x'.repeat(300 * 1024) }), {
      status: 413,
      code: 'payload_too_large',
    });
  });

  test('`application/json; charset=utf-8` is accepted', async () => {
    const answer = await postRaw('{"name":"Charset","categoryId":1}', 'application/json; charset=utf-8');
    expect(answer.status).toBe(201);
  });
});

test('POST /v1/pets with a query parameter answers 400 and stores nothing', async () => {
  await expectRefusedUnchanged(api, 'pets', () => api.call('POST', '/v1/pets?dryRun=true', { json: { name: 'a', categoryId: 1 } }), {
    status: 400,
    code: 'invalid_request',
    message: /unknown query parameter 'dryRun'/,
  });
});
