/**
 * The shape of an operation's spec (lambda/contract/operations/): its zod input schemas, the
 * headers on every answer and whether it honours `Idempotency-Key`. No schema is imported here, so
 * the handler factory can use these types and constants without bundling any operation's schemas.
 */
import type * as z from 'zod/mini';
import type { OperationId } from '#shared/routes';

/**
 * Every operation names all three inputs, so their parsed types follow from the schemas with no
 * conditional type and no cast (schemas/common.ts has the "none" forms: NoPathParameters, NoBody …).
 */
export interface InputSchemas {
  readonly path: z.core.$ZodType;
  readonly query: z.core.$ZodType;
  readonly body: z.core.$ZodType;
}

export interface OperationSpec<S extends InputSchemas = InputSchemas> {
  readonly operationId: OperationId | 'notFound' | 'accountNotFound';
  readonly input: S;
  /** Headers on every answer of the operation, errors included (e.g. `Deprecation` on getPet). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Honours `Idempotency-Key` (creating operations); checked after validation, so bad input never uses a key. */
  readonly idempotent?: true;
}

/**
 * `Idempotency-Key`: one value of 1 to 255 visible ASCII characters other than a comma. The comma is
 * HTTP's list separator: the gateway joins a header sent twice into `a,b`, which must not become a
 * key of its own. A replay within the window is answered from store.
 */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x2b\x2d-\x7e]{1,255}$/;
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;
