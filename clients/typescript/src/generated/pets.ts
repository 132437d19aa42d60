/**
 * Generated from docs/openapi/pets.json by openapi-typescript (`npm run openapi`): do not edit.
 * `npm run openapi -- --check` fails when this file differs from what the document gives.
 */

export interface paths {
  '/pets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List animals
     * @description A page of animals, optionally only those with one `status`. The body is always a JSON array; when more animals follow, the `Link` header gives the URL of the next page. Unknown or repeated query parameters answer 400.
     */
    get: operations['listPets'];
    put?: never;
    /**
     * Add an animal
     * @description Stores a new animal and answers it with the `id` the service assigned. Send an `Idempotency-Key` to make retries safe: a retry with the same key and body gets the first answer and stores nothing new.
     */
    post: operations['createPet'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/pets/{petId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an animal (deprecated)
     * @deprecated
     * @description One animal by its id. **Deprecated: removed on 5 December 2030** (`Sunset: Thu, 05 Dec 2030 00:00:00 GMT`); use `GET /pets` with the `status` filter instead. Every answer, errors included, carries the `Deprecation` and `Sunset` headers.
     */
    get: operations['getPet'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /**
     * @description The body of every error answer.
     * @example {
     *       "code": "invalid_request",
     *       "message": "field 'name' is required",
     *       "status": 400
     *     }
     */
    Error: {
      /**
       * @description Machine-readable and stable: `invalid_request` (400), `invalid_json` (400), `unsupported_media_type` (400), `unauthorized` (401), `not_found` (404), `payload_too_large` (413), `idempotency_key_reused` (422), `internal_error` (500), `service_unavailable` (503). New codes may be added; existing ones keep their meaning.
       * @example invalid_request
       */
      code: string;
      /**
       * @description Human-readable: what is wrong, naming the field or parameter when there is one.
       * @example field 'name' is required
       */
      message: string;
      /**
       * @description The HTTP status, repeated.
       * @example 400
       */
      status: number;
    };
    /**
     * @description The body of an answer API Gateway gives by itself (throttling, a failed function, a body over its limits); not the service's Error.
     * @example {
     *       "message": "Too Many Requests"
     *     }
     */
    GatewayError: {
      message: string;
    };
    /**
     * @description An animal to add. Fields other than these (including `id`, which the service assigns) are refused.
     * @example {
     *       "name": "Rex",
     *       "categoryId": 1,
     *       "status": "available"
     *     }
     */
    NewPet: {
      /**
       * @description The animal's name: 1 to 200 characters (Unicode code points), not blank, well-formed Unicode, no control characters.
       * @example Rex
       */
      name: string;
      /**
       * Format: int64
       * @description Identifier of the category the animal belongs to. Any JSON number whose exact value is whole (`1`, `1.0`, `1e0`); text that only rounds to a whole number, such as `1.0000000000000001`, answers 400.
       * @example 1
       */
      categoryId: number;
      /** @description Availability; `available` when omitted. */
      status?: components['schemas']['PetStatus'];
    };
    /**
     * @description An animal of the store.
     * @example {
     *       "id": 244208697521988,
     *       "name": "Rex",
     *       "categoryId": 1,
     *       "status": "available"
     *     }
     */
    Pet: {
      /**
       * Format: int64
       * @description Assigned by the service when the animal is added: unique, never reused, below 2^53 (exact in every JSON client).
       * @example 244208697521988
       */
      id: number;
      /** @description The animal's name. */
      name: string;
      /**
       * Format: int64
       * @description Identifier of the category the animal belongs to. Any JSON number whose exact value is whole (`1`, `1.0`, `1e0`); text that only rounds to a whole number, such as `1.0000000000000001`, answers 400.
       * @example 1
       */
      categoryId: number;
      status: components['schemas']['PetStatus'];
    };
    /**
     * @description Availability of an animal. A status is set only when the animal is added; no operation changes it afterwards.
     * @enum {string}
     */
    PetStatus: 'available' | 'pending' | 'sold';
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  listPets: {
    parameters: {
      query?: {
        /** @description Maximum number of animals in the page. On the wire it is an integer in canonical decimal form, as a URI template writes one: no leading zeros, no `+`, exponent, decimal point or spaces (`01`, `+5`, `1e1` answer 400). */
        limit?: number;
        /** @description Only animals with this status, oldest first. Without it, every animal in an unspecified but stable order. */
        status?: components['schemas']['PetStatus'];
        /** @description Where the page starts: an opaque token taken from the `Link` header of the previous page (never built by hand). It holds the position after the last animal of that page and the `status` filter it was issued for; it does not expire. A cursor that is not well-formed, or used with another `status` filter, answers 400. It is not signed: a cursor edited into another well-formed position lists from that position, which shows nothing the listing would not show anyway. */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK: at most `limit` animals. */
      200: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          /** @description Present when more animals follow: the URL of the next page (RFC 8288, `rel="next"`), with the same `limit` and `status` and an opaque `cursor`. A page without it is the last one; there is never an empty trailing page. */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Pet'][];
        };
      };
      /** @description Bad Request. `invalid_request`: A field, query or path parameter or header is missing, unknown or invalid; the message names it. */
      400: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unauthorized. `unauthorized`: The key is missing, unknown or revoked, or the header is not `Bearer <key>`. */
      401: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          /** @description RFC 9110: the scheme to authenticate with. */
          'WWW-Authenticate': 'Bearer realm="petstore"';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too Many Requests. `{"message":"Too Many Requests"}`: API Gateway throttles the route (the stage's rate and burst limits apply to each route). It sends no `Retry-After`: retry after a short pause that grows with each 429 (e.g. 100 ms, doubling, with jitter, up to a few seconds). API Gateway sends this body without a Content-Type (listed under application/json only because OpenAPI needs a media type). */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GatewayError'];
        };
      };
      /** @description Internal Server Error. `internal_error`: A bug on our side; the body never contains internals. `{"message":"Internal Server Error"}`: API Gateway answers this when a function (or the authorizer) crashes, times out or is throttled by Lambda. API Gateway sends this body without a Content-Type (listed under application/json only because OpenAPI needs a media type). */
      500: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control'?: 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] | components['schemas']['GatewayError'];
        };
      };
      /** @description Service Unavailable. `service_unavailable`: The database is throttling or unreachable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          /** @description Seconds to wait before retrying. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  createPet: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: within 24 hours, a request from the same account with the same key and body gets the first answer (with `Idempotent-Replayed: true`) and stores nothing new — also while the first request is still running, or after it failed part-way; the same key with another body answers 422. Keys are per account and per operation. Generate a new unique value (e.g. a random UUID) for every new request and reuse it only to retry that request: no example is given here on purpose, since a tool that sent an example value would get an old answer replayed. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description JSON, at most 256 KiB, with `Content-Type: application/json`. */
    requestBody: {
      content: {
        'application/json': components['schemas']['NewPet'];
      };
    };
    responses: {
      /** @description Created: the stored animal. */
      201: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          /** @description Absolute URL of the new animal, on the host the client called. */
          Location: string;
          /** @description Present when this is the stored answer to an earlier request with the same `Idempotency-Key` (nothing new was stored). */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Pet'];
        };
      };
      /** @description Bad Request. `invalid_request`: A field, query or path parameter or header is missing, unknown or invalid; the message names it. `invalid_json`: The body is empty, not valid JSON (a member name repeated in one object included: I-JSON, RFC 7493), or not valid UTF-8. `unsupported_media_type`: A body-carrying call whose `Content-Type` is not `application/json` (parameters are fine; `+json` types such as `application/problem+json` and any charset other than UTF-8 are refused), or is not a well-formed media type (RFC 9110). The spec asks for 400, not 415. */
      400: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unauthorized. `unauthorized`: The key is missing, unknown or revoked, or the header is not `Bearer <key>`. */
      401: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          /** @description RFC 9110: the scheme to authenticate with. */
          'WWW-Authenticate': 'Bearer realm="petstore"';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Content Too Large. `payload_too_large`: The body exceeds 256 KiB. `{"message":"Request Entity Too Large"}`: API Gateway refuses a body over its 10 MB limit, and Lambda an event over its 6 MB synchronous invocation limit (a binary body counts base64-encoded), before the function runs. API Gateway sends this body without a Content-Type (listed under application/json only because OpenAPI needs a media type). */
      413: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control'?: 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] | components['schemas']['GatewayError'];
        };
      };
      /** @description Unprocessable Content. `idempotency_key_reused`: The `Idempotency-Key` was already used (same account, same operation) with a different body. */
      422: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too Many Requests. `{"message":"Too Many Requests"}`: API Gateway throttles the route (the stage's rate and burst limits apply to each route). It sends no `Retry-After`: retry after a short pause that grows with each 429 (e.g. 100 ms, doubling, with jitter, up to a few seconds). API Gateway sends this body without a Content-Type (listed under application/json only because OpenAPI needs a media type). */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GatewayError'];
        };
      };
      /** @description Internal Server Error. `internal_error`: A bug on our side; the body never contains internals. `{"message":"Internal Server Error"}`: API Gateway answers this when a function (or the authorizer) crashes, times out or is throttled by Lambda. API Gateway sends this body without a Content-Type (listed under application/json only because OpenAPI needs a media type). */
      500: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control'?: 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] | components['schemas']['GatewayError'];
        };
      };
      /** @description Service Unavailable. `service_unavailable`: The database is throttling or unreachable; retry after `Retry-After` seconds. A create answered 503 may still have been stored (the database can fail after writing): retry it with the same `Idempotency-Key` to store it exactly once. Without a key, a retry may store it twice. */
      503: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          /** @description Seconds to wait before retrying. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getPet: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description Identifier of the animal: an integer from 1 to 9007199254740991, as assigned by the service. Outside that range 400; an id that names no animal 404. On the wire it is an integer in canonical decimal form, as a URI template writes one: no leading zeros, no `+`, exponent, decimal point or spaces (`01`, `+5`, `1e1` answer 400).
         * @example 244208697521988
         */
        petId: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK: the animal. */
      200: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          /** @description RFC 9745: this operation is deprecated (since 1 January 2026, as a structured-field date). */
          Deprecation: '@1767225600';
          /** @description RFC 8594: this operation is removed on 5 December 2030. */
          Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Pet'];
        };
      };
      /** @description Bad Request. `invalid_request`: A field, query or path parameter or header is missing, unknown or invalid; the message names it. */
      400: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          /** @description RFC 9745: this operation is deprecated (since 1 January 2026, as a structured-field date). */
          Deprecation: '@1767225600';
          /** @description RFC 8594: this operation is removed on 5 December 2030. */
          Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unauthorized. `unauthorized`: The key is missing, unknown or revoked, or the header is not `Bearer <key>`. */
      401: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          /** @description RFC 9110: the scheme to authenticate with. */
          'WWW-Authenticate': 'Bearer realm="petstore"';
          /** @description RFC 9745: this operation is deprecated (since 1 January 2026, as a structured-field date). */
          Deprecation: '@1767225600';
          /** @description RFC 8594: this operation is removed on 5 December 2030. */
          Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not Found. `not_found`: No animal has this id. */
      404: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          /** @description RFC 9745: this operation is deprecated (since 1 January 2026, as a structured-field date). */
          Deprecation: '@1767225600';
          /** @description RFC 8594: this operation is removed on 5 December 2030. */
          Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too Many Requests. `{"message":"Too Many Requests"}`: API Gateway throttles the route (the stage's rate and burst limits apply to each route). It sends no `Retry-After`: retry after a short pause that grows with each 429 (e.g. 100 ms, doubling, with jitter, up to a few seconds). API Gateway sends this body without a Content-Type (listed under application/json only because OpenAPI needs a media type). */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GatewayError'];
        };
      };
      /** @description Internal Server Error. `internal_error`: A bug on our side; the body never contains internals. `{"message":"Internal Server Error"}`: API Gateway answers this when a function (or the authorizer) crashes, times out or is throttled by Lambda. API Gateway sends this body without a Content-Type (listed under application/json only because OpenAPI needs a media type). */
      500: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control'?: 'no-store';
          /** @description RFC 9745: this operation is deprecated (since 1 January 2026, as a structured-field date). */
          Deprecation?: '@1767225600';
          /** @description RFC 8594: this operation is removed on 5 December 2030. */
          Sunset?: 'Thu, 05 Dec 2030 00:00:00 GMT';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] | components['schemas']['GatewayError'];
        };
      };
      /** @description Service Unavailable. `service_unavailable`: The database is throttling or unreachable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          /** @description Seconds to wait before retrying. */
          'Retry-After': number;
          /** @description RFC 9745: this operation is deprecated (since 1 January 2026, as a structured-field date). */
          Deprecation: '@1767225600';
          /** @description RFC 8594: this operation is removed on 5 December 2030. */
          Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
}
