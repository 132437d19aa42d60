/**
 * The request oracle (openapi/request-check.ts) on the pets and messages documents: what it reads from
 * their structure, and that each rule stated in words applies only where the document states it.
 */
import { buildDocument } from '#openapi/document';
import { DOCUMENTS } from '#openapi/documents';
import { requestCheck, type CheckedRequest, type RequestHistory } from '#openapi/request-check';
import type { OpenApiDocument } from '#openapi/types';

const documentOf = (api: string): OpenApiDocument => {
  const definition = DOCUMENTS.find((candidate) => candidate.api === api);
  if (!definition) throw new Error(`no ${api} document`);
  return buildDocument(definition);
};
const pets = documentOf('pets');
const petsCheck = requestCheck(pets);
const KEY = { authorization: 'Bearer pst_anything' };

const get = (path: string, query = ''): CheckedRequest => ({ method: 'GET', path, query, headers: KEY });
const post = (body: string | Uint8Array, contentType?: string, query = ''): CheckedRequest => ({
  method: 'POST',
  path: '/pets',
  query,
  headers: { ...KEY, ...(contentType === undefined ? {} : { 'content-type': contentType }) },
  body,
});
const allowed = async (request: CheckedRequest, history?: RequestHistory, check = petsCheck): Promise<boolean> =>
  (await check.check(request, history)).allowed;
const reasons = async (request: CheckedRequest, history?: RequestHistory): Promise<string> => {
  const verdict = await petsCheck.check(request, history);
  return verdict.allowed ? '' : verdict.reasons.join('; ');
};

/** A copy of the pets document with `edit` applied. */
function edited(edit: (copy: { -readonly [K in keyof OpenApiDocument]: OpenApiDocument[K] }) => void): OpenApiDocument {
  const copy = structuredClone(pets);
  edit(copy);
  return copy;
}

describe('operations and paths', () => {
  test.each([
    ['GET', '/pets', true],
    ['POST', '/pets/1', false],
    ['DELETE', '/pets', false],
    ['GET', '/pets/', false],
    ['GET', '/pets/1/extra', false],
    ['GET', '/store/orders', false],
  ] as const)('%s %s is allowed: %s', async (method, path, expected) => {
    expect(await allowed({ method, path, query: '', headers: KEY })).toBe(expected);
  });

  test('a path parameter is percent-decoded, then read as its schema and description say', async () => {
    expect(await allowed(get('/pets/%34%32'))).toBe(true);
    expect(await allowed(get('/pets/%E9'))).toBe(false);
    expect(await reasons(get('/pets/042'))).toContain("path parameter 'petId' is not an integer in canonical decimal form");
    expect(await reasons(get('/pets/9007199254740992'))).toContain('/path/petId must be <= 9007199254740991');
  });

  test('a bearer token must be sent (in any case of the scheme); whether it is valid only the API knows', async () => {
    expect(await allowed({ method: 'GET', path: '/pets', query: '', headers: { Authorization: 'bearer abc' } })).toBe(true);
    expect(await allowed({ method: 'GET', path: '/pets', query: '', headers: {} })).toBe(false);
    expect(await allowed({ method: 'GET', path: '/pets', query: '', headers: { authorization: 'Basic abc' } })).toBe(false);
  });
});

describe('integer parameters', () => {
  test.each(['1', '20', '100'])('limit=%s is allowed', async (limit) => {
    expect(await allowed(get('/pets', `limit=${limit}`))).toBe(true);
  });

  test.each(['01', '1e1', '+5', '%2B5', '%205', '5.0', '-0', '0', '101', ''])('limit=%s is refused', async (limit) => {
    expect(await allowed(get('/pets', `limit=${limit}`))).toBe(false);
  });

  test('without the canonical-form sentence, integer text is read as lenient tools read it', async () => {
    const lenient = requestCheck(
      edited((copy) => {
        const limit = copy.paths['/pets']?.get?.parameters?.find((parameter) => parameter.name === 'limit');
        Object.assign(limit ?? {}, { description: 'Maximum number of animals in the page.' });
      }),
    );
    expect(await allowed(get('/pets', 'limit=01'), undefined, lenient)).toBe(true);
    expect(await allowed(get('/pets', 'limit=1e1'), undefined, lenient)).toBe(true);
    expect(await allowed(get('/pets', 'limit=abc'), undefined, lenient)).toBe(false);
  });
});

describe('query parameters', () => {
  test('unknown and repeated ones are refused, as the document says', async () => {
    expect(await reasons(get('/pets', 'stauts=sold'))).toBe("query parameter 'stauts' is not documented");
    expect(await reasons(get('/pets', 'limit=5&limit=5'))).toBe("query parameter 'limit' is repeated");
    expect(await allowed({ ...post('{"name":"Rex","categoryId":1}', 'application/json'), query: 'foo=bar' })).toBe(false);
  });

  test('where the document does not say so, they are not', async () => {
    const silent = requestCheck(
      edited((copy) => {
        copy.info = { ...copy.info, description: copy.info.description.replace('unknown or repeated query parameters', 'other things') };
      }),
    );
    expect(await allowed(get('/pets', 'stauts=sold'), undefined, silent)).toBe(true);
    expect(await allowed(get('/pets', 'limit=6&limit=5'), undefined, silent)).toBe(true);
  });

  test('values are form-decoded: `+` is a space, `%73` an s', async () => {
    expect(await allowed(get('/pets', 'status=%73old'))).toBe(true);
    expect(await allowed(get('/pets', 'status=sold+'))).toBe(false);
  });
});

describe('cursors', () => {
  const issued = new URL('http://127.0.0.1:3000/v1/pets?limit=2&status=sold&cursor=eyJ2IjoxLCJpZCI6Nywicyi6InNvbGQifQ');
  const history: RequestHistory = { nextLinks: [issued] };
  const cursor = issued.searchParams.get('cursor') ?? '';

  test('one the API issued is allowed with the filter it was issued for, whatever the limit', async () => {
    expect(await allowed(get('/pets', `status=sold&cursor=${cursor}`), history)).toBe(true);
    expect(await allowed(get('/pets', `limit=50&status=sold&cursor=${cursor}`), history)).toBe(true);
  });

  test('with another filter, or one never issued, it is refused', async () => {
    expect(await reasons(get('/pets', `status=pending&cursor=${cursor}`), history)).toContain('was issued for another `status` filter');
    expect(await reasons(get('/pets', `cursor=${cursor}`), history)).toContain('another `status` filter');
    expect(await reasons(get('/pets', 'status=sold&cursor=AAAA'), history)).toContain('is not a cursor the API issued');
  });

  test('text outside the documented pattern fails the schema itself', async () => {
    expect(await reasons(get('/pets', 'cursor=a.b'), history)).toContain('must match pattern');
  });
});

describe('request bodies', () => {
  const pet = '{"name":"Rex","categoryId":1}';

  test.each([
    ['application/json', true],
    ['Application/JSON', true],
    ['application/json; charset=utf-8', true],
    ['application/json;charset="UTF-8"', true],
    ['application/json ; foo=bar', true],
    ['application/json;', true],
    ['application/json; charset=iso-8859-1', false],
    ['application/json; charset=utf8', false],
    ['application/problem+json', false],
    ['application/vnd.api+json', false],
    ['text/plain', false],
    ['application/json, text/plain', false],
    ['application/json; charset', false],
    ['', false],
  ])('Content-Type %p is allowed: %p', async (type, expected) => {
    expect(await allowed(post(pet, type))).toBe(expected);
  });

  test('a body without Content-Type, an empty body and one that is not UTF-8 are refused', async () => {
    expect(await allowed(post(pet))).toBe(false);
    expect(await allowed(post('', 'application/json'))).toBe(false);
    expect(
      await allowed(post(Uint8Array.from([...Buffer.from('{"name":"'), 0xe9, ...Buffer.from('","categoryId":1}')]), 'application/json')),
    ).toBe(false);
  });

  test.each([
    ['the same name twice', '{"name":"Rex","name":"Tom","categoryId":1}', false],
    ['an escaped repeat', '{"name":"Rex","\\u006eame":"Tom","categoryId":1}', false],
    ['names in nested objects and strings', '{"name":"{\\"name\\":1,\\"name\\":2}","categoryId":1}', true],
  ])('a body with %s: allowed %s', async (_label, body, expected) => {
    expect(await allowed(post(body, 'application/json'))).toBe(expected);
  });

  test('the schema decides the fields: pattern, lengths, integers, unknown members', async () => {
    expect(await allowed(post('{"name":"\\u3000","categoryId":1}', 'application/json'))).toBe(false);
    expect(await allowed(post('{"name":"a\\ud800","categoryId":1}', 'application/json'))).toBe(false);
    expect(await allowed(post('{"name":"\\ud83d\\udc36","categoryId":1}', 'application/json'))).toBe(true);
    expect(await allowed(post(`{"name":"${'🐶'.repeat(200)}","categoryId":1.0}`, 'application/json'))).toBe(true);
    expect(await allowed(post(`{"name":"${'🐶'.repeat(201)}","categoryId":1}`, 'application/json'))).toBe(false);
    expect(await allowed(post('{"name":"Rex","categoryId":9007199254740992}', 'application/json'))).toBe(false);
    expect(await allowed(post('{"name":"Rex","categoryId":1,"id":5}', 'application/json'))).toBe(false);
  });

  test("the schemas are read as JSON Schema 2020-12, OpenAPI 3.1's dialect", async () => {
    // dependentRequired is 2020-12's (draft-07 tools ignore it): with it, a categoryId needs a status.
    const dialect = requestCheck(
      edited((copy) => Object.assign(copy.components.schemas.NewPet ?? {}, { dependentRequired: { categoryId: ['status'] } })),
    );
    expect(await allowed(post('{"name":"Rex","categoryId":1}', 'application/json'), undefined, dialect)).toBe(false);
    expect(await allowed(post('{"name":"Rex","categoryId":1,"status":"sold"}', 'application/json'), undefined, dialect)).toBe(true);
  });

  test('a body over the size the body description states is refused', async () => {
    expect(await allowed(post(`{"name":"Rex",${' '.repeat(256 * 1024)}"categoryId":1}`, 'application/json'))).toBe(false);
  });

  test('in the messages document, tab and line breaks are text', async () => {
    const messages = requestCheck(documentOf('messages'));
    const submit = (text: string): CheckedRequest => ({
      method: 'POST',
      path: '/messages',
      query: '',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ message: text }),
    });
    expect((await messages.check(submit('line\r\nnext\tcolumn'))).allowed).toBe(true);
    expect((await messages.check(submit('bell\u0007'))).allowed).toBe(false);
    expect((await messages.check(submit(' \n\t '))).allowed).toBe(false);
  });
});
