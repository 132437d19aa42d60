/**
 * ajv over one OpenAPI document's schemas (JSON Schema 2020-12, patterns with the `u` flag as Prism compiles them),
 * for the answer check (./contract-check.ts) and the request oracle (./request-check.ts).
 */
import Ajv2020, { type Options, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { JsonSchema, OpenApiDocument } from './types';

/** What does not match `schema` in `value`, each problem led by where (`rootName` for the value itself); none when it matches. */
export type SchemaProblems = (schema: JsonSchema, value: unknown, rootName?: string) => string[];

const COMPONENTS = '"#/components/schemas/';
const COMPONENTS_ID = 'urn:petstore:components';

/** Ajv for OpenAPI 3.1's schemas, with the formats the documents use. */
export function openApiAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, ...options });
  addFormats(ajv);
  // OpenAPI's integer widths: JSON numbers are doubles, so an int64 a client can send exactly is a safe integer.
  ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isSafeInteger(value) });
  return ajv;
}

export function schemaValidation(document: OpenApiDocument): SchemaProblems {
  const ajv = openApiAjv();
  const toAjvRefs = <T>(schema: T): T => JSON.parse(JSON.stringify(schema).replaceAll(COMPONENTS, `"${COMPONENTS_ID}#/$defs/`)) as T;
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: toAjvRefs(document.components.schemas) });

  const validators = new Map<string, ValidateFunction>();
  return (schema, value, rootName = '(root)') => {
    const key = JSON.stringify(schema);
    let validate = validators.get(key);
    if (!validate) validators.set(key, (validate = ajv.compile(toAjvRefs(schema))));
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || rootName} ${error.message ?? 'is invalid'}`);
  };
}
