/**
 * Pet schemas: the one source of the types, the validation and the OpenAPI document (`npm run openapi`). `zod/mini`
 * keeps cold starts short; the other pet schemas have their own modules, so a function builds only those it uses.
 */
import * as z from 'zod/mini';
import { apiDocs, documented } from './api-docs';
import { PositiveSafeInteger } from './common';
import { DEFAULT_PET_STATUS, PetStatus } from './pet-status';
import { cleanText, describeText } from './text';

/** Names are for people: 200 characters is generous and keeps items small. */
export const PET_NAME_MAX_LENGTH = 200;
const PET_NAME_RULES = { maxLength: PET_NAME_MAX_LENGTH, multiline: false } as const;

export const PetName = cleanText(PET_NAME_RULES).register(apiDocs, {
  description: `The animal's name: ${describeText(PET_NAME_RULES)}.`,
  examples: ['Rex'],
});

export const CategoryId = documented(PositiveSafeInteger, {
  description:
    'Identifier of the category the animal belongs to. Any JSON number whose exact value is whole (`1`, `1.0`, `1e0`); ' +
    'text that only rounds to a whole number, such as `1.0000000000000001`, answers 400.',
  examples: [1],
});

export const NewPet = z
  .strictObject({
    name: PetName,
    categoryId: CategoryId,
    // No JSON Schema `default` here: generators (openapi-typescript) would make the field required in
    // the request type, and the spec says a client may omit it. The description says what happens.
    status: z.optional(PetStatus).register(apiDocs, { description: `Availability; \`${DEFAULT_PET_STATUS}\` when omitted.` }),
  })
  .register(apiDocs, {
    id: 'NewPet',
    description: 'An animal to add. Fields other than these (including `id`, which the service assigns) are refused.',
    examples: [{ name: 'Rex', categoryId: 1, status: 'available' }],
  });
export type NewPet = z.infer<typeof NewPet>;
