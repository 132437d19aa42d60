/** The route table as plain data, shared by the CDK stack (routes, one function each) and the local server. */
/** The spec's APIs, called with API keys: the ones custom domains and the front door put an entrance before. */
export type PublicApiName = 'pets' | 'messages';
export type ApiName = PublicApiName | 'account';
export type HttpMethod = 'GET' | 'POST' | 'DELETE';
/** The spec's interface: the pets and messages APIs (docs/openapi/pets.json and messages.json). */
export type PublicOperationId = 'listPets' | 'createPet' | 'getPet' | 'submitMessage';
/** The developer portal's account API (docs/openapi/account.json): a signed-in user's own keys. */
export type AccountOperationId = 'listAccountKeys' | 'createAccountKey' | 'revokeAccountKey' | 'deleteAccount';
export type OperationId = PublicOperationId | AccountOperationId;

export interface RouteDefinition<Id extends OperationId = OperationId> {
  readonly operationId: Id;
  readonly api: ApiName;
  readonly method: HttpMethod;
  /** API Gateway route path; `{name}` marks a path parameter. */
  readonly path: string;
  /** Handler module, relative to the project root; it exports `handler`. */
  readonly entry: string;
}

/** The pets API serves its routes under `/v1`, so its base URL ends with `/v1` (spec: Versioning). */
export const PETS_BASE_PATH = '/v1';

/** The routes of the spec's interface (pets and messages APIs), each API behind the Lambda authorizer. */
export const ROUTES: readonly RouteDefinition<PublicOperationId>[] = [
  { operationId: 'listPets', api: 'pets', method: 'GET', path: `${PETS_BASE_PATH}/pets`, entry: 'lambda/handlers/list-pets.ts' },
  { operationId: 'createPet', api: 'pets', method: 'POST', path: `${PETS_BASE_PATH}/pets`, entry: 'lambda/handlers/create-pet.ts' },
  { operationId: 'getPet', api: 'pets', method: 'GET', path: `${PETS_BASE_PATH}/pets/{petId}`, entry: 'lambda/handlers/get-pet.ts' },
  // The getting-started call has its own API and base URL (no `/v1`).
  { operationId: 'submitMessage', api: 'messages', method: 'POST', path: '/messages', entry: 'lambda/handlers/submit-message.ts' },
];

/** The account API serves its routes under `/account`; its base URL is the API's own address. */
export const ACCOUNT_BASE_PATH = '/account';

/** The account API (docs/portal.md): its own HTTP API, whose callers send a Cognito access token, not an API key. */
export const ACCOUNT_ROUTES: readonly RouteDefinition<AccountOperationId>[] = (
  [
    ['listAccountKeys', 'GET', '/keys', 'lambda/handlers/list-account-keys.ts'],
    ['createAccountKey', 'POST', '/keys', 'lambda/handlers/create-account-key.ts'],
    ['revokeAccountKey', 'DELETE', '/keys/{keyId}', 'lambda/handlers/revoke-account-key.ts'],
    ['deleteAccount', 'DELETE', '', 'lambda/handlers/delete-account.ts'],
  ] as const
).map(([operationId, method, path, entry]) => ({ operationId, api: 'account', method, path: `${ACCOUNT_BASE_PATH}${path}`, entry }));

/** Every route of every API: what the stack deploys and the local server matches. */
export const ALL_ROUTES: readonly RouteDefinition[] = [...ROUTES, ...ACCOUNT_ROUTES];

/** Runs before every route of both APIs and resolves the caller (README, Design in brief). */
export const AUTHORIZER_ENTRY = 'lambda/handlers/authorizer.ts';
/** Serves the `$default` route: any unknown method/path answers the spec-shaped 404. */
export const NOT_FOUND_ENTRY = 'lambda/handlers/not-found.ts';
/** The account API's `$default` route: the same 404, for callers with a valid access token. */
export const ACCOUNT_NOT_FOUND_ENTRY = 'lambda/handlers/account-not-found.ts';
/** Browser preflights (`OPTIONS`, never with `Authorization`) take this route without authorizer, not `$default`. */
export const PREFLIGHT_ROUTE = { method: 'OPTIONS', path: '/{proxy+}' } as const;
/** Serves PREFLIGHT_ROUTE: 204, to which API Gateway adds the configured CORS headers. */
export const PREFLIGHT_ENTRY = 'lambda/handlers/preflight.ts';
