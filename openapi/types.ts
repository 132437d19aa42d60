/** The part of OpenAPI 3.1 this project writes (and its contract tests read). */
import type * as z from 'zod/mini';

export type JsonSchema = z.core.JSONSchema.BaseSchema;

export interface Server {
  readonly url: string;
  readonly description: string;
  readonly variables?: Readonly<Record<string, { readonly default: string; readonly description?: string }>>;
}

export interface Example {
  readonly summary: string;
  readonly value: unknown;
}

export interface MediaType {
  readonly schema: JsonSchema;
  readonly examples?: Readonly<Record<string, Example>>;
}

export interface Header {
  readonly description: string;
  readonly required?: boolean;
  readonly schema: JsonSchema;
}

export interface Parameter {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header';
  readonly description?: string;
  readonly required: boolean;
  readonly schema: JsonSchema;
  readonly example?: unknown;
}

export interface RequestBody {
  readonly description: string;
  readonly required: boolean;
  readonly content: Readonly<Record<string, MediaType>>;
}

export interface Response {
  readonly description: string;
  readonly headers?: Readonly<Record<string, Header>>;
  readonly content?: Readonly<Record<string, MediaType>>;
}

export interface Operation {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly deprecated?: boolean;
  readonly servers?: readonly Server[];
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: RequestBody;
  readonly responses: Readonly<Record<string, Response>>;
}

export type HttpMethodKey = 'get' | 'post' | 'delete';
export type PathItem = Partial<Record<HttpMethodKey, Operation>>;

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: {
    readonly title: string;
    readonly version: string;
    readonly summary: string;
    readonly description: string;
    readonly license: { readonly name: string; readonly identifier?: string; readonly url?: string };
    readonly contact?: { readonly name: string; readonly url?: string };
  };
  readonly servers: readonly Server[];
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  readonly paths: Readonly<Record<string, PathItem>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly securitySchemes: Readonly<
      Record<string, { readonly type: 'http'; readonly scheme: 'bearer'; readonly bearerFormat: string; readonly description: string }>
    >;
  };
}
