/**
 * docs/openapi/pets.json and messages.json: committed exactly as the generator writes it, and saying what the spec, the
 * route table and the zod schemas say. (That the running service honours it is checked on every
 * answer of the HTTP tests: see test/support/test-api.ts.)
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as z from 'zod/mini';
import { SubmitMessageRequest } from '#contract/schemas/message';
import { ListPetsQuery } from '#contract/schemas/list-pets-query';
import { NewPet } from '#contract/schemas/pet';
import { PET_STATUSES } from '#contract/schemas/pet-status';
import { GENERATED_DOCUMENTS } from '#openapi/render';
import type { JsonSchema, Operation, Parameter } from '#openapi/types';
import { ROUTES } from '#shared/routes';
import { ACCOUNT_ERROR_CODES } from '#contract/schemas/error';
import { accountOpenApiDocument, messagesOpenApiDocument, petsOpenApiDocument as document, schemaProblems } from '#openapi/contract-check';
import type { OpenApiDocument } from '#openapi/types';

/** The spec's two APIs, one document each (their base addresses differ). */
const serviceDocuments: readonly OpenApiDocument[] = [document, messagesOpenApiDocument];
const operationsOf = (doc: OpenApiDocument): Operation[] => Object.values(doc.paths).flatMap((item) => Object.values(item));
const operations: Operation[] = serviceDocuments.flatMap(operationsOf);
const operation = (operationId: string): Operation => {
  const found = operations.find((candidate) => candidate.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId}`);
  return found;
};
const parameter = (operationId: string, name: string): Parameter => {
  const found = operation(operationId).parameters?.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`${operationId} has no parameter ${name}`);
  return found;
};

test.each(GENERATED_DOCUMENTS.map(({ file, render }) => [file, render] as const))(
  'the committed %s is exactly what `npm run openapi` generates from the schemas',
  (file, render) => {
    // On failure: run `npm run openapi` and commit the file.
    expect(readFileSync(resolve(__dirname, '../..', file), 'utf8')).toBe(render());
  },
);

describe('the pets and messages documents', () => {
  test('are OpenAPI 3.1 for interface version 1.0.0', () => {
    for (const doc of serviceDocuments) expect([doc.openapi, doc.info.version]).toEqual(['3.1.0', '1.0.0']);
  });

  test('lists production and staging base addresses ending with /v1, a custom domain one, and the local one', () => {
    expect(document.servers.map((server) => [server.description.split(':')[0], server.url])).toEqual([
      ['Production', 'https://{apiId}.execute-api.{region}.amazonaws.com/v1'],
      ['Staging', 'https://{apiId}.execute-api.{region}.amazonaws.com/v1'],
      ['Custom domain', 'https://{petsDomain}/v1'],
      ['Local', 'http://127.0.0.1:{port}/v1'],
    ]);
  });

  test('have one operation per route of the route table, with its operationId, in the document of its API, relative to its servers', () => {
    const documented = serviceDocuments.flatMap((doc) =>
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => ({ doc, id: op.operationId, method: method.toUpperCase(), path, servers: op.servers })),
      ),
    );
    expect(documented.map((op) => op.id).sort()).toEqual(['createPet', 'getPet', 'listPets', 'submitMessage']);
    for (const route of ROUTES) {
      const op = documented.find((candidate) => candidate.id === route.operationId);
      expect(op?.doc).toBe(route.api === 'pets' ? document : messagesOpenApiDocument);
      // Generators read only top-level servers: an operation-level servers list is what sent messages to the wrong API.
      expect(op?.servers).toBeUndefined();
      const base = route.api === 'pets' ? '/v1' : '';
      expect(`${op?.method} ${base}${op?.path}`).toBe(`${route.method} ${route.path}`);
    }
  });

  test('give POST /messages its own document, whose servers are its base addresses without /v1, with variables of their own', () => {
    const servers = messagesOpenApiDocument.servers;
    expect(servers.map((server) => server.url)).toEqual([
      'https://{messagesApiId}.execute-api.{messagesRegion}.amazonaws.com',
      'https://{messagesApiId}.execute-api.{messagesRegion}.amazonaws.com',
      'https://{messagesDomain}',
      'http://127.0.0.1:{messagesPort}',
    ]);
    // Tools that import both documents into one workspace keep one namespace of server variables.
    const names = (list: readonly { variables?: Readonly<Record<string, unknown>> }[]) =>
      new Set(list.flatMap((server) => Object.keys(server.variables ?? {})));
    const shared = [...names(servers)].filter((name) => names(document.servers).has(name));
    expect(shared).toEqual([]);
    expect(operation('submitMessage').responses['202']).toBeDefined();
  });

  test('require the bearer API key on every operation', () => {
    for (const doc of serviceDocuments) expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const op of operations) expect(op.security).toEqual([{ bearerAuth: [] }]);
  });

  test('marks getPet deprecated, with its removal date and Deprecation and Sunset on every answer', () => {
    const getPet = operation('getPet');
    expect(getPet.deprecated).toBe(true);
    expect(getPet.description).toContain('5 December 2030');
    for (const [status, answer] of Object.entries(getPet.responses)) {
      // On every answer of the service; the gateway's own answers (always 429, sometimes 500) carry none of its headers.
      if (status === '429') {
        expect(answer.headers).toBeUndefined();
        continue;
      }
      const required = status !== '500';
      expect([status, answer.headers]).toMatchObject([
        status,
        { Deprecation: { required }, Sunset: { required, schema: { const: 'Thu, 05 Dec 2030 00:00:00 GMT' } } },
      ]);
    }
    for (const op of operations.filter((candidate) => candidate.operationId !== 'getPet')) expect(op.deprecated).toBeUndefined();
  });

  test("documents 400, 401 and 503 with the Error body on every operation, 413 on those with a body, 404 on getPet; the gateway's own 429, 413 and 500 with its body", () => {
    const error = { $ref: '#/components/schemas/Error' };
    const gateway = { $ref: '#/components/schemas/GatewayError' };
    for (const op of operations) {
      const statuses = Object.keys(op.responses);
      expect(statuses).toEqual(expect.arrayContaining(['400', '401', '429', '500', '503']));
      expect(statuses.includes('413')).toBe(op.requestBody !== undefined);
      expect(statuses.includes('404')).toBe(op.operationId === 'getPet');
      for (const [status, answer] of Object.entries(op.responses)) {
        const schema = answer.content?.['application/json']?.schema;
        if (status === '429') expect(schema).toEqual(gateway);
        else if (['413', '500'].includes(status)) expect(schema).toEqual({ oneOf: [error, gateway] });
        else if (Number(status) >= 400) expect(schema).toEqual(error);
      }
      expect(op.responses['429']?.description).toContain('{"message":"Too Many Requests"}');
      expect(op.responses['401']?.headers).toMatchObject({ 'WWW-Authenticate': { required: true } });
      expect(op.responses['503']?.headers).toMatchObject({ 'Retry-After': { required: true } });
      // Advised only where the operation honours the header: elsewhere the advice would invite duplicates.
      const idempotent = (op.parameters ?? []).some((parameter) => parameter.name === 'Idempotency-Key');
      expect(op.responses['503']?.description.includes('same `Idempotency-Key`')).toBe(idempotent);
    }
    for (const { components } of serviceDocuments) {
      expect(components.schemas.Error).toMatchObject({ required: ['code', 'message', 'status'], additionalProperties: false });
      expect(components.schemas.GatewayError).toMatchObject({ required: ['message'], additionalProperties: false });
    }
  });

  test('lets a client omit NewPet.status: optional, and no JSON Schema default that generators turn into a required field', () => {
    const newPet = document.components.schemas.NewPet as JsonSchema & { properties: Record<string, JsonSchema> };
    expect(newPet.required).toEqual(['name', 'categoryId']);
    expect(JSON.stringify(newPet)).not.toContain('"default"');
    expect(newPet.properties.status?.description).toContain('`available` when omitted');
  });

  test('counts text as the service does: in code points, with 200 emoji a valid name for both', () => {
    const newPet = document.components.schemas.NewPet as JsonSchema & { properties: Record<string, JsonSchema> };
    expect(newPet.properties.name?.description).toContain('(Unicode code points)');
    const emojiName = { name: '🐶'.repeat(200), categoryId: 1 };
    expect([z.safeParse(NewPet, emojiName).success, schemaProblems(newPet, emojiName)]).toEqual([true, []]);
    const tooLong = { name: '🐶'.repeat(201), categoryId: 1 };
    expect([z.safeParse(NewPet, tooLong).success, schemaProblems(newPet, tooLong).length > 0]).toEqual([false, true]);
  });

  test('bounds petId to the id space and puts its example on the parameter, where tools read it', () => {
    expect(parameter('getPet', 'petId')).toMatchObject({
      example: 244208697521988,
      schema: { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    });
  });

  test('gives Idempotency-Key no example value: a tool sending one would get an old answer replayed', () => {
    for (const id of ['createPet', 'submitMessage']) {
      const key = parameter(id, 'Idempotency-Key');
      expect(key.example).toBeUndefined();
      expect(JSON.stringify(key)).not.toContain('examples');
    }
  });

  test('documents limit (1..100, default 20), status and cursor on listPets, as a client sends them', () => {
    expect(parameter('listPets', 'limit')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    });
    expect(parameter('listPets', 'status')).toMatchObject({
      in: 'query',
      required: false,
      schema: { $ref: '#/components/schemas/PetStatus' },
    });
    expect(document.components.schemas.PetStatus).toMatchObject({ enum: [...PET_STATUSES] });
    expect(parameter('listPets', 'cursor')).toMatchObject({ in: 'query', required: false, schema: { type: 'string', maxLength: 256 } });
    expect(parameter('getPet', 'petId')).toMatchObject({ in: 'path', required: true, schema: { type: 'integer', format: 'int64' } });
  });

  test('documents the Link, Location, Idempotent-Replayed headers on success answers', () => {
    expect(operation('listPets').responses['200']?.headers).toMatchObject({ Link: { required: false } });
    expect(operation('createPet').responses['201']?.headers).toMatchObject({
      Location: { required: true },
      'Idempotent-Replayed': { required: false },
    });
    expect(operation('submitMessage').responses['202']?.headers).toMatchObject({ 'Idempotent-Replayed': { required: false } });
  });
});

/** Every `examples`/`example` in the document, with the schema it illustrates. */
function examplesOf(
  value: unknown,
  schema: JsonSchema | undefined,
  where: string,
  found: [string, JsonSchema, unknown][] = [],
): [string, JsonSchema, unknown][] {
  if (Array.isArray(value)) value.forEach((item, index) => examplesOf(item, schema, `${where}/${index}`, found));
  if (value === null || typeof value !== 'object') return found;
  const node = value as Record<string, unknown>;
  const ownSchema = (node.schema as JsonSchema | undefined) ?? schema;
  // A schema's own `examples` illustrate that schema; a media type's or parameter's illustrate its `schema`.
  const isSchema = 'type' in node || '$ref' in node || 'enum' in node || 'const' in node;
  if (Array.isArray(node.examples) && isSchema)
    node.examples.forEach((example, index) => found.push([`${where}/examples/${index}`, node, example]));
  if (node.examples && !Array.isArray(node.examples) && ownSchema) {
    for (const [name, example] of Object.entries(node.examples as Record<string, { value: unknown }>))
      found.push([`${where}/examples/${name}`, ownSchema, example.value]);
  }
  if ('example' in node && ownSchema) found.push([`${where}/example`, ownSchema, node.example]);
  for (const [key, child] of Object.entries(node))
    if (key !== 'examples' && key !== 'example') examplesOf(child, isSchema ? undefined : ownSchema, `${where}/${key}`, found);
  return found;
}

test.each([
  ['pets', document, 25],
  ['messages', messagesOpenApiDocument, 10],
] as const)('every example in the %s document matches the schema it illustrates', (_name, doc, atLeast) => {
  const examples = examplesOf(doc, undefined, '#');
  expect(examples.length).toBeGreaterThan(atLeast);
  const wrong = examples.flatMap(([where, schema, example]) =>
    schemaProblems(schema, example, doc).map((problem) => `${where}: ${problem}`),
  );
  expect(wrong).toEqual([]);
});

describe('the document never refuses what the service accepts (zod and JSON Schema agree)', () => {
  const newPetSchema = operation('createPet').requestBody?.content['application/json']?.schema as JsonSchema;
  const newMessageSchema = operation('submitMessage').requestBody?.content['application/json']?.schema as JsonSchema;
  const anything = fc.oneof(
    fc.string({ maxLength: 210 }),
    fc.integer(),
    fc.double(),
    fc.constantFrom(null, true, 0, -1, 9007199254740991, 9007199254740992),
  );
  // Mostly plausible values, so that many bodies pass zod and the property says something.
  const mostly = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: anything, weight: 1 });
  // fc.option's freq is the chance of nil (1 in freq); an unknown field should be the rare case instead.
  const rarely = fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary: anything, weight: 1 });
  const withoutUndefined = (body: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
  const petBody = fc
    .record({
      name: fc.option(mostly(fc.string({ minLength: 1, maxLength: 200 })), { freq: 8, nil: undefined }),
      categoryId: fc.option(mostly(fc.oneof(fc.integer({ min: 1 }), fc.maxSafeNat())), { freq: 8, nil: undefined }),
      status: fc.option(mostly(fc.constantFrom(...PET_STATUSES)), { freq: 2, nil: undefined }),
      id: rarely,
      color: rarely,
    })
    .map(withoutUndefined);
  const messageBody = fc
    .record({ message: fc.option(mostly(fc.string({ minLength: 1, maxLength: 10_001 })), { freq: 8, nil: undefined }), priority: rarely })
    .map(withoutUndefined);

  function checkAgreement(bodies: fc.Arbitrary<unknown>, zodSchema: z.core.$ZodType, jsonSchema: JsonSchema, doc: OpenApiDocument): number {
    let accepted = 0;
    fc.assert(
      fc.property(bodies, (body) => {
        if (!z.safeParse(zodSchema, body).success) return;
        accepted++;
        expect(schemaProblems(jsonSchema, body, doc)).toEqual([]);
      }),
      { numRuns: 3_000 },
    );
    return accepted;
  }

  test('POST /v1/pets bodies', () => {
    expect(checkAgreement(petBody, NewPet, newPetSchema, document)).toBeGreaterThan(100);
  });

  test('POST /messages bodies', () => {
    expect(checkAgreement(messageBody, SubmitMessageRequest, newMessageSchema, messagesOpenApiDocument)).toBeGreaterThan(100);
  });

  test('GET /v1/pets limit: the integers the service accepts as text are exactly the documented ones', () => {
    const limitSchema = parameter('listPets', 'limit').schema;
    for (let limit = -5; limit <= 105; limit++) {
      const accepted = z.safeParse(ListPetsQuery, { limit: String(limit) }).success;
      expect([limit, accepted]).toEqual([limit, schemaProblems(limitSchema, limit).length === 0]);
    }
  });
});

describe('docs/openapi/account.json', () => {
  const accountOperations: Operation[] = Object.values(accountOpenApiDocument.paths).flatMap((item) => Object.values(item));

  test('speaks of keys, not animals, and advises no Idempotency-Key, which the account API does not honour', () => {
    const text = JSON.stringify(accountOpenApiDocument);
    expect(text).not.toMatch(/animal/i);
    for (const op of accountOperations) {
      expect(op.parameters?.some((candidate) => candidate.name === 'Idempotency-Key') ?? false).toBe(false);
      expect(JSON.stringify(op.responses)).not.toContain('Idempotency-Key');
    }
  });

  test('lists every account error code in its description', () => {
    for (const code of Object.keys(ACCOUNT_ERROR_CODES)) expect(accountOpenApiDocument.info.description).toContain(`\`${code}\``);
  });
});

test.each([
  ['pets', document],
  ['messages', messagesOpenApiDocument],
] as const)('the %s document says where keys come from: the developer portal, or an operator', (_name, doc) => {
  const scheme = Object.values(doc.components.securitySchemes)[0] as { description: string };
  expect(scheme.description).toContain('developer portal');
  expect(doc.info.description).toContain('developer portal');
});

test.each([
  ['pets', document],
  ['messages', messagesOpenApiDocument],
  ['account', accountOpenApiDocument],
] as const)(
  "the %s document says what OPTIONS answers: the stages' CORS preflight, 204 without a key, and locally only with CORS origins",
  (_name, doc) => {
    const { description } = doc.info;
    expect(description).toMatch(/`OPTIONS` on any path but the host's root `\/` answers 204 with no body, without a key/);
    expect(description).toContain('PETSTORE_CORS_ORIGINS');
    expect(description).toMatch(/but for `OPTIONS`/);
  },
);
