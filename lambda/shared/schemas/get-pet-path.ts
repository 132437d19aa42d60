/** GET /v1/pets/{petId} path parameters. */
import * as z from 'zod/mini';
import { apiDocs } from './api-docs';

/**
 * `petId` must be written as an int64. A well-formed integer outside the id space this API assigns
 * (≤ 0 or > 2^53−1) names no pet, which is a 404, not a client syntax error: it becomes `null`.
 */
export const GetPetPath = z.object({
  petId: z.pipe(
    z.string().check(z.regex(/^(0|-?[1-9][0-9]{0,18})$/, { error: 'must be an integer (int64)' })),
    z.transform((text: string) => {
      const id = Number(text);
      return Number.isSafeInteger(id) && id > 0 ? id : null;
    }),
  ).register(apiDocs, {
    description: 'Identifier of the animal. An integer that names no animal (including 0 and negative ones) answers 404; anything else 400.',
    wire: { type: 'integer', format: 'int64', examples: [244208697521988] },
  }),
});
