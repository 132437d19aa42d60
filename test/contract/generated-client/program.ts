/**
 * A client program as a user of the API writes it: types generated from docs/openapi/pets.json and messages.json by
 * openapi-typescript (into ./generated/, by the test), calls made with openapi-fetch. Compiled with
 * strict TypeScript and run against the local server by generated-client.test.ts. It must need no
 * cast and no knowledge the document does not give.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/pets';
import type { components as MessagesComponents, paths as messagesPaths } from './generated/messages';
import { nextCursor, type ProgramRun } from '../generated-support/program-run';

type Pet = components['schemas']['Pet'];
type Message = MessagesComponents['schemas']['Message'];

export type ClientRun = ProgramRun<Pet, Message>;

export async function runClient(petsBaseUrl: string, messagesBaseUrl: string, apiKey: string, name: string): Promise<ClientRun> {
  const headers = { Authorization: `Bearer ${apiKey}` };
  // Two base addresses, as the document says: the pets API (ending with /v1) and the messages API.
  const pets = createClient<paths>({ baseUrl: petsBaseUrl, headers });
  const messages = createClient<messagesPaths>({ baseUrl: messagesBaseUrl, headers });

  // `status` is optional: the generated NewPet type lets it be left out.
  const created = await pets.POST('/pets', { body: { name, categoryId: 7 } });
  if (created.error !== undefined || created.response.status !== 201) throw new Error(`createPet answered ${created.response.status}`);

  const listed: Pet[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await pets.GET('/pets', {
      params: { query: { status: 'available', limit: 2, ...(cursor === undefined ? {} : { cursor }) } },
    });
    // An error is the service's Error or, for answers the gateway gives itself (429, …), its GatewayError.
    if (page.error !== undefined)
      throw new Error(`listPets answered ${'code' in page.error ? page.error.code : 'from the gateway'}: ${page.error.message}`);
    listed.push(...page.data);
    pages++;
    cursor = nextCursor(page.response.headers.get('link'));
  } while (cursor !== undefined && pages < 1_000);

  const fetched = await pets.GET('/pets/{petId}', { params: { path: { petId: created.data.id } } });
  if (fetched.error !== undefined) throw new Error(`getPet answered ${fetched.response.status}`);

  const message = await messages.POST('/messages', { body: { message: `hello from ${name}` } });
  if (message.error !== undefined || message.response.status !== 202) throw new Error(`submitMessage answered ${message.response.status}`);

  return { created: created.data, listed, pages, fetched: fetched.data, message: message.data };
}
