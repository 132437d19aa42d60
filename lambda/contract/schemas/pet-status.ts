/** A pet's status: shared by the Pet resource, its creation and the listing filter. */
import * as z from 'zod/mini';
import { apiDocs } from './api-docs';

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export const PetStatus = z.enum(PET_STATUSES).register(apiDocs, {
  id: 'PetStatus',
  description: 'Availability of an animal. A status is set only when the animal is added; no operation changes it afterwards.',
});
export type PetStatus = z.infer<typeof PetStatus>;

/** The spec leaves the default open; a new animal is for sale unless said otherwise. */
export const DEFAULT_PET_STATUS: PetStatus = 'available';
