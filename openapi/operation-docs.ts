/**
 * What the documents say about each operation beyond its route: the spec its handler is built from
 * (lambda/contract/operations/) gives the inputs and traits; the prose, success answer and examples live here.
 */
import * as z from 'zod/mini';
import type { OperationId } from '#shared/routes';
import { AUTH_CACHE_TTL_MS } from '#auth/settings';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT, MAX_KEYS_CREATED_PER_DAY } from '#contract/account-limits';
import type { ErrorCode } from '#contract/errors';
import type { OperationSpec } from '#contract/operation-spec';
import { CREATE_ACCOUNT_KEY } from '#contract/operations/create-account-key';
import { CREATE_PET } from '#contract/operations/create-pet';
import { DELETE_ACCOUNT } from '#contract/operations/delete-account';
import { GET_PET } from '#contract/operations/get-pet';
import { LIST_ACCOUNT_KEYS } from '#contract/operations/list-account-keys';
import { LIST_PETS } from '#contract/operations/list-pets';
import { REVOKE_ACCOUNT_KEY } from '#contract/operations/revoke-account-key';
import { SUBMIT_MESSAGE } from '#contract/operations/submit-message';
import { AccountKey, AccountKeyList, CreatedAccountKey } from '#contract/schemas/account-key-response';
import { LIST_LIMIT_MAX } from '#contract/schemas/list-pets-query';
import { Message } from '#contract/schemas/message-response';
import { NoBody } from '#contract/schemas/no-input';
import { Pet } from '#contract/schemas/pet-response';
import type { HeaderUse } from './headers';
import type { Example } from './types';

export interface OperationDocs {
  readonly tag: 'pets' | 'messages' | 'account';
  readonly summary: string;
  readonly description: string;
  readonly spec: OperationSpec;
  readonly requestExamples?: Readonly<Record<string, Example>>;
  readonly success: {
    readonly status: 200 | 201 | 202 | 204;
    readonly description: string;
    readonly body?: z.core.$ZodType;
    readonly headers?: HeaderUse;
    readonly examples?: Readonly<Record<string, Example>>;
  };
  /** As passed to `httpHandler({ headers })`: on every answer, errors included. */
  readonly headers?: HeaderUse;
  readonly deprecated?: true;
  /** Errors beyond those every operation (or every body-carrying one) can answer. */
  readonly errors?: readonly ErrorCode[];
  readonly exampleMessages?: Partial<Record<ErrorCode, string>>;
  /** What a code means for this operation, where the generic text (lambda/contract/schemas/error.ts) would mislead. */
  readonly errorWhen?: Partial<Record<ErrorCode, string>>;
}

const rex = { id: 244208697521988, name: 'Rex', categoryId: 1, status: 'available' };
const tom = { id: 244208697526101, name: 'Tom', categoryId: 2, status: 'sold' };

const ci = {
  keyId: 'key_3f2a9c1d7e5b4a60',
  description: 'CI pipeline',
  status: 'active',
  createdAt: '2026-11-22T01:27:44.123Z',
  lastUsedAt: '2026-11-23T09:00:12.456Z',
} as const;
const revokeWindow = `${AUTH_CACHE_TTL_MS / 1000} seconds`;

export const OPERATION_DOCS: Readonly<Record<OperationId, OperationDocs>> = {
  listPets: {
    tag: 'pets',
    summary: 'List animals',
    description:
      'A page of animals, optionally only those with one `status`. The body is always a JSON array; when more animals follow, ' +
      'the `Link` header gives the URL of the next page. Unknown or repeated query parameters answer 400.',
    spec: LIST_PETS,
    success: {
      status: 200,
      description: 'OK: at most `limit` animals.',
      body: z.array(Pet).check(z.maxLength(LIST_LIMIT_MAX)),
      headers: { Link: false },
      examples: { page: { summary: 'A page of two', value: [rex, tom] }, empty: { summary: 'No animals', value: [] } },
    },
    exampleMessages: { invalid_request: "query parameter 'limit' must be an integer from 1 to 100" },
  },
  createPet: {
    tag: 'pets',
    summary: 'Add an animal',
    description:
      'Stores a new animal and answers it with the `id` the service assigned. Send an `Idempotency-Key` to make retries safe: ' +
      'a retry with the same key and body gets the first answer and stores nothing new.',
    spec: CREATE_PET,
    requestExamples: {
      forSale: { summary: 'A dog for sale', value: { name: 'Rex', categoryId: 1, status: 'available' } },
      defaultStatus: { summary: 'Without status (becomes available)', value: { name: 'Tom', categoryId: 2 } },
    },
    success: {
      status: 201,
      description: 'Created: the stored animal.',
      body: Pet,
      headers: { Location: true, 'Idempotent-Replayed': false },
      examples: { created: { summary: 'The new animal', value: rex } },
    },
    exampleMessages: { invalid_request: "field 'categoryId' is required" },
  },
  getPet: {
    tag: 'pets',
    summary: 'Get an animal (deprecated)',
    description:
      'One animal by its id. **Deprecated: removed on 5 December 2030** (`Sunset: Thu, 05 Dec 2030 00:00:00 GMT`); use ' +
      '`GET /pets` with the `status` filter instead. Every answer, errors included, carries the `Deprecation` and `Sunset` headers.',
    spec: GET_PET,
    success: { status: 200, description: 'OK: the animal.', body: Pet, examples: { found: { summary: 'An animal', value: rex } } },
    headers: { Deprecation: true, Sunset: true },
    deprecated: true,
    errors: ['not_found'],
    errorWhen: { not_found: 'No animal has this id.' },
    exampleMessages: { invalid_request: "path parameter 'petId' must be an integer from 1 to 9007199254740991" },
  },
  submitMessage: {
    tag: 'messages',
    summary: 'Submit a message',
    description:
      'The getting-started example, on its own base address (no `/v1`). The message is stored with status `queued` and ' +
      'answered at once with 202 Accepted; nothing in this version processes the queue. `Idempotency-Key` works as for adding an animal.',
    spec: SUBMIT_MESSAGE,
    requestExamples: { hello: { summary: 'A message', value: { message: 'Hello from the getting-started guide' } } },
    success: {
      status: 202,
      description: 'Accepted: the message is queued.',
      body: Message,
      headers: { 'Idempotent-Replayed': false },
      examples: {
        queued: {
          summary: 'The queued message',
          value: {
            id: '01KAQ5X4R3M0V6W8Y9Z1B2C3D4',
            message: 'Hello from the getting-started guide',
            status: 'queued',
            createdAt: '2026-11-22T01:27:44.123Z',
          },
        },
      },
    },
    exampleMessages: { invalid_request: "field 'message' is required" },
  },
  listAccountKeys: {
    tag: 'account',
    summary: "List the account's keys",
    description:
      "The active keys of the signed-in account and those it revoked recently, newest first, with the account's limits. " +
      'Keys issued by an operator for the account (`npm run keys -- create --email …`) are listed too. A key created a moment ago ' +
      'may take a second to appear (the listing reads an index).',
    spec: LIST_ACCOUNT_KEYS,
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
      `most ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys (beyond that, 409 until one is revoked) and creates at most ` +
      `${MAX_KEYS_CREATED_PER_DAY} a UTC day (beyond that, 429 until the next day). ` +
      '`Idempotency-Key` is not honoured: a request repeated after a 503 may create a second key. A key whose creation answered ' +
      '503 may still have been stored without being shown; it is then listed as active by `GET /account/keys`: revoke it.',
    spec: CREATE_ACCOUNT_KEY,
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
    errors: ['key_limit_reached', 'daily_key_limit_reached'],
    exampleMessages: { invalid_request: "field 'description' is required" },
  },
  revokeAccountKey: {
    tag: 'account',
    summary: 'Revoke a key',
    description:
      `Revokes one of the account's keys: the pets and messages APIs refuse it within ${revokeWindow} (their authorizer caches key ` +
      'lookups that long). Revoking a revoked key answers the same again, with the time of the first revocation. An id that is not ' +
      "one of this account's keys answers 404, whether it exists elsewhere or not.",
    spec: REVOKE_ACCOUNT_KEY,
    success: {
      status: 200,
      description: 'OK: the revoked key.',
      body: AccountKey,
      examples: { revoked: { summary: 'A revoked key', value: { ...ci, status: 'revoked', revokedAt: '2026-11-24T10:11:12.131Z' } } },
    },
    errors: ['not_found'],
    errorWhen: { not_found: "None of the signed-in account's keys has this `keyId`, whether another account's key has it or none does." },
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
    spec: DELETE_ACCOUNT,
    success: { status: 204, description: 'No Content: the account is gone.' },
  },
};

/** Operations without a body name `NoBody` (the handler factory never reads their body). */
export const takesBody = (docs: OperationDocs): boolean => docs.spec.input.body !== NoBody;

/** The errors an operation can answer, from what the shared middleware stack does with it. */
export function errorCodesOf(docs: OperationDocs): ErrorCode[] {
  return [
    // every operation: query (and path) validation, auth, database trouble, bugs
    'invalid_request',
    'unauthorized',
    ...(takesBody(docs) ? (['invalid_json', 'unsupported_media_type', 'payload_too_large'] as const) : []),
    ...(docs.spec.idempotent ? (['idempotency_key_reused'] as const) : []),
    ...(docs.errors ?? []),
    'internal_error',
    'service_unavailable',
  ];
}
