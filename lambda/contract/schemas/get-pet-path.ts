/** GET /v1/pets/{petId} path parameters. */
import * as z from 'zod/mini';
import { apiDocs } from './api-docs';
import { INTEGER_TEXT_RULE, integerText } from './common';

const PET_ID_RULE = `must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`;

/** A `petId` outside the id space (1 to 2^53−1, canonical decimal) cannot name a pet: 400; inside it, 404 if none. */
export const GetPetPath = z.object({
  petId: integerText(1, Number.MAX_SAFE_INTEGER, PET_ID_RULE).register(apiDocs, {
    description:
      `Identifier of the animal: an integer from 1 to ${Number.MAX_SAFE_INTEGER}, as assigned by the service. ` +
      `Outside that range 400; an id that names no animal 404. ${INTEGER_TEXT_RULE}`,
    wire: { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, examples: [244208697521988] },
  }),
});
