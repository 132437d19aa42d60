/**
 * The first request each deployed function answers in part 1's "init plus first invocation": a real one, against the
 * bench's DynamoDB, with the status it must answer. deleteAccount reaches the bench's Cognito stand-in (user-pool.ts):
 * each process's account is new to the pool, which answers that its user is gone, and that counts as deleted (204).
 */
import type { FunctionName } from '#shared/table-access';
import { BENCH_IDENTITY, type BenchStore } from './bench-store';
import { accountRequest, authorizerEventFor, httpEvent, requestOf, type RequestShape } from './events';

type DeployedName = Exclude<FunctionName, 'stageCheck'>;

export interface FirstRequest {
  readonly event: unknown;
  /** The status it answers; the authorizer's `isAuthorized` as 200. */
  readonly status: number;
}

export function firstRequests(bench: BenchStore, petId: number): Readonly<Record<DeployedName, FirstRequest>> {
  // @RUN@: each process's own account (first-call.cjs), so every run finds the account as new.
  const account = { sub: 'acct_bench_cold_@RUN@', issuer: BENCH_IDENTITY.issuer, clientId: BENCH_IDENTITY.clientId };
  const keys = { method: 'GET', routePath: '/account/keys', rawPath: '/account/keys' } as const;
  // Its access token outlasts the run: a full run's cold starts take minutes, a token lasts 5 of them.
  const call = (shape: RequestShape) => {
    const event = accountRequest(shape, account);
    const { claims } = (event.requestContext as unknown as { authorizer: { jwt: { claims: Record<string, string> } } }).authorizer.jwt;
    claims.exp = String(Math.floor(Date.now() / 1000) + 86_400);
    return event;
  };
  return {
    authorizer: { event: authorizerEventFor(requestOf.listPets({}, `Bearer ${bench.apiKey}`)), status: 200 },
    listPets: { event: requestOf.listPets({ status: 'available', limit: '20' }), status: 200 },
    createPet: { event: requestOf.createPet({ name: 'cold start', categoryId: 1, status: 'available' }), status: 201 },
    getPet: { event: requestOf.getPet(petId), status: 200 },
    submitMessage: { event: requestOf.submitMessage('cold start'), status: 202 },
    listAccountKeys: { event: call(keys), status: 200 },
    createAccountKey: {
      event: call({ ...keys, method: 'POST', body: JSON.stringify({ description: 'cold' }) }),
      status: 201,
    },
    revokeAccountKey: {
      event: call({
        method: 'DELETE' as 'GET',
        routePath: '/account/keys/{keyId}',
        rawPath: '/account/keys/key_none',
        pathParameters: { keyId: 'key_none' },
      }),
      status: 404,
    },
    deleteAccount: {
      event: call({ method: 'DELETE' as 'GET', routePath: '/account', rawPath: '/account' }),
      status: 204,
    },
    notFound: { event: requestOf.notFound(), status: 404 },
    accountNotFound: { event: call({ method: 'GET', routePath: '$default', rawPath: '/account/nowhere' }), status: 404 },
    preflight: { event: httpEvent({ method: 'OPTIONS' as 'GET', routePath: '/{proxy+}', rawPath: '/v1/pets' }), status: 204 },
  };
}
