/**
 * The package as its README installs it: `npm pack` in a copy of clients/typescript as committed (no dist/)
 * builds it first (prepack) and packs only what it should; the tarball, unpacked into a project as `npm install`
 * would, is imported by plain Node by its name as an ES module and calls an API, and a TypeScript consumer
 * compiles against its declarations alone. The repository keeps no dist/ and no tarball.
 */
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { startScriptedServer, type ScriptedServer } from './support/scripted-server';

const ROOT = resolve(__dirname, '../..');
const SDK = join(ROOT, 'clients/typescript');

interface Packed {
  readonly name: string;
  readonly version: string;
  readonly filename: string;
  readonly files: { path: string }[];
}

let workspace: string;
let packed: Packed;
let consumer: string;
beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), 'petstore-sdk-'));
  // The package folder as committed (no dist/, no node_modules/), its dev dependencies resolved from the repository's.
  const pkg = join(workspace, 'client');
  cpSync(SDK, pkg, { recursive: true, filter: (source) => !/(^|[/\\])(dist|node_modules)([/\\]|$)/.test(relative(SDK, source)) });
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', workspace], {
    cwd: pkg,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
  });
  [packed] = JSON.parse(output.slice(output.indexOf('['))) as [Packed];
  // A project that installed the tarball: unpacked where npm puts it, its one dependency from the repository's.
  consumer = join(workspace, 'consumer');
  const installed = join(consumer, 'node_modules', '@petstore', 'client');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', join(workspace, packed.filename), '-C', installed, '--strip-components=1']);
  symlinkSync(join(ROOT, 'node_modules', 'openapi-fetch'), join(consumer, 'node_modules', 'openapi-fetch'), 'dir');
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
}, 120_000);
afterAll(() => {
  rmSync(workspace, { recursive: true, force: true });
});

/** Every module of src/, as `dist/<path>` without its extension. */
const sourceModules = (): string[] =>
  readdirSync(join(SDK, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => `dist/${file.replace(/\\/g, '/').replace(/\.ts$/, '')}`);

test('npm pack builds first and ships the built modules, their declarations, the README and package.json, and nothing else', () => {
  expect({ name: packed.name, version: packed.version }).toEqual({ name: '@petstore/client', version: '1.0.0' });
  const expected = ['README.md', 'package.json', ...sourceModules().flatMap((module) => [`${module}.js`, `${module}.d.ts`])];
  expect(packed.files.map((file) => file.path).sort()).toEqual(expected.sort());
});

describe('plain Node imports the built package by its name', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer((request) =>
      request.method === 'POST'
        ? { status: 201, body: { id: 7, name: 'Rex', categoryId: 1, status: 'available' } }
        : { status: 404, body: { code: 'not_found', message: 'no pet 8', status: 404 } },
    );
  });
  afterAll(() => server.close());

  test('and calls an API with it: a pet created, a typed error caught', async () => {
    const program = `
      import { PetStoreClient, ServiceError, PetStoreError, isServiceError } from '@petstore/client';
      const client = new PetStoreClient({ petsBaseUrl: '${server.origin}/v1', messagesBaseUrl: '${server.origin}', apiKey: 'pst_k' });
      const pet = await client.createPet({ name: 'Rex', categoryId: 1 });
      process.on('warning', () => {});
      const error = await client.getPet(8).catch((caught) => caught);
      let invalid;
      try { new PetStoreClient({ petsBaseUrl: '${server.origin}', messagesBaseUrl: '${server.origin}', apiKey: 'k' }); } catch (caught) { invalid = caught.message; }
      console.log(JSON.stringify({
        pet,
        error: { isServiceError: error instanceof ServiceError && error instanceof PetStoreError, narrowed: isServiceError(error, 'getPet'), code: error.code },
        invalid,
      }));`;
    // Asynchronously: the stand-in server answers from this process.
    const { stdout } = await promisify(execFile)(process.execPath, ['--no-deprecation', '--input-type=module', '--eval', program], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(JSON.parse(stdout)).toEqual({
      pet: { id: 7, name: 'Rex', categoryId: 1, status: 'available' },
      error: { isServiceError: true, narrowed: true, code: 'not_found' },
      invalid: expect.stringContaining('petsBaseUrl must end with /v1'),
    });
  }, 30_000);
});

test('a TypeScript consumer compiles against the declarations alone (NodeNext, strict), mistakes included', () => {
  const file = join(consumer, 'index.ts');
  writeFileSync(
    file,
    [
      "import { PetStoreClient, isServiceError, type Pet } from '@petstore/client';",
      "const client = new PetStoreClient({ petsBaseUrl: 'https://a.example.com/v1', messagesBaseUrl: 'https://b.example.com', apiKey: 'pst_k' });",
      'export async function names(): Promise<string[]> {',
      '  const names: string[] = [];',
      "  for await (const pet of client.listPets({ status: 'sold' })) names.push((pet satisfies Pet).name);",
      '  return names;',
      '}',
      "export const notFound = (error: unknown): boolean => isServiceError(error, 'getPet') && error.code === 'not_found';",
      '// @ts-expect-error -- categoryId is required',
      "export const missing = (): Promise<Pet> => client.createPet({ name: 'Rex' });",
      '',
    ].join('\n'),
  );
  const program = ts.createProgram([file], {
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  expect(diagnostics).toEqual([]);
  // The declarations came from the build, not from the sources.
  const declarations = program
    .getSourceFiles()
    .map((source) => source.fileName)
    .filter((name) => name.includes('/@petstore/client/'));
  expect(declarations.length).toBeGreaterThan(0);
  expect(declarations.every((name) => name.includes('/@petstore/client/dist/') && name.endsWith('.d.ts'))).toBe(true);
}, 60_000);
