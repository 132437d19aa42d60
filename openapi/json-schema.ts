/**
 * zod → JSON Schema 2020-12 with zod's `toJSONSchema`, reading the `apiDocs` metadata: schemas with an `id` become
 * components, `wire` forms replace text-parsing schemas.
 */
import * as z from 'zod/mini';
import { apiDocs } from '#contract/schemas/api-docs';
import type { JsonSchema, Parameter } from './types';

const COMPONENTS = '#/components/schemas/';
/** What a wire form keeps from the zod-derived schema it replaces: the annotations, not the text rules. */
const ANNOTATIONS = ['description', 'deprecated'] as const;

type OverrideContext = Parameters<NonNullable<z.core.ToJSONSchemaParams['override']>>[0];

function replaceWithWireForm({ zodSchema, jsonSchema }: OverrideContext): void {
  const target = jsonSchema as Record<string, unknown>;
  delete target.wire; // metadata for this module, not a JSON Schema keyword
  const def = zodSchema._zod.def;
  if (def.type === 'default') {
    // zod drops `default` from the input form of a transforming schema; on the wire it holds.
    if (apiDocs.get(def.innerType)?.wire && target.default === undefined) target.default = def.defaultValue;
    return;
  }
  const wire = apiDocs.get(zodSchema)?.wire;
  if (!wire) return;
  const kept = Object.fromEntries(ANNOTATIONS.filter((key) => key in target).map((key) => [key, target[key]]));
  // zod keeps this very object: replace its contents in place.
  for (const key of Object.keys(target)) Reflect.deleteProperty(target, key);
  Object.assign(target, structuredClone(wire), kept);
}

function pointAtComponents<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', `"${COMPONENTS}`)) as T;
}

/** Converts one document's schemas and collects their components, which must convert alike wherever they appear. */
export class SchemaConverter {
  readonly #components = new Map<string, JsonSchema>();

  /** `input` for what clients send (requests, parameters), `output` for what they receive. */
  convert(schema: z.core.$ZodType, io: 'input' | 'output'): JsonSchema {
    const converted = z.toJSONSchema(schema, { io, metadata: apiDocs, unrepresentable: 'throw', override: replaceWithWireForm });
    const { $schema: _dialect, $defs, ...root } = converted;
    for (const [id, definition] of Object.entries($defs ?? {})) this.#addComponent(id, pointAtComponents(definition));
    return pointAtComponents(root);
  }

  /** One parameter per property of an object schema (a query or path schema). */
  parameters(schema: z.core.$ZodType, location: 'query' | 'path'): Parameter[] {
    const object = this.convert(schema, 'input');
    const required = new Set(object.required ?? []);
    return Object.entries(object.properties ?? {}).map(([name, property]) => {
      if (typeof property === 'boolean') throw new Error(`${location} parameter ${name} has no schema`);
      // Tools (Swagger UI, Postman, Prism) read a parameter's example from the parameter, not its schema.
      const { description, examples, ...propertySchema } = property;
      return {
        name,
        in: location,
        ...(description ? { description } : {}),
        required: location === 'path' || required.has(name),
        schema: propertySchema,
        ...(Array.isArray(examples) && examples.length > 0 ? { example: examples[0] } : {}),
      };
    });
  }

  components(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.#components].sort(([a], [b]) => a.localeCompare(b)));
  }

  #addComponent(id: string, schema: JsonSchema): void {
    const known = this.#components.get(id);
    if (known && JSON.stringify(known) !== JSON.stringify(schema)) {
      throw new Error(`schema '${id}' converts differently in two places; give the variants their own ids`);
    }
    this.#components.set(id, schema);
  }
}
