/**
 * docs/openapi/pets.json and messages.json as client generators read them: openapi-typescript generates the types, a strict
 * TypeScript compile of a small openapi-fetch program must succeed (creating a pet without `status`,
 * listing with a filter and following `Link`, fetching one, submitting a message to the messages
 * base URL) while known mistakes must fail, and the program then runs against the local server.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { MESSAGES_OPENAPI_FILE, PETS_OPENAPI_FILE } from '../../openapi/render';
import { useTestApi } from '../support/test-api';

const CLIENT_DIR = resolve(__dirname, 'generated-client');

/** What program.ts exports; imported by path at run time, since its types exist only once generated. */
interface Pet {
  readonly id: number;
  readonly name: string;
  readonly status: string;
}
interface ClientProgram {
  readonly runClient: (
    petsBaseUrl: string,
    messagesBaseUrl: string,
    apiKey: string,
    name: string,
  ) => Promise<{
    created: Pet;
    listed: Pet[];
    pages: number;
    fetched: Pet;
    message: { id: string; message: string; status: string };
  }>;
}
const loadProgram = async (): Promise<ClientProgram> => (await import(join(CLIENT_DIR, 'program.ts'))) as ClientProgram;
const PROJECT_ROOT = resolve(__dirname, '../..');

const api = useTestApi();
beforeAll(() => {
  // The generator's own command line, as a user runs it.
  const cli = join(PROJECT_ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
  for (const [document, output] of [
    [PETS_OPENAPI_FILE, 'pets.ts'],
    [MESSAGES_OPENAPI_FILE, 'messages.ts'],
  ] as const)
    execFileSync(process.execPath, [cli, document, '--output', join(CLIENT_DIR, 'generated', output)], {
      cwd: PROJECT_ROOT,
      stdio: 'pipe',
    });
}, 60_000);

/** Compiles one file of the client directory with the strictest options a TypeScript user would turn on. */
function compile(file: string): string[] {
  const program = ts.createProgram([join(CLIENT_DIR, file)], {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const line =
      diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
    return `${diagnostic.file?.fileName ?? ''}:${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

test('the generated types compile a client that omits status, follows Link, fetches one pet and posts to the messages base URL', () => {
  expect(compile('program.ts')).toEqual([]);
});

test('the generated types refuse a body without categoryId, an unknown status, a text limit and a message body without its field', () => {
  expect(compile('must-not-compile.ts')).toEqual([]);
});

test('the compiled program runs against the local server', async () => {
  const { runClient } = await loadProgram();
  const name = `generated-client-${Date.now()}`;
  const run = await runClient(api.petsBaseUrl, api.origin, api.key, name);
  expect(run.created).toEqual({ id: expect.any(Number), name, categoryId: 7, status: 'available' });
  expect(run.listed).toContainEqual(run.created);
  expect(run.listed.every((pet) => pet.status === 'available')).toBe(true);
  expect(run.fetched).toEqual(run.created);
  expect(run.message).toMatchObject({ message: `hello from ${name}`, status: 'queued' });
  const stored = await api.scan('messages');
  expect(stored).toContainEqual(expect.objectContaining({ id: run.message.id }));
});

test('listing with the generated client follows Link through several pages', async () => {
  for (let index = 0; index < 5; index++) await api.call('POST', '/v1/pets', { json: { name: `paged-${index}`, categoryId: 1 } });
  const { runClient } = await loadProgram();
  const run = await runClient(api.petsBaseUrl, api.origin, api.key, 'paging');
  expect(run.pages).toBeGreaterThan(2);
  expect(new Set(run.listed.map((pet) => pet.id)).size).toBe(run.listed.length);
});
