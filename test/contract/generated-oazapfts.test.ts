/**
 * docs/openapi/pets.json and messages.json through oazapfts (its command line, default settings: explicit mode on
 * @oazapfts/runtime): one module per document. A strict program creates a pet without `status`, lists with a
 * filter following `Link`, fetches one and submits a message; it must compile, mistakes must not, and its run
 * against the local server must send every operation to its own base URL.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MESSAGES_OPENAPI_FILE, PETS_OPENAPI_FILE } from '../../openapi/render';
import {
  PROJECT_ROOT,
  compileStrict,
  expectOnlyExactOptionalErrorsIn,
  expectRunRoutedAndStored,
  loadProgram,
  useGeneratedClient,
} from './generated-support/client-run';

const { api, clientDir: CLIENT_DIR } = useGeneratedClient('generated-oazapfts', 'oazapfts/dist/cli.js', (generated) => [
  [PETS_OPENAPI_FILE, join(generated, 'pets.ts')],
  [MESSAGES_OPENAPI_FILE, join(generated, 'messages.ts')],
]);

test('the generated modules compile the client program under strict TypeScript and refuse the mistakes', () => {
  // Each operation with a body passes `oazapfts.json(…)`, typed `body?: string | undefined`, to a `body?: string`.
  expectOnlyExactOptionalErrorsIn(compileStrict(CLIENT_DIR, ['program.ts', 'must-not-compile.ts']), /^generated\/(pets|messages)\.ts$/);
});

test('the program sends the pet operations to the pets base URL and the message to the messages base URL', async () => {
  await expectRunRoutedAndStored(api, await loadProgram(CLIENT_DIR), `oazapfts-${Date.now()}`);
});

/** A document's first server, its variables set to their defaults: what oazapfts makes the default base URL. */
function firstServerWithDefaults(file: string): string {
  const { servers } = JSON.parse(readFileSync(join(PROJECT_ROOT, file), 'utf8')) as {
    servers: { url: string; variables?: Record<string, { default: string }> }[];
  };
  const [first] = servers;
  if (!first) throw new Error(`${file} has no servers`);
  return first.url.replace(/\{(\w+)\}/g, (_, name: string) => first.variables?.[name]?.default ?? `{${name}}`);
}

/** What this file looks at in a generated module before anything is configured. */
interface GeneratedModule {
  readonly defaults: { baseUrl: string; headers: unknown };
  readonly servers: Record<string, (variables: Record<string, string>) => string>;
}

test('the default base URLs are servers[0] with their variables defaulted: production placeholders, so a user must set the stage outputs', async () => {
  await jest.isolateModulesAsync(async () => {
    const pets = (await import(join(CLIENT_DIR, 'generated', 'pets.ts'))) as GeneratedModule & { listPets: () => Promise<unknown> };
    const messages = (await import(join(CLIENT_DIR, 'generated', 'messages.ts'))) as GeneratedModule & {
      submitMessage: (body: { message: string }) => Promise<unknown>;
    };
    // https://prod-pets-api-id.execute-api.us-east-1.amazonaws.com/v1 and https://prod-messages-api-id.execute-api.us-east-1.amazonaws.com
    const petsDefault = firstServerWithDefaults(PETS_OPENAPI_FILE);
    const messagesDefault = firstServerWithDefaults(MESSAGES_OPENAPI_FILE);
    expect(petsDefault).toMatch(/^https:\/\/[a-z-]+\.execute-api\.[a-z0-9-]+\.amazonaws\.com\/v1$/);
    expect(messagesDefault).toMatch(/^https:\/\/[a-z-]+\.execute-api\.[a-z0-9-]+\.amazonaws\.com$/);
    expect([pets.defaults, messages.defaults]).toEqual([
      { baseUrl: petsDefault, headers: {} },
      { baseUrl: messagesDefault, headers: {} },
    ]);

    // Every server becomes a function of its variables; the local one gives the test's own base URLs.
    const port = new URL(api.origin).port;
    expect(pets.servers.localNpmStart?.({ port })).toBe(api.petsBaseUrl);
    expect(messages.servers.localNpmStart?.({ messagesPort: port })).toBe(api.origin);

    // Unconfigured, each operation goes to its own document's placeholder host, without a key (fetch is stubbed).
    const fetch = jest.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'));
    try {
      await expect(pets.listPets()).rejects.toThrow('fetch failed');
      await expect(messages.submitMessage({ message: 'nowhere' })).rejects.toThrow('fetch failed');
      expect(fetch.mock.calls.map(([url, init]) => [url, new Headers(init?.headers).get('authorization')])).toEqual([
        [`${petsDefault}/pets`, null],
        [`${messagesDefault}/messages`, null],
      ]);
    } finally {
      fetch.mockRestore();
    }
  });
});
