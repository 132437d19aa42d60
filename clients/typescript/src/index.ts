/** `@petstore/client`: `PetStoreClient` calls the pets and messages APIs with an API key, `AccountClient` the account API. */
export { PetStoreClient } from './pet-store-client.ts';
export type {
  CreateOptions,
  ListPetsOptions,
  ListPetsPageOptions,
  PetPage,
  PetStoreClientOptions,
  StackOutputs,
} from './pet-store-client.ts';
export { AccountClient } from './account-client.ts';
export type { AccessTokenSource, AccountClientOptions } from './account-client.ts';
export type { CallOptions, FetchFunction, TransportOptions } from './client-options.ts';
export type { RetryEvent, RetryOptions } from './retry-policy.ts';
export { GatewayError, NetworkError, PetStoreError, ServiceError, isServiceError } from './errors.ts';
export type { AnswerDetails, FailedCall, ServiceErrorOf } from './errors.ts';
export { OPERATION_ERROR_CODES } from './operations.ts';
export type { ErrorCodeOf, OperationId } from './operations.ts';
export type { AccountKey, AccountKeyList, CreatedAccountKey, Message, NewPet, Pet, PetStatus } from './schemas.ts';
