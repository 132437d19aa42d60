/** Documentation of the zod schemas for the OpenAPI document (openapi/); validation never reads it. */
import * as z from 'zod/mini';

export interface ApiDocs {
  /** `#/components/schemas/<id>` */
  id?: string;
  description?: string;
  /** Type-checked against what the schema produces. */
  examples?: z.core.$output[];
  /** What the service fills in when the field is omitted. */
  default?: z.core.$output;
  /** OpenAPI's `format` (e.g. `int64`). */
  format?: string;
  /** The wire form, when not the zod input: `limit` arrives as text the schema parses, but clients send an integer. */
  wire?: z.core.JSONSchema.BaseSchema;
}

export const apiDocs = z.registry<ApiDocs>();

/** A copy of a shared schema that validates the same but carries its own documentation (`id` vs `categoryId`). */
export function documented<T extends z.core.$ZodType>(schema: T, docs: z.core.$replace<ApiDocs, T>): T {
  const copy = z.clone(schema, schema._zod.def, { parent: true });
  apiDocs.add(copy, docs);
  return copy;
}
