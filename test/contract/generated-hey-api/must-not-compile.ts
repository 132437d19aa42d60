/**
 * Calls the generated SDKs must refuse: each line below is a mistake a client could make. If the SDKs stopped
 * catching one, its `@ts-expect-error` would itself fail the compilation.
 */
import * as pets from './generated/pets';
import * as messages from './generated/messages';

export async function mistakes(): Promise<void> {
  // @ts-expect-error categoryId is required
  await pets.createPet({ body: { name: 'Rex' } });
  // @ts-expect-error status is one of available, pending, sold
  await pets.createPet({ body: { name: 'Rex', categoryId: 1, status: 'lost' } });
  // @ts-expect-error limit is a number
  await pets.listPets({ query: { limit: 'ten' } });
  // @ts-expect-error the message field is required
  await messages.submitMessage({ body: {} });
  // @ts-expect-error the pets SDK, whose client has the pets base URL, has no submitMessage
  await pets.submitMessage({ body: { message: 'hello' } });
  // @ts-expect-error nor has the messages SDK createPet
  await messages.createPet({ body: { name: 'Rex', categoryId: 1 } });
}
