/**
 * What the document says about each operation of lib/routes.ts beyond its route: its inputs and
 * traits come from lambda/shared/operations.ts (the spec the handlers are built from); the prose,
 * success answer and examples live here. The contract tests hold every answer of the HTTP tests to
 * the document, so a handler that answers something undocumented fails them.
 */
import * as z from 'zod/mini';
import type { PublicOperationId } from '../lib/routes';
import { OPERATIONS as SPECS, type InputSchemas } from '../lambda/shared/operations';
import { NoBody } from '../lambda/shared/schemas/no-input';
import { Message } from '../lambda/shared/schemas/message-response';
import { LIST_LIMIT_MAX } from '../lambda/shared/schemas/list-pets-query';
import { Pet } from '../lambda/shared/schemas/pet-response';
import type { ErrorCode } from '../lambda/shared/errors';
import type { HeaderUse } from './responses';
import type { Example } from './types';

export interface OperationDocs {
  readonly tag: 'pets' | 'messages' | 'account';
  readonly summary: string;
  readonly description: string;
  /** The operation's input schemas, from lambda/shared/operations.ts (what the handler validates with). */
  readonly input: InputSchemas;
  readonly requestExamples?: Readonly<Record<string, Example>>;
  readonly success: {
    readonly status: 200 | 201 | 202 | 204;
    readonly description: string;
    /** Absent for an answer without a body (204). */
    readonly body?: z.core.$ZodType;
    readonly headers?: HeaderUse;
    readonly examples?: Readonly<Record<string, Example>>;
  };
  /** As passed to `httpHandler({ headers })`: on every answer, errors included. */
  readonly headers?: HeaderUse;
  readonly deprecated?: true;
  /** From lambda/shared/operations.ts: honours `Idempotency-Key`. */
  readonly idempotent?: true;
  /** Errors beyond those every operation (or every body-carrying one) can answer. */
  readonly errors?: readonly ErrorCode[];
  readonly exampleMessages?: Partial<Record<ErrorCode, string>>;
}

const rex = { id: 244208697521988, name: 'Rex', categoryId: 1, status: 'available' };
const tom = { id: 244208697526101, name: 'Tom', categoryId: 2, status: 'sold' };

export const OPERATIONS: Readonly<Record<PublicOperationId, OperationDocs>> = {
  listPets: {
    tag: 'pets',
    summary: 'List animals',
    description:
      'A page of animals, optionally only those with one `status`. The body is always a JSON array; when more animals follow, ' +
      'the `Link` header gives the URL of the next page. Unknown or repeated query parameters answer 400.',
    input: SPECS.listPets.input,
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
    input: SPECS.createPet.input,
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
    idempotent: SPECS.createPet.idempotent,
    exampleMessages: { invalid_request: "field 'categoryId' is required" },
  },
  getPet: {
    tag: 'pets',
    summary: 'Get an animal (deprecated)',
    description:
      'One animal by its id. **Deprecated: removed on 5 December 2030** (`Sunset: Thu, 05 Dec 2030 00:00:00 GMT`); use ' +
      '`GET /pets` with the `status` filter instead. Every answer, errors included, carries the `Deprecation` and `Sunset` headers.',
    input: SPECS.getPet.input,
    success: { status: 200, description: 'OK: the animal.', body: Pet, examples: { found: { summary: 'An animal', value: rex } } },
    headers: { Deprecation: true, Sunset: true },
    deprecated: true,
    errors: ['not_found'],
    exampleMessages: { invalid_request: "path parameter 'petId' must be an integer from 1 to 9007199254740991" },
  },
  submitMessage: {
    tag: 'messages',
    summary: 'Submit a message',
    description:
      'The getting-started example, on its own base address (no `/v1`). The message is stored with status `queued` and ' +
      'answered at once with 202 Accepted; nothing in this version processes the queue. `Idempotency-Key` works as for adding an animal.',
    input: SPECS.submitMessage.input,
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
    idempotent: SPECS.submitMessage.idempotent,
    exampleMessages: { invalid_request: "field 'message' is required" },
  },
};

/** Operations without a body name `NoBody` (the handler factory never reads their body). */
export const takesBody = (docs: OperationDocs): boolean => docs.input.body !== NoBody;

/** The errors an operation can answer, from what the shared middleware stack does with it. */
export function errorCodesOf(docs: OperationDocs): ErrorCode[] {
  return [
    // every operation: query (and path) validation, auth, database trouble, bugs
    'invalid_request',
    'unauthorized',
    ...(takesBody(docs) ? (['invalid_json', 'unsupported_media_type', 'payload_too_large'] as const) : []),
    ...(docs.idempotent ? (['idempotency_key_reused'] as const) : []),
    ...(docs.errors ?? []),
    'internal_error',
    'service_unavailable',
  ];
}
