/** For the OpenAPI document and the types only: no handler validates its answers, so no bundle builds these. */
import * as z from 'zod/mini';
import { apiDocs, documented } from './api-docs';
import { PositiveSafeInteger } from './common';
import { CategoryId } from './pet';
import { PetStatus } from './pet-status';

const PetId = documented(PositiveSafeInteger, {
  description: 'Assigned by the service when the animal is added: unique, never reused, below 2^53 (exact in every JSON client).',
  examples: [244208697521988],
});
export const Pet = z
  .strictObject({
    id: PetId,
    name: z.string().register(apiDocs, { description: "The animal's name." }),
    categoryId: CategoryId,
    status: PetStatus,
  })
  .register(apiDocs, {
    id: 'Pet',
    description: 'An animal of the store.',
    examples: [{ id: 244208697521988, name: 'Rex', categoryId: 1, status: 'available' }],
  });
export type Pet = z.infer<typeof Pet>;
