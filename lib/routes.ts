/**
 * The route table as plain data, shared by the CDK stack (API Gateway routes + one function each) and
 * the local server (request matching + handler loading). No aws-cdk-lib import here on purpose.
 */
export type ApiName = 'pets' | 'messages';
export type HttpMethod = 'GET' | 'POST';
export type OperationId = 'listPets' | 'createPet' | 'getPet' | 'submitMessage';

export interface RouteDefinition {
  readonly operationId: OperationId;
  readonly api: ApiName;
  readonly method: HttpMethod;
  /** API Gateway route path; `{name}` marks a path parameter. */
  readonly path: string;
  /** Handler module, relative to the project root; it exports `handler`. */
  readonly entry: string;
}

/** The pets API serves its routes under `/v1`, so its base URL ends with `/v1` (spec: Versioning). */
export const PETS_BASE_PATH = '/v1';

export const ROUTES: readonly RouteDefinition[] = [
  { operationId: 'listPets', api: 'pets', method: 'GET', path: `${PETS_BASE_PATH}/pets`, entry: 'lambda/handlers/list-pets.ts' },
  { operationId: 'createPet', api: 'pets', method: 'POST', path: `${PETS_BASE_PATH}/pets`, entry: 'lambda/handlers/create-pet.ts' },
  { operationId: 'getPet', api: 'pets', method: 'GET', path: `${PETS_BASE_PATH}/pets/{petId}`, entry: 'lambda/handlers/get-pet.ts' },
  // The getting-started call has its own API and base URL (no `/v1`).
  { operationId: 'submitMessage', api: 'messages', method: 'POST', path: '/messages', entry: 'lambda/handlers/submit-message.ts' },
];

/** Runs before every route of both APIs and resolves the caller (README, Design in brief). */
export const AUTHORIZER_ENTRY = 'lambda/handlers/authorizer.ts';
/** Serves the `$default` route: any unknown method/path answers the spec-shaped 404. */
export const NOT_FOUND_ENTRY = 'lambda/handlers/not-found.ts';
/**
 * With CORS on, browser preflights (`OPTIONS`, never with `Authorization`) take this route, which has no
 * authorizer; `$default` would otherwise catch them. API Gateway's `{proxy+}` matches every path but `/`.
 */
export const PREFLIGHT_ROUTE = { method: 'OPTIONS', path: '/{proxy+}' } as const;
/** Serves PREFLIGHT_ROUTE: 204, to which API Gateway adds the configured CORS headers. */
export const PREFLIGHT_ENTRY = 'lambda/handlers/preflight.ts';
