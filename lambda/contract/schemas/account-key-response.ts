/** For the OpenAPI document and the types only: no handler validates its answers, so no bundle builds these. */
import * as z from 'zod/mini';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT, REVOKED_KEYS_LISTED_FOR_DAYS } from '../account-limits';
import { apiDocs } from './api-docs';

const timestamp = (description: string) =>
  z.iso
    .datetime()
    .register(apiDocs, { description: `${description} ISO 8601, UTC, with milliseconds.`, examples: ['2026-11-22T01:27:44.123Z'] });

const keyFields = {
  keyId: z
    .string()
    .register(apiDocs, { description: 'Identifies the key (not secret): revoke it with this id.', examples: ['key_3f2a9c1d7e5b4a60'] }),
  description: z.optional(z.string()).register(apiDocs, { description: 'What the key is for; keys issued by an operator may have none.' }),
  status: z.enum(['active', 'revoked']).register(apiDocs, { description: '`revoked` keys are refused by the pets and messages APIs.' }),
  createdAt: timestamp('When the key was created.'),
  lastUsedAt: z.optional(
    timestamp(
      'About when the key was last accepted: recorded at most once an hour, so it may lag the latest call by up to an hour. Absent when never used.',
    ),
  ),
  revokedAt: z.optional(timestamp('When the key was revoked.')),
};

export const AccountKey = z.strictObject(keyFields).register(apiDocs, {
  id: 'AccountKey',
  description: 'One API key of the account. The key itself is never shown again after it was created.',
  examples: [{ keyId: 'key_3f2a9c1d7e5b4a60', description: 'CI pipeline', status: 'active', createdAt: '2026-11-22T01:27:44.123Z' }],
});
export type AccountKey = z.infer<typeof AccountKey>;

export const AccountKeyList = z
  .strictObject({
    keys: z.array(AccountKey).register(apiDocs, {
      description: `The account's active keys and the keys it revoked in the last ${REVOKED_KEYS_LISTED_FOR_DAYS} days, newest first.`,
    }),
    maxActiveKeys: z
      .int()
      .register(apiDocs, { description: 'How many active keys the account may hold at once.', examples: [MAX_ACTIVE_KEYS_PER_ACCOUNT] }),
    revocationDelaySeconds: z.int().register(apiDocs, {
      description: 'A revoked key is refused everywhere within this many seconds (the authorizer caches key lookups).',
      examples: [60],
    }),
  })
  .register(apiDocs, { id: 'AccountKeyList', description: "The signed-in account's keys and its limits." });
export type AccountKeyList = z.infer<typeof AccountKeyList>;

export const CreatedAccountKey = z
  .strictObject({
    ...keyFields,
    key: z.string().register(apiDocs, {
      description: 'The API key: send it as `Authorization: Bearer <key>`. Shown only in this answer, never again: store it now.',
      examples: ['pst_q3Jb0v7mC2eX9wT4yN1aK6sD8fH5gL0zR2uP7iO4xE1'],
    }),
  })
  .register(apiDocs, { id: 'CreatedAccountKey', description: 'The new key, shown once, and its record.' });
export type CreatedAccountKey = z.infer<typeof CreatedAccountKey>;
