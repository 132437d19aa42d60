/**
 * What the generated-*.test.ts files share: a generator's own command line, the strict compile of a client program,
 * the requests that program sends, and the checks of its run against the local server. Each file differs only in
 * the generator, its program, and what the generator does with the documents' servers by default.
 */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { useTestApi, type TestApi } from '../../support/test-api';

export const PROJECT_ROOT = resolve(__dirname, '../../..');

/**
 * Runs generators' command lines (Node scripts under node_modules, e.g. `oazapfts/dist/cli.js`) from the project
 * root, as a user runs them, all at once: each one spends most of its time starting Node.
 */
export async function runGenerators(commands: readonly (readonly string[])[]): Promise<void> {
  await Promise.all(
    commands.map(([script = '', ...args]) =>
      promisify(execFile)(process.execPath, [join(PROJECT_ROOT, 'node_modules', script), ...args], { cwd: PROJECT_ROOT }),
    ),
  );
}

/**
 * The test API, and a client folder (test/contract/<folder>) whose generated/ the generator `script` writes, once
 * per argument list, before the file's tests (the folder made first: oazapfts does not create it).
 */
export function useGeneratedClient(
  folder: string,
  script: string,
  argumentLists: (generated: string) => readonly (readonly string[])[],
): { readonly api: TestApi; readonly clientDir: string } {
  const clientDir = resolve(__dirname, '..', folder);
  const api = useTestApi();
  beforeAll(async () => {
    mkdirSync(join(clientDir, 'generated'), { recursive: true });
    await runGenerators(argumentLists(join(clientDir, 'generated')).map((args) => [script, ...args]));
  }, 60_000);
  return { api, clientDir };
}

export interface Diagnostic {
  /** Relative to the client folder, e.g. `program.ts` or `generated/pets/client/utils.gen.ts`. */
  readonly file: string;
  readonly line: number;
  /** TypeScript's error number: `TS2379` … */
  readonly code: string;
  readonly message: string;
}

/**
 * Compiles files of a client folder, together, with the strictest options a TypeScript user would turn on, and
 * TypeScript's own default libraries for the target (ES2022 with the DOM and its iterables).
 */
export function compileStrict(folder: string, files: readonly string[]): Diagnostic[] {
  const program = ts.createProgram(
    files.map((file) => join(folder, file)),
    {
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Preserve,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      types: [],
      skipLibCheck: true,
    },
  );
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ({
    file: diagnostic.file ? relative(folder, diagnostic.file.fileName) : '',
    line: diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0,
    code: `TS${diagnostic.code}`,
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
  }));
}

/**
 * What a project with exactOptionalPropertyTypes sees when a generator's own code does not pass it: errors in
 * `generatedCode` only, each one that flag's (TS2375/TS2379: a `x: T | undefined` given to an `x?: T`), and none
 * in the program, the mistakes file or anything else. The project must turn the flag off or compile the client apart.
 */
export function expectOnlyExactOptionalErrorsIn(diagnostics: readonly Diagnostic[], generatedCode: RegExp): void {
  expect(diagnostics.filter(({ file }) => !generatedCode.test(file))).toEqual([]);
  const inGenerated = diagnostics.filter(({ file }) => generatedCode.test(file));
  expect(inGenerated.length).toBeGreaterThan(0);
  expect(inGenerated.filter(({ code }) => code !== 'TS2375' && code !== 'TS2379')).toEqual([]);
}

export interface Pet {
  readonly id: number;
  readonly name: string;
  readonly categoryId: number;
  readonly status: string;
}
export interface ClientRun {
  readonly created: Pet;
  readonly listed: readonly Pet[];
  readonly pages: number;
  readonly fetched: Pet;
  readonly message: { readonly id: string; readonly message: string; readonly status: string };
}
/** What every program.ts exports: it is given only the stage's two base URLs (PetsBaseUrl, MessagesBaseUrl) and a key. */
export type RunClient = (petsBaseUrl: string, messagesBaseUrl: string, apiKey: string, name: string) => Promise<ClientRun>;

/** A folder's program.ts, imported by path at run time: its types exist only once generated. */
export async function loadProgram(folder: string): Promise<RunClient> {
  return ((await import(join(folder, 'program.ts'))) as { runClient: RunClient }).runClient;
}

/** `METHOD url` of every request sent through `fetch` while `run` runs: where each operation really went. */
export async function requestsSentBy<T>(run: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
  const spy = jest.spyOn(globalThis, 'fetch');
  try {
    const result = await run();
    const requests = spy.mock.calls.map(([input, init]) =>
      input instanceof Request ? `${input.method} ${input.url}` : `${init?.method ?? 'GET'} ${input instanceof URL ? input.href : input}`,
    );
    return { result, requests };
  } finally {
    spy.mockRestore();
  }
}

const startingWith = (prefix: string): unknown => expect.stringMatching(new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));

/**
 * Runs a program against the local server, after seeding enough pets for the listing to span several pages, and
 * checks what a user sees: every operation reached its own base URL (createPet, listPets and getPet the pets base
 * ending with /v1, submitMessage the messages base), and each write is stored in its own API's table.
 */
export async function expectRunRoutedAndStored(api: TestApi, runClient: RunClient, name: string): Promise<void> {
  for (let index = 0; index < 4; index++) await api.call('POST', '/v1/pets', { json: { name: `${name}-seed-${index}`, categoryId: 1 } });
  const { result: run, requests } = await requestsSentBy(() => runClient(api.petsBaseUrl, api.origin, api.key, name));

  expect(run.created).toEqual({ id: expect.any(Number), name, categoryId: 7, status: 'available' });
  expect(run.listed).toContainEqual(run.created);
  expect(run.listed.every((pet) => pet.status === 'available')).toBe(true);
  expect(new Set(run.listed.map((pet) => pet.id)).size).toBe(run.listed.length);
  expect(run.pages).toBeGreaterThan(2);
  expect(run.fetched).toEqual(run.created);
  expect(run.message).toMatchObject({ message: `hello from ${name}`, status: 'queued' });

  // Locally both APIs share one origin (pets under /v1), so a message sent to the pets base would be a 404, not a pass.
  expect(requests).toEqual([
    `POST ${api.petsBaseUrl}/pets`,
    ...Array.from({ length: run.pages }, () => startingWith(`GET ${api.petsBaseUrl}/pets?`)),
    `GET ${api.petsBaseUrl}/pets/${run.created.id}`,
    `POST ${api.origin}/messages`,
  ]);
  // Every page after the first asks for the cursor taken from the previous page's Link.
  expect(requests.slice(2, 1 + run.pages).every((request) => request.includes('cursor='))).toBe(true);

  expect(await api.scan('pets')).toContainEqual(expect.objectContaining(run.created));
  expect(await api.scan('messages')).toContainEqual(expect.objectContaining({ id: run.message.id, message: run.message.message }));
}
