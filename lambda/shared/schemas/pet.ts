/**
 * Pet schemas: the single source of the types, the request validation and the OpenAPI document
 * (their `apiDocs` metadata; `npm run openapi`). `zod/mini` keeps cold starts short (classic zod costs
 * tens of ms to load). The listing query, the getPet path and the Pet answer live in their own modules,
 * so a function builds only the schemas its operation validates.
 */
import * as z from 'zod/mini';
import { apiDocs, documented } from './api-docs';
import { PositiveSafeInteger } from './common';
import { DEFAULT_PET_STATUS, PetStatus } from './pet-status';

/** Names are for people: 200 characters (UTF-16 code units) is generous and keeps items small. */
export const PET_NAME_MAX_LENGTH = 200;

// C0/C1 control characters (NUL, newlines, escapes) have no place in a name and break logs and UIs.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A lone surrogate cannot be stored as UTF-8: DynamoDB would silently turn it into U+FFFD, so the
 * stored name would differ from the one the client sent. Refuse instead of corrupting.
 */
export const isCleanText = (text: string): boolean => text.isWellFormed() && !CONTROL_CHARACTER.test(text);

export const PetName = z.string().check(
  z.minLength(1),
  z.maxLength(PET_NAME_MAX_LENGTH),
  z.refine((name) => name.trim().length > 0, { error: 'must not be blank' }),
  z.refine(isCleanText, { error: 'must be well-formed Unicode text without control characters' }),
).register(apiDocs, {
  description: `The animal's name: 1 to ${PET_NAME_MAX_LENGTH} characters (UTF-16 code units), not blank, well-formed Unicode without control characters.`,
  examples: ['Rex'],
});

export const CategoryId = documented(PositiveSafeInteger, {
  description: 'Identifier of the category the animal belongs to.',
  examples: [1],
});

export const NewPet = z.strictObject({
  name: PetName,
  categoryId: CategoryId,
  status: z.optional(PetStatus).register(apiDocs, { description: 'Availability; `available` when omitted.', default: DEFAULT_PET_STATUS }),
}).register(apiDocs, {
  id: 'NewPet',
  description: 'An animal to add. Fields other than these (including `id`, which the service assigns) are refused.',
  examples: [{ name: 'Rex', categoryId: 1, status: 'available' }],
});
export type NewPet = z.infer<typeof NewPet>;
