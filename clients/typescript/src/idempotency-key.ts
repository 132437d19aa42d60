/** A create's `Idempotency-Key`: one per call, the same on each retry, so the service stores the create once. */
const VALID_KEY = /^[\x21-\x2b\x2d-\x7e]{1,255}$/;

/** The caller's key when given (checked), else a new random UUID. */
export function idempotencyKeyFor(given: string | undefined): string {
  if (given === undefined) return crypto.randomUUID();
  if (!VALID_KEY.test(given))
    throw new TypeError('idempotencyKey must be 1 to 255 visible ASCII characters without a comma, such as a UUID');
  return given;
}
