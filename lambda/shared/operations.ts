/**
 * What each operation takes and promises, as data: its zod input schemas, the headers on every answer
 * and whether it honours `Idempotency-Key`. The handlers are built from it (http-handler.ts) and the
 * OpenAPI document is generated from it (lib/openapi/), so the two cannot disagree. No table access
 * or middleware here: it is safe to import anywhere.
 */
import type * as z from 'zod/mini';
import type { OperationId } from '../../lib/routes';
import { NoQueryParameters } from './schemas/common';
import { SubmitMessageRequest } from './schemas/message';
import { GetPetPath, ListPetsQuery, NewPet } from './schemas/pet';

export interface InputSchemas {
  readonly path?: z.core.$ZodType;
  readonly query?: z.core.$ZodType;
  readonly body?: z.core.$ZodType;
}

export interface OperationSpec<S extends InputSchemas = InputSchemas> {
  readonly operationId: OperationId | 'notFound';
  readonly input: S;
  /** Headers on every answer of the operation, errors included (e.g. `Deprecation` on getPet). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Honours `Idempotency-Key` (creating operations); runs after validation, so bad input never uses a key. */
  readonly idempotent?: true;
}

/** `Idempotency-Key`: 1 to 255 visible ASCII characters; a replay within the window is answered from store. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;

/**
 * getPet is deprecated since the first release (RFC 9745 `Deprecation`, a structured-field date) and
 * removed on 5 December 2030 (RFC 8594 `Sunset`); the replacement is GET /v1/pets with `status`.
 */
export const GET_PET_DEPRECATION_HEADERS = {
  deprecation: '@1767225600', // 2026-01-01T00:00:00Z
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
} as const;

export const OPERATIONS = {
  listPets: { operationId: 'listPets', input: { query: ListPetsQuery } },
  createPet: { operationId: 'createPet', input: { body: NewPet, query: NoQueryParameters }, idempotent: true },
  getPet: { operationId: 'getPet', input: { path: GetPetPath, query: NoQueryParameters }, headers: GET_PET_DEPRECATION_HEADERS },
  submitMessage: { operationId: 'submitMessage', input: { body: SubmitMessageRequest, query: NoQueryParameters }, idempotent: true },
} as const satisfies Record<OperationId, OperationSpec>;

/** The `$default` route: any method/path outside the route table; auth still comes first. */
export const NOT_FOUND_OPERATION = { operationId: 'notFound', input: {} } as const satisfies OperationSpec;
