/**
 * A client program as a user of the API writes it with oazapfts's defaults: one module per document (into
 * ./generated/pets.ts and ./generated/messages.ts, by generated-oazapfts.test.ts), each calling fetch through
 * @oazapfts/runtime with its own `defaults`. Compiled with strict TypeScript and run against the local server; no
 * cast, nothing the documents do not give.
 */
import * as pets from './generated/pets';
import * as messages from './generated/messages';
import { nextCursor, type ProgramRun } from '../generated-support/program-run';

export type ClientRun = ProgramRun<pets.Pet, messages.Message>;

export async function runClient(petsBaseUrl: string, messagesBaseUrl: string, apiKey: string, name: string): Promise<ClientRun> {
  // Each module's default base URL is its document's first server with the variables' defaults (a placeholder
  // production host): each gets its stage output. oazapfts ignores securitySchemes, so the header is ours to write.
  const headers = { Authorization: `Bearer ${apiKey}` };
  pets.defaults.baseUrl = petsBaseUrl;
  pets.defaults.headers = headers;
  messages.defaults.baseUrl = messagesBaseUrl;
  messages.defaults.headers = headers;

  // `status` is optional in NewPet. A fresh Idempotency-Key makes a retry of this create safe (retrying is ours to write).
  const created = await pets.createPet({ name, categoryId: 7 }, { idempotencyKey: crypto.randomUUID() });
  // Every answer is a union on `status`: checking it types `data` (the Pet, or the Error / GatewayError).
  if (created.status !== 201) throw new Error(`createPet answered ${created.status}: ${created.data.message}`);

  const listed: pets.Pet[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await pets.listPets({ status: 'available', limit: 2, ...(cursor === undefined ? {} : { cursor }) });
    if (page.status !== 200) throw new Error(`listPets answered ${page.status}: ${page.data.message}`);
    listed.push(...page.data);
    pages++;
    cursor = nextCursor(page.headers.get('link'));
  } while (cursor !== undefined && pages < 1_000);

  const fetched = await pets.getPet(created.data.id);
  if (fetched.status !== 200) throw new Error(`getPet answered ${fetched.status}: ${fetched.data.message}`);

  const message = await messages.submitMessage({ message: `hello from ${name}` }, { idempotencyKey: crypto.randomUUID() });
  if (message.status !== 202) throw new Error(`submitMessage answered ${message.status}: ${message.data.message}`);

  return { created: created.data, listed, pages, fetched: fetched.data, message: message.data };
}
