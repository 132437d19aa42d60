/**
 * Generated from docs/openapi/messages.json by openapi-typescript (`npm run openapi`): do not edit.
 * `npm run openapi -- --check` fails when this file differs from what the document gives.
 */

export interface paths {
  '/messages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Submit a message
     * @description The getting-started example, on its own base address (no `/v1`). The message is stored with status `queued` and answered at once with 202 Accepted; nothing in this version processes the queue. `Idempotency-Key` works as for adding an animal.
     */
    post: operations['submitMessage'];
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
     * @description A submitted message.
     * @example {
     *       "id": "01KAQ5X4R3M0V6W8Y9Z1B2C3D4",
     *       "message": "Hello from the getting-started guide",
     *       "status": "queued",
     *       "createdAt": "2026-11-22T01:27:44.123Z"
     *     }
     */
    Message: {
      /**
       * @description A ULID: 26 characters, sortable by creation time.
       * @example 01KAQ5X4R3M0V6W8Y9Z1B2C3D4
       */
      id: string;
      /** @description The submitted text, unchanged. */
      message: string;
      status: components['schemas']['MessageStatus'];
      /**
       * Format: date-time
       * @description When the message was accepted: ISO 8601, UTC, with milliseconds.
       * @example 2026-11-22T01:27:44.123Z
       */
      createdAt: string;
    };
    /**
     * @description `queued`: accepted and stored durably. Nothing in this version consumes the queue, so the status never changes.
     * @enum {string}
     */
    MessageStatus: 'queued';
    /**
     * @description A message to submit. Fields other than `message` are refused.
     * @example {
     *       "message": "Hello from the getting-started guide"
     *     }
     */
    NewMessage: {
      /**
       * @description The text: 1 to 10,000 characters (Unicode code points), not blank, well-formed Unicode, no control characters except tab and line breaks.
       * @example Hello from the getting-started guide
       */
      message: string;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  submitMessage: {
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
        'application/json': components['schemas']['NewMessage'];
      };
    };
    responses: {
      /** @description Accepted: the message is queued. */
      202: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          /** @description Present when this is the stored answer to an earlier request with the same `Idempotency-Key` (nothing new was stored). */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Message'];
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
}
