/**
 * Pet schemas: the single source of the types, the request validation and the OpenAPI document
 * (their `apiDocs` metadata; `npm run openapi`). `zod/mini` keeps cold starts short (classic zod costs tens of ms to load).
 */
import * as z from 'zod/mini';
import { apiDocs, documented } from './api-docs';

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export const PetStatus = z.enum(PET_STATUSES).register(apiDocs, {
  id: 'PetStatus',
  description: 'Availability of an animal. A status is set only when the animal is added; no operation changes it afterwards.',
});
export type PetStatus = z.infer<typeof PetStatus>;

/** The spec leaves the default open; a new animal is for sale unless said otherwise. */
export const DEFAULT_PET_STATUS: PetStatus = 'available';

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

/** Identifiers are positive integers within the range every JSON client reads exactly (≤ 2^53−1). */
export const PositiveSafeInteger = z.int().check(z.positive()).register(apiDocs, { format: 'int64' });

const PetId = documented(PositiveSafeInteger, {
  description: 'Assigned by the service when the animal is added: unique, never reused, below 2^53 (exact in every JSON client).',
  examples: [244208697521988],
});
const CategoryId = documented(PositiveSafeInteger, {
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

export const Pet = z.strictObject({
  id: PetId,
  name: z.string().register(apiDocs, { description: "The animal's name." }),
  categoryId: CategoryId,
  status: PetStatus,
}).register(apiDocs, {
  id: 'Pet',
  description: 'An animal of the store.',
  examples: [{ id: 244208697521988, name: 'Rex', categoryId: 1, status: 'available' }],
});
export type Pet = z.infer<typeof Pet>;

export const LIST_LIMIT_MIN = 1;
export const LIST_LIMIT_MAX = 100;
export const LIST_LIMIT_DEFAULT = 20;
const LIMIT_MESSAGE = `must be an integer from ${LIST_LIMIT_MIN} to ${LIST_LIMIT_MAX}`;

/** Query strings arrive as text: accept plain decimal digits only (no `2.5`, `1e1`, `0x10`, ` 5`). */
const ListLimit = z
  .pipe(
    z.string().check(z.regex(/^[0-9]{1,3}$/, { error: LIMIT_MESSAGE })),
    z.transform((text: string) => Number(text)),
  )
  .check(z.refine((n: number) => n >= LIST_LIMIT_MIN && n <= LIST_LIMIT_MAX, { error: LIMIT_MESSAGE }))
  .register(apiDocs, {
    description: 'Maximum number of animals in the page.',
    wire: { type: 'integer', minimum: LIST_LIMIT_MIN, maximum: LIST_LIMIT_MAX },
  });

/** Cursors are opaque tokens this API issued (see page-cursor.ts); bound their size before decoding. */
export const CURSOR_MAX_LENGTH = 256;
const Cursor = z.string().check(
  z.minLength(1, { error: 'must not be empty' }),
  z.maxLength(CURSOR_MAX_LENGTH, { error: 'is not a cursor issued by this API' }),
).register(apiDocs, {
  description:
    'Where the page starts: an opaque token taken from the `Link` header of the previous page (never built by hand). ' +
    'It only continues the listing it came from: with another `status` filter, or altered, it answers 400.',
});

export const ListPetsQuery = z.strictObject({
  limit: z._default(ListLimit, LIST_LIMIT_DEFAULT),
  status: z.optional(PetStatus).register(apiDocs, { description: 'Only animals with this status, oldest first. Without it, every animal in an unspecified but stable order.' }),
  cursor: z.optional(Cursor),
});
export type ListPetsQuery = z.infer<typeof ListPetsQuery>;

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
