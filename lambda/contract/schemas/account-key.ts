/** What the account API accepts: a new key's description and a key id in the path. */
import * as z from 'zod/mini';
import { apiDocs } from './api-docs';
import { cleanText, describeText } from './text';

export const KEY_DESCRIPTION_MAX_LENGTH = 100;
const DESCRIPTION_RULES = { maxLength: KEY_DESCRIPTION_MAX_LENGTH, multiline: false } as const;

export const KeyDescription = cleanText(DESCRIPTION_RULES).register(apiDocs, {
  description: `What the key is for, so you can tell your keys apart: ${describeText(DESCRIPTION_RULES)}.`,
  examples: ['CI pipeline'],
});

export const NewAccountKey = z.strictObject({ description: KeyDescription }).register(apiDocs, {
  id: 'NewAccountKey',
  description: 'A key to create for the signed-in account.',
  examples: [{ description: 'CI pipeline' }],
});

/**
 * Key ids are `key_` and 16 hex digits today; the rule is looser so a future id format needs no API
 * change. A well-formed id that names none of the caller's keys is a 404.
 */
export const AccountKeyPath = z.object({
  keyId: z
    .string()
    .check(z.regex(/^key_[A-Za-z0-9_-]{1,60}$/, { error: 'must be a key id such as key_0123456789abcdef' }))
    .register(apiDocs, { description: 'The key to revoke, as listed by `GET /account/keys`.', examples: ['key_3f2a9c1d7e5b4a60'] }),
});
