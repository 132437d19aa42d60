/**
 * A client program as a user of the API writes it with @hey-api/openapi-ts's defaults (the fetch client): one SDK
 * generated per document (into ./generated/pets and ./generated/messages, by generated-hey-api.test.ts), each with
 * its own `client`. Compiled with strict TypeScript and run against the local server; no cast, nothing the
 * documents do not give.
 */
import { createPet, getPet, listPets, type Pet } from './generated/pets';
import { client as petsClient } from './generated/pets/client.gen';
import { submitMessage, type Message } from './generated/messages';
import { client as messagesClient } from './generated/messages/client.gen';
import { nextCursor, type ProgramRun } from '../generated-support/program-run';

export type ClientRun = ProgramRun<Pet, Message>;

export async function runClient(petsBaseUrl: string, messagesBaseUrl: string, apiKey: string, name: string): Promise<ClientRun> {
  // The documents' servers are templates, so the SDKs come without a base URL: each gets its stage output.
  // `auth` is the token only: the SDK read `bearerAuth` from securitySchemes and sends `Authorization: Bearer …`.
  petsClient.setConfig({ baseUrl: petsBaseUrl, auth: apiKey });
  messagesClient.setConfig({ baseUrl: messagesBaseUrl, auth: apiKey });

  // `response` is typed optional even on success (it is missing when the request could not be built).
  // `status` is optional in NewPet. A fresh Idempotency-Key makes a retry of this create safe (retrying is ours to write).
  const created = await createPet({ body: { name, categoryId: 7 }, headers: { 'Idempotency-Key': crypto.randomUUID() } });
  if (created.error !== undefined || created.response?.status !== 201)
    throw new Error(`createPet answered ${created.response?.status ?? 'nothing'}`);

  const listed: Pet[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await listPets({ query: { status: 'available', limit: 2, ...(cursor === undefined ? {} : { cursor }) } });
    // Typed as the service's Error or the gateway's GatewayError; a failed fetch lands here too, untyped.
    if (page.error !== undefined)
      throw new Error(`listPets answered ${'code' in page.error ? page.error.code : 'from the gateway'}: ${page.error.message}`);
    listed.push(...page.data);
    pages++;
    cursor = nextCursor(page.response?.headers.get('link') ?? null);
  } while (cursor !== undefined && pages < 1_000);

  const fetched = await getPet({ path: { petId: created.data.id } });
  if (fetched.error !== undefined) throw new Error(`getPet answered ${fetched.response?.status ?? 'nothing'}`);

  const message = await submitMessage({ body: { message: `hello from ${name}` }, headers: { 'Idempotency-Key': crypto.randomUUID() } });
  if (message.error !== undefined || message.response?.status !== 202)
    throw new Error(`submitMessage answered ${message.response?.status ?? 'nothing'}`);

  return { created: created.data, listed, pages, fetched: fetched.data, message: message.data };
}
