/** The SDK's `PetStoreClient` on the test API, every answer held to the documents; and what a call threw. */
import { PetStoreClient } from '../../../clients/typescript/src/index.ts';
import type { TestApi } from '../../support/test-api';
import { contractCheckedFetch } from './contract-checked-fetch';

export const petStoreClient = (api: TestApi, apiKey = api.key): PetStoreClient =>
  new PetStoreClient({ petsBaseUrl: api.petsBaseUrl, messagesBaseUrl: api.origin, apiKey, fetch: contractCheckedFetch });

/** What a call threw; undefined when it succeeded. */
export const failureOf = (call: Promise<unknown>): Promise<unknown> =>
  call.then(
    () => undefined,
    (error: unknown) => error,
  );
