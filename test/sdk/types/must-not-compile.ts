/**
 * Calls the SDK's types must refuse: each line below is a mistake a client could make. If the types stopped
 * catching one, its `@ts-expect-error` would itself fail the compilation (test/sdk/types.test.ts, and `tsc`).
 */
/* eslint-disable @typescript-eslint/no-deprecated, @typescript-eslint/no-unsafe-call -- mistakes on purpose, the deprecated call among them */
import { AccountClient, isServiceError, PetStoreClient, type NewPet } from '../../../clients/typescript/src/index.ts';

const aString = (_value: string): void => undefined;
const aNewPet = (_value: NewPet): void => undefined;
const where = { petsBaseUrl: 'https://a.example.com/v1', messagesBaseUrl: 'https://b.example.com', apiKey: 'pst_k' };

export async function mistakes(client: PetStoreClient, account: AccountClient, error: unknown): Promise<void> {
  // @ts-expect-error -- a NewPet needs its categoryId
  aNewPet({ name: 'Rex' });
  // @ts-expect-error -- createPet needs a categoryId too
  await client.createPet({ name: 'Rex' });
  // @ts-expect-error -- status is available, pending or sold
  await client.createPet({ name: 'Rex', categoryId: 1, status: 'lost' });
  // @ts-expect-error -- the service assigns ids: a NewPet has none
  await client.createPet({ id: 7, name: 'Rex', categoryId: 1 });
  // @ts-expect-error -- categoryId is a number
  await client.createPet({ name: 'Rex', categoryId: '1' });
  // @ts-expect-error -- an unknown status filter
  client.listPets({ status: 'lost' });
  // @ts-expect-error -- pageSize is a number
  client.listPets({ pageSize: '10' });
  // @ts-expect-error -- so on a single page
  await client.listPetsPage({ pageSize: '10' });
  // @ts-expect-error -- the last page has no next cursor: check before using it
  aString((await client.listPetsPage()).nextCursor);
  // @ts-expect-error -- pet ids are numbers
  await client.getPet('12');
  // @ts-expect-error -- a message is its text, not the request body
  await client.submitMessage({ message: 'hello' });
  // @ts-expect-error -- a message needs its text
  await client.submitMessage();
  // @ts-expect-error -- the idempotency key is a string
  await client.submitMessage('hello', { idempotencyKey: 42 });

  if (isServiceError(error, 'createPet')) {
    // @ts-expect-error -- createPet never answers not_found
    if (error.code === 'not_found') return;
  }
  if (isServiceError(error, 'listPets')) {
    // @ts-expect-error -- key_limit_reached is the account API's
    if (error.code === 'key_limit_reached') return;
  }
  // @ts-expect-error -- no operation has this name
  isServiceError(error, 'deletePet');

  // @ts-expect-error -- both base URLs are needed
  new PetStoreClient({ petsBaseUrl: 'https://api.example.com/v1', apiKey: 'pst_…' });
  // @ts-expect-error -- retry options are numbers
  new PetStoreClient({ ...where, retry: { maxAttempts: '3' } });
  // @ts-expect-error -- the account API takes a user's access token, not an API key
  new AccountClient({ accountBaseUrl: 'https://c.example.com', apiKey: 'pst_…' });
  // @ts-expect-error -- the access token is a string, or a function giving one
  new AccountClient({ accountBaseUrl: 'https://c.example.com', accessToken: 42 });
  // @ts-expect-error -- createKey takes the key's description
  await account.createKey({ description: 'CI' });
  // @ts-expect-error -- the account API has no such call
  await account.listPets();
}
