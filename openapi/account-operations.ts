/**
 * What the account API's document says about each of its operations (lib/routes.ts ACCOUNT_ROUTES),
 * from the specs the handlers are built with (lambda/shared/operation-specs/).
 */
import type { AccountOperationId } from '../lib/routes';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from '../lambda/shared/account-settings';
import { AUTH_CACHE_TTL_MS } from '../lambda/shared/auth-settings';
import { CREATE_ACCOUNT_KEY } from '../lambda/shared/operation-specs/create-account-key';
import { DELETE_ACCOUNT } from '../lambda/shared/operation-specs/delete-account';
import { LIST_ACCOUNT_KEYS } from '../lambda/shared/operation-specs/list-account-keys';
import { REVOKE_ACCOUNT_KEY } from '../lambda/shared/operation-specs/revoke-account-key';
import { AccountKey, AccountKeyList, CreatedAccountKey } from '../lambda/shared/schemas/account-key-response';
import type { OperationDocs } from './operations';

const ci = {
  keyId: 'key_3f2a9c1d7e5b4a60',
  description: 'CI pipeline',
  status: 'active',
  createdAt: '2026-11-22T01:27:44.123Z',
  lastUsedAt: '2026-11-23T09:00:12.456Z',
} as const;
const revokeWindow = `${AUTH_CACHE_TTL_MS / 1000} seconds`;

export const ACCOUNT_OPERATIONS: Readonly<Record<AccountOperationId, OperationDocs>> = {
  listAccountKeys: {
    tag: 'account',
    summary: "List the account's keys",
    description:
      "The active keys of the signed-in account and those it revoked recently, newest first, with the account's limits. " +
      'Keys issued by an operator for the account (`npm run keys -- create --email …`) are listed too. A key created a moment ago ' +
      'may take a second to appear (the listing reads an index).',
    input: LIST_ACCOUNT_KEYS.input,
    success: {
      status: 200,
      description: 'OK: the keys (never the keys themselves, which are shown only when created).',
      body: AccountKeyList,
      examples: {
        keys: { summary: 'One active key', value: { keys: [ci], maxActiveKeys: MAX_ACTIVE_KEYS_PER_ACCOUNT, revocationDelaySeconds: 60 } },
      },
    },
  },
  createAccountKey: {
    tag: 'account',
    summary: 'Create a key',
    description:
      `Creates an API key for the pets and messages APIs and answers it **this once**: only its hash is stored. An account holds at ` +
      `most ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys; beyond that the answer is 409 until one is revoked.`,
    input: CREATE_ACCOUNT_KEY.input,
    requestExamples: { ci: { summary: 'A key for CI', value: { description: 'CI pipeline' } } },
    success: {
      status: 201,
      description: 'Created: the key, shown only here, and its record.',
      body: CreatedAccountKey,
      examples: {
        created: {
          summary: 'The new key',
          value: {
            keyId: ci.keyId,
            description: ci.description,
            status: 'active',
            createdAt: ci.createdAt,
            key: 'pst_q3Jb0v7mC2eX9wT4yN1aK6sD8fH5gL0zR2uP7iO4xE1',
          },
        },
      },
    },
    errors: ['key_limit_reached'],
    exampleMessages: { invalid_request: "field 'description' is required" },
  },
  revokeAccountKey: {
    tag: 'account',
    summary: 'Revoke a key',
    description:
      `Revokes one of the account's keys: the pets and messages APIs refuse it within ${revokeWindow} (their authorizer caches key ` +
      'lookups that long). Revoking a revoked key answers the same again, with the time of the first revocation. An id that is not ' +
      "one of this account's keys answers 404, whether it exists elsewhere or not.",
    input: REVOKE_ACCOUNT_KEY.input,
    success: {
      status: 200,
      description: 'OK: the revoked key.',
      body: AccountKey,
      examples: { revoked: { summary: 'A revoked key', value: { ...ci, status: 'revoked', revokedAt: '2026-11-24T10:11:12.131Z' } } },
    },
    errors: ['not_found'],
    exampleMessages: {
      invalid_request: "path parameter 'keyId' must be a key id such as key_0123456789abcdef",
      not_found: `this account has no key ${ci.keyId}`,
    },
  },
  deleteAccount: {
    tag: 'account',
    summary: 'Delete the account',
    description:
      `Revokes every key of the account (refused within ${revokeWindow}), then deletes the user: signing in no longer works and ` +
      'the access token stops being accepted when it expires. Safe to repeat if it failed part-way.',
    input: DELETE_ACCOUNT.input,
    success: { status: 204, description: 'No Content: the account is gone.' },
  },
};
