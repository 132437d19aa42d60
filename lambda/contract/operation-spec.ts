/** The shape of an operation's spec (lambda/contract/operations/); imports no schema, so no bundle gets another's. */
import type * as z from 'zod/mini';
import type { OperationId } from '#shared/routes';

/** All three inputs, always (NoPathParameters, NoBody …): their parsed types then follow with no cast. */
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

/** 1 to 255 visible ASCII characters but the comma: the gateway joins a header sent twice into `a,b`. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x2b\x2d-\x7e]{1,255}$/;
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;
