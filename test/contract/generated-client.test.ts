/**
 * docs/openapi/pets.json and messages.json as client generators read them: openapi-typescript generates the types, a strict
 * TypeScript compile of a small openapi-fetch program must succeed (creating a pet without `status`,
 * listing with a filter and following `Link`, fetching one, submitting a message to the messages
 * base URL) while known mistakes must fail, and the program then runs against the local server.
 */
import { join } from 'node:path';
import { MESSAGES_OPENAPI_FILE, PETS_OPENAPI_FILE } from '../../openapi/render';
import { compileStrict, expectRunRoutedAndStored, loadProgram, useGeneratedClient } from './generated-support/client-run';

const { api, clientDir: CLIENT_DIR } = useGeneratedClient('generated-client', 'openapi-typescript/bin/cli.js', (generated) => [
  [PETS_OPENAPI_FILE, '--output', join(generated, 'pets.ts')],
  [MESSAGES_OPENAPI_FILE, '--output', join(generated, 'messages.ts')],
]);

test('the generated types compile the client program and refuse a body without categoryId, an unknown status, a text limit and a message without its field', () => {
  // openapi-typescript emits types only, and openapi-fetch ships its own: all of it passes exactOptionalPropertyTypes.
  expect(compileStrict(CLIENT_DIR, ['program.ts', 'must-not-compile.ts'])).toEqual([]);
});

test('the program sends the pet operations to the pets base URL and the message to the messages base URL', async () => {
  await expectRunRoutedAndStored(api, await loadProgram(CLIENT_DIR), `generated-client-${Date.now()}`);
});
