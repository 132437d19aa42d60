/** What the data layer throws, never HTTP errors: middleware/map-errors.ts decides the answer. */

/** An `Idempotency-Key` already used, by the same account for the same operation, with another request. */
export class IdempotencyKeyReusedError extends Error {
  override readonly name = 'IdempotencyKeyReusedError';
  constructor() {
    super('this Idempotency-Key was already used with a different request body');
  }
}

/** A service we depend on refused for now (throttled, over its quota): worth retrying later. */
export class DependencyUnavailableError extends Error {
  override readonly name: string = 'DependencyUnavailableError';
  constructor(
    readonly dependency: string,
    options?: ErrorOptions,
  ) {
    super(`${dependency} is unavailable for now`, options);
  }
}

/** Too little of the request's time is left for another attempt at a dependency (lambda/data/deadline-http-handler.ts). */
export class DeadlineReachedError extends DependencyUnavailableError {
  override readonly name = 'DeadlineReachedError';
}
