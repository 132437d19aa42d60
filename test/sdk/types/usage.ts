/**
 * A client program as a user writes it, which must compile under the strictest options (test/sdk/types.test.ts):
 * every operation, the listing's iterator and pages, and errors narrowed per operation, exhaustively.
 */
import {
  AccountClient,
  GatewayError,
  isServiceError,
  NetworkError,
  PetStoreClient,
  PetStoreError,
  type ErrorCodeOf,
  type Pet,
} from '../../../clients/typescript/src/index.ts';

export async function program(outputs: Record<string, string>, apiKey: string, accessToken: () => Promise<string>): Promise<Pet[]> {
  const client = PetStoreClient.fromStackOutputs(outputs, apiKey, { timeoutMs: 5_000, retry: { maxAttempts: 5, maxDelayMs: 2_000 } });
  const rex = await client.createPet({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'order-42' });
  await client.submitMessage(`added ${rex.id}`);

  const sold: Pet[] = [];
  for await (const pet of client.listPets({ status: 'sold', pageSize: 50 })) sold.push(pet);
  const page = await client.listPetsPage({ pageSize: 10 });
  if (page.nextCursor !== undefined) await client.listPetsPage({ pageSize: 10, cursor: page.nextCursor });

  try {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- a program that still uses it
    await client.getPet(rex.id);
  } catch (error) {
    if (isServiceError(error, 'getPet')) {
      const code: ErrorCodeOf<'getPet'> = error.code;
      switch (code) {
        case 'not_found':
        case 'invalid_request':
        case 'unauthorized':
        case 'internal_error':
        case 'service_unavailable':
          break;
        default: {
          const never: never = code;
          throw new Error(`unreachable: ${String(never)}`);
        }
      }
    } else if (error instanceof GatewayError) console.log(error.status, error.requestId);
    else if (error instanceof NetworkError) console.log(error.timedOut, error.cause);
    else if (error instanceof PetStoreError) console.log(error.operation, error.attempts, error.idempotencyKey);
    else throw error;
  }

  const account = new AccountClient({ accountBaseUrl: outputs.AccountBaseUrl ?? '', accessToken });
  const { key, keyId } = await account.createKey('CI pipeline');
  const { keys, maxActiveKeys } = await account.listKeys();
  console.log(key, keys.length, maxActiveKeys);
  await account.revokeKey(keyId);
  return sold;
}

/** The deprecated call, for the test that checks editors see it struck through. */
// eslint-disable-next-line @typescript-eslint/no-deprecated -- on purpose
export const deprecatedCall = (client: PetStoreClient): Promise<Pet> => client.getPet(1);
