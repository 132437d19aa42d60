/**
 * The operations of the three APIs, by the `operationId` their OpenAPI documents give them, and the error codes
 * each one can answer. The documents type `code` as a plain string (new codes may be added), so the lists are kept
 * here as literal unions; a test holds them to what the service documents for each operation.
 */

/** Every operation the SDK calls, named as in the documents (`docs/openapi/{pets,messages,account}.json`). */
export type OperationId =
  'listPets' | 'createPet' | 'getPet' | 'submitMessage' | 'listAccountKeys' | 'createAccountKey' | 'revokeAccountKey' | 'deleteAccount';

/** The service's error codes per operation: what `ServiceError.code` can be when `isServiceError(error, operation)` holds. */
export const OPERATION_ERROR_CODES = {
  listPets: ['invalid_request', 'unauthorized', 'internal_error', 'service_unavailable'],
  createPet: [
    'invalid_request',
    'unauthorized',
    'invalid_json',
    'unsupported_media_type',
    'payload_too_large',
    'idempotency_key_reused',
    'internal_error',
    'service_unavailable',
  ],
  getPet: ['invalid_request', 'unauthorized', 'not_found', 'internal_error', 'service_unavailable'],
  submitMessage: [
    'invalid_request',
    'unauthorized',
    'invalid_json',
    'unsupported_media_type',
    'payload_too_large',
    'idempotency_key_reused',
    'internal_error',
    'service_unavailable',
  ],
  listAccountKeys: ['invalid_request', 'unauthorized', 'internal_error', 'service_unavailable'],
  createAccountKey: [
    'invalid_request',
    'unauthorized',
    'invalid_json',
    'unsupported_media_type',
    'payload_too_large',
    'key_limit_reached',
    'daily_key_limit_reached',
    'internal_error',
    'service_unavailable',
  ],
  revokeAccountKey: ['invalid_request', 'unauthorized', 'not_found', 'internal_error', 'service_unavailable'],
  deleteAccount: ['invalid_request', 'unauthorized', 'internal_error', 'service_unavailable'],
} as const satisfies Readonly<Record<OperationId, readonly string[]>>;

/** The error codes `operation` can answer, e.g. `ErrorCodeOf<'getPet'>` includes `'not_found'`. */
export type ErrorCodeOf<Operation extends OperationId> = (typeof OPERATION_ERROR_CODES)[Operation][number];

/** Whether `code` is one this SDK knows `operation` to answer (a newer service may answer others). */
export const isKnownCodeOf = <Operation extends OperationId>(operation: Operation, code: string): code is ErrorCodeOf<Operation> =>
  (OPERATION_ERROR_CODES[operation] as readonly string[]).includes(code);
