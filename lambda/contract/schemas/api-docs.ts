/**
 * Documentation attached to the zod schemas, for the OpenAPI document (openapi/). Validation never
 * reads it: registering a schema here changes nothing about what it accepts.
 */
import * as z from 'zod/mini';

export interface ApiDocs {
  /** Makes the schema a named component: `#/components/schemas/<id>`. */
  id?: string;
  description?: string;
  /** Type-checked against what the schema produces. */
  examples?: z.core.$output[];
  /** What the service fills in when the field is omitted. */
  default?: z.core.$output;
  /** JSON Schema has no integer width; OpenAPI's `format` (e.g. `int64`) says it. */
  format?: string;
  /**
   * The wire form, when it is not the zod input: query and path parameters arrive as text that the
   * schema parses (e.g. `limit` is the string "20" on the wire, validated as digits, then a number).
   * Clients see the value they send — an integer — so the document shows this instead.
   */
  wire?: z.core.JSONSchema.BaseSchema;
}

export const apiDocs = z.registry<ApiDocs>();

/**
 * A copy of a shared schema (same def and checks, so it validates exactly the same) that carries its
 * own documentation, e.g. `id` and `categoryId` are both PositiveSafeInteger but mean different things.
 */
export function documented<T extends z.core.$ZodType>(schema: T, docs: z.core.$replace<ApiDocs, T>): T {
  const copy = z.clone(schema, schema._zod.def, { parent: true });
  apiDocs.add(copy, docs);
  return copy;
}
