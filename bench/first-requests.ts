/**
 * The first request each deployed function answers in part 1's "init plus first invocation": a real one, against the
 * bench's DynamoDB, with the status it must answer (the account functions' Cognito is not running: deleteAccount
 * answers that it is unavailable, after its DynamoDB reads, as a stage whose user pool is down would).
 */
import type { FunctionName } from '#shared/table-access';
import { BENCH_IDENTITY, type BenchStore } from './bench-store';
import { accountRequest, authorizerEventFor, httpEvent, requestOf } from './events';

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
  return {
    authorizer: { event: authorizerEventFor(requestOf.listPets({}, `Bearer ${bench.apiKey}`)), status: 200 },
    listPets: { event: requestOf.listPets({ status: 'available', limit: '20' }), status: 200 },
    createPet: { event: requestOf.createPet({ name: 'cold start', categoryId: 1, status: 'available' }), status: 201 },
    getPet: { event: requestOf.getPet(petId), status: 200 },
    submitMessage: { event: requestOf.submitMessage('cold start'), status: 202 },
    listAccountKeys: { event: accountRequest(keys, account), status: 200 },
    createAccountKey: {
      event: accountRequest({ ...keys, method: 'POST', body: JSON.stringify({ description: 'cold' }) }, account),
      status: 201,
    },
    revokeAccountKey: {
      event: accountRequest(
        {
          method: 'DELETE' as 'GET',
          routePath: '/account/keys/{keyId}',
          rawPath: '/account/keys/key_none',
          pathParameters: { keyId: 'key_none' },
        },
        account,
      ),
      status: 404,
    },
    deleteAccount: {
      event: accountRequest({ method: 'DELETE' as 'GET', routePath: '/account', rawPath: '/account' }, account),
      status: 503,
    },
    notFound: { event: requestOf.notFound(), status: 404 },
    accountNotFound: { event: accountRequest({ method: 'GET', routePath: '$default', rawPath: '/account/nowhere' }, account), status: 404 },
    preflight: { event: httpEvent({ method: 'OPTIONS' as 'GET', routePath: '/{proxy+}', rawPath: '/v1/pets' }), status: 204 },
  };
}
