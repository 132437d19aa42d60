/**
 * The operations by their `operationId` in `docs/openapi/{pets,messages,account}.json`, and the error codes each
 * can answer: the documents type `code` as a string (codes may be added), so a test holds these lists to them.
 */
export type OperationId =
  'listPets' | 'createPet' | 'getPet' | 'submitMessage' | 'listAccountKeys' | 'createAccountKey' | 'revokeAccountKey' | 'deleteAccount';

/** What every operation can answer, around what it answers alone (in the order the documents list them). */
const codes = <const Own extends readonly string[]>(...own: Own) =>
  ['invalid_request', 'unauthorized', ...own, 'internal_error', 'service_unavailable'] as const;
/** What every operation with a JSON body can answer about it. */
const BODY = ['invalid_json', 'unsupported_media_type', 'payload_too_large'] as const;

/** What `ServiceError.code` can be when `isServiceError(error, operation)` holds. */
export const OPERATION_ERROR_CODES = {
  listPets: codes(),
  createPet: codes(...BODY, 'idempotency_key_reused'),
  getPet: codes('not_found'),
  submitMessage: codes(...BODY, 'idempotency_key_reused'),
  listAccountKeys: codes(),
  createAccountKey: codes(...BODY, 'key_limit_reached', 'daily_key_limit_reached'),
  revokeAccountKey: codes('not_found'),
  deleteAccount: codes(),
} as const satisfies Readonly<Record<OperationId, readonly string[]>>;

/** The error codes `operation` can answer, e.g. `ErrorCodeOf<'getPet'>` includes `'not_found'`. */
export type ErrorCodeOf<Operation extends OperationId> = (typeof OPERATION_ERROR_CODES)[Operation][number];
