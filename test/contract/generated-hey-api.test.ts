/**
 * docs/openapi/pets.json and messages.json through @hey-api/openapi-ts (its command line, default settings: the
 * fetch client): one SDK per document. A strict program creates a pet without `status`, lists with a filter
 * following `Link`, fetches one and submits a message; it must compile, mistakes must not, and its run against
 * the local server must send every operation to its own base URL.
 */
import { join } from 'node:path';
import { MESSAGES_OPENAPI_FILE, PETS_OPENAPI_FILE } from '../../openapi/render';
import {
  compileStrict,
  expectOnlyExactOptionalErrorsIn,
  expectRunRoutedAndStored,
  loadProgram,
  requestsSentBy,
  useGeneratedClient,
} from './generated-support/client-run';

// --no-log-file only keeps an error log out of the project root; the generated code is the default.
const { api, clientDir: CLIENT_DIR } = useGeneratedClient('generated-hey-api', '@hey-api/openapi-ts/bin/run.js', (generated) => [
  ['--input', PETS_OPENAPI_FILE, '--output', join(generated, 'pets'), '--no-log-file'],
  ['--input', MESSAGES_OPENAPI_FILE, '--output', join(generated, 'messages'), '--no-log-file'],
]);

test('the generated SDKs compile the client program under strict TypeScript and refuse the mistakes', () => {
  // The fetch client hey-api copies into each output (client/, core/) does not itself pass exactOptionalPropertyTypes;
  // the generated types and SDK functions do.
  expectOnlyExactOptionalErrorsIn(
    compileStrict(CLIENT_DIR, ['program.ts', 'must-not-compile.ts']),
    /^generated\/(pets|messages)\/(client|core)\//,
  );
});

test('the program sends the pet operations to the pets base URL and the message to the messages base URL', async () => {
  await expectRunRoutedAndStored(api, await loadProgram(CLIENT_DIR), `hey-api-${Date.now()}`);
});

/** What this file looks at in a generated SDK before anything is configured. */
interface GeneratedClient {
  getConfig(): { baseUrl?: string };
  buildUrl(options: { url: string }): string;
}
type Call<Options> = (options: Options) => Promise<{ error: unknown }>;
const generated = async <T>(sdk: string, file: string): Promise<T> => (await import(join(CLIENT_DIR, 'generated', sdk, file))) as T;

test('servers[0] is a template, so the SDKs have no default base URL: an unconfigured call fails before sending anything', async () => {
  // Types list every server URL, unexpanded ('https://{apiId}.execute-api.{region}.amazonaws.com/v1' | … | string),
  // but hey-api bakes servers[0] into `baseUrl` only when it has no `{variable}`: a user must set the stage's URL.
  await jest.isolateModulesAsync(async () => {
    const pets = await generated<{ client: GeneratedClient }>('pets', 'client.gen.ts');
    const messages = await generated<{ client: GeneratedClient }>('messages', 'client.gen.ts');
    const { listPets } = await generated<{ listPets: Call<undefined> }>('pets', 'sdk.gen.ts');
    const { submitMessage } = await generated<{ submitMessage: Call<{ body: { message: string } }> }>('messages', 'sdk.gen.ts');
    expect([pets.client.getConfig().baseUrl, messages.client.getConfig().baseUrl]).toEqual([undefined, undefined]);
    expect([pets.client.buildUrl({ url: '/pets' }), messages.client.buildUrl({ url: '/messages' })]).toEqual(['/pets', '/messages']);

    const { result, requests } = await requestsSentBy(async () => [
      (await listPets(undefined)).error,
      (await submitMessage({ body: { message: 'nowhere' } })).error,
    ]);
    // Not thrown: the fetch client returns the TypeError as `error`, whose type says the documents' Error | GatewayError.
    expect(result.map(String)).toEqual([expect.stringMatching(/^TypeError: .*URL/), expect.stringMatching(/^TypeError: .*URL/)]);
    expect(requests).toEqual([]);
  });
});
