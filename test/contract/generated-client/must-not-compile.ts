/**
 * Calls the generated types must refuse: each line below is a mistake a client could make. If the
 * generated types stopped catching one, its `@ts-expect-error` would itself fail the compilation.
 */
import createClient from 'openapi-fetch';
import type { paths } from './generated/pets';
import type { paths as messagesPaths } from './generated/messages';

export async function mistakes(): Promise<void> {
  const pets = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000/v1' });
  // @ts-expect-error categoryId is required
  await pets.POST('/pets', { body: { name: 'Rex' } });
  // @ts-expect-error status is one of available, pending, sold
  await pets.POST('/pets', { body: { name: 'Rex', categoryId: 1, status: 'lost' } });
  // @ts-expect-error limit is a number
  await pets.GET('/pets', { params: { query: { limit: 'ten' } } });
  const messages = createClient<messagesPaths>({ baseUrl: 'http://127.0.0.1:3000' });
  // @ts-expect-error the message field is required
  await messages.POST('/messages', { body: {} });
  // @ts-expect-error the messages API is not the pets API: its document has no /pets
  await messages.GET('/pets');
  // @ts-expect-error nor has the pets API /messages
  await pets.POST('/messages', { body: { message: 'hello' } });
}
