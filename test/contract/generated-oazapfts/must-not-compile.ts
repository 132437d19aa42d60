/**
 * Calls the generated modules must refuse: each line below is a mistake a client could make. If the modules stopped
 * catching one, its `@ts-expect-error` would itself fail the compilation.
 */
import * as pets from './generated/pets';
import * as messages from './generated/messages';

export async function mistakes(): Promise<void> {
  // @ts-expect-error the README's `defaults.basePath`: the runtime reads `baseUrl`, so this would leave the placeholder host
  pets.defaults.basePath = 'http://127.0.0.1:3000/v1';
  // @ts-expect-error categoryId is required
  await pets.createPet({ name: 'Rex' });
  // @ts-expect-error status is one of available, pending, sold
  await pets.createPet({ name: 'Rex', categoryId: 1, status: 'lost' });
  // @ts-expect-error limit is a number
  await pets.listPets({ limit: 'ten' });
  // @ts-expect-error the message field is required
  await messages.submitMessage({});
  // @ts-expect-error the pets module, whose defaults hold the pets base URL, has no submitMessage
  await pets.submitMessage({ message: 'hello' });
  // @ts-expect-error nor has the messages module createPet
  await messages.createPet({ name: 'Rex', categoryId: 1 });
}
