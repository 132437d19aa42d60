/**
 * Generated from docs/openapi/account.json by openapi-typescript (`npm run openapi`): do not edit.
 * `npm run openapi -- --check` fails when this file differs from what the document gives.
 */

export interface paths {
  '/account/keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the account's keys
     * @description The active keys of the signed-in account and those it revoked recently, newest first, with the account's limits. Keys issued by an operator for the account (`npm run keys -- create --email …`) are listed too. A key created a moment ago may take a second to appear (the listing reads an index).
     */
    get: operations['listAccountKeys'];
    put?: never;
    /**
     * Create a key
     * @description Creates an API key for the pets and messages APIs and answers it **this once**: only its hash is stored. An account holds at most 10 active keys (beyond that, 409 until one is revoked) and creates at most 20 a UTC day (beyond that, 429 until the next day). `Idempotency-Key` is not honoured: a request repeated after a 503 may create a second key. A key whose creation answered 503 may still have been stored without being shown; it is then listed as active by `GET /account/keys`: revoke it.
     */
    post: operations['createAccountKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/account/keys/{keyId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke a key
     * @description Revokes one of the account's keys: the pets and messages APIs refuse it within 60 seconds (their authorizer caches key lookups that long). Revoking a revoked key answers the same again, with the time of the first revocation. An id that is not one of this account's keys answers 404, whether it exists elsewhere or not.
     */
    delete: operations['revokeAccountKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/account': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete the account
     * @description Revokes every key of the account (refused within 60 seconds), then deletes the user: signing in no longer works and the access token stops being accepted when it expires. Safe to repeat if it failed part-way.
     */
    delete: operations['deleteAccount'];
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
     * @description One API key of the account. The key itself is never shown again after it was created.
     * @example {
     *       "keyId": "key_3f2a9c1d7e5b4a60",
     *       "description": "CI pipeline",
     *       "status": "active",
     *       "createdAt": "2026-11-22T01:27:44.123Z"
     *     }
     */
    AccountKey: {
      /**
       * @description Identifies the key (not secret): revoke it with this id.
       * @example key_3f2a9c1d7e5b4a60
       */
      keyId: string;
      /** @description What the key is for; keys issued by an operator may have none. */
      description?: string;
      /**
       * @description `revoked` keys are refused by the pets and messages APIs.
       * @enum {string}
       */
      status: 'active' | 'revoked';
      /**
       * Format: date-time
       * @description When the key was created. ISO 8601, UTC, with milliseconds.
       * @example 2026-11-22T01:27:44.123Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description About when the key was last accepted: recorded at most once an hour, so it may lag the latest call by up to an hour. Absent when never used. ISO 8601, UTC, with milliseconds.
       * @example 2026-11-22T01:27:44.123Z
       */
      lastUsedAt?: string;
      /**
       * Format: date-time
       * @description When the key was revoked. ISO 8601, UTC, with milliseconds.
       * @example 2026-11-22T01:27:44.123Z
       */
      revokedAt?: string;
    };
    /** @description The signed-in account's keys and its limits. */
    AccountKeyList: {
      /** @description The account's active keys and the keys it revoked in the last 30 days, newest first. */
      keys: components['schemas']['AccountKey'][];
      /**
       * @description How many active keys the account may hold at once.
       * @example 10
       */
      maxActiveKeys: number;
      /**
       * @description A revoked key is refused everywhere within this many seconds (the authorizer caches key lookups).
       * @example 60
       */
      revocationDelaySeconds: number;
    };
    /** @description The new key, shown once, and its record. */
    CreatedAccountKey: {
      /**
       * @description Identifies the key (not secret): revoke it with this id.
       * @example key_3f2a9c1d7e5b4a60
       */
      keyId: string;
      /** @description What the key is for; keys issued by an operator may have none. */
      description?: string;
      /**
       * @description `revoked` keys are refused by the pets and messages APIs.
       * @enum {string}
       */
      status: 'active' | 'revoked';
      /**
       * Format: date-time
       * @description When the key was created. ISO 8601, UTC, with milliseconds.
       * @example 2026-11-22T01:27:44.123Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description About when the key was last accepted: recorded at most once an hour, so it may lag the latest call by up to an hour. Absent when never used. ISO 8601, UTC, with milliseconds.
       * @example 2026-11-22T01:27:44.123Z
       */
      lastUsedAt?: string;
      /**
       * Format: date-time
       * @description When the key was revoked. ISO 8601, UTC, with milliseconds.
       * @example 2026-11-22T01:27:44.123Z
       */
      revokedAt?: string;
      /**
       * @description The API key: send it as `Authorization: Bearer <key>`. Shown only in this answer, never again: store it now.
       * @example pst_q3Jb0v7mC2eX9wT4yN1aK6sD8fH5gL0zR2uP7iO4xE1
       */
      key: string;
    };
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
     * @description A key to create for the signed-in account.
     * @example {
     *       "description": "CI pipeline"
     *     }
     */
    NewAccountKey: {
      /**
       * @description What the key is for, so you can tell your keys apart: 1 to 100 characters (Unicode code points), not blank, well-formed Unicode, no control characters.
       * @example CI pipeline
       */
      description: string;
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
  listAccountKeys: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK: the keys (never the keys themselves, which are shown only when created). */
      200: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AccountKeyList'];
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
      /** @description Unauthorized. `{"message":"Unauthorized"}`: API Gateway refused the token itself (missing, malformed, expired, not signed by this stage's user pool, or issued to another app client); its `WWW-Authenticate` says why. `unauthorized`: the token passed the gateway but is not an access token of this app (e.g. an ID token). Sign in again. */
      401: {
        headers: {
          /** @description On the service's own answers only. */
          'Cache-Control'?: 'no-store';
          /** @description RFC 6750: `Bearer` and, from the gateway, `error="invalid_token"` with a description. */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] | components['schemas']['GatewayError'];
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
  createAccountKey: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description JSON, at most 256 KiB, with `Content-Type: application/json`. */
    requestBody: {
      content: {
        'application/json': components['schemas']['NewAccountKey'];
      };
    };
    responses: {
      /** @description Created: the key, shown only here, and its record. */
      201: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CreatedAccountKey'];
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
      /** @description Unauthorized. `{"message":"Unauthorized"}`: API Gateway refused the token itself (missing, malformed, expired, not signed by this stage's user pool, or issued to another app client); its `WWW-Authenticate` says why. `unauthorized`: the token passed the gateway but is not an access token of this app (e.g. an ID token). Sign in again. */
      401: {
        headers: {
          /** @description On the service's own answers only. */
          'Cache-Control'?: 'no-store';
          /** @description RFC 6750: `Bearer` and, from the gateway, `error="invalid_token"` with a description. */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] | components['schemas']['GatewayError'];
        };
      };
      /** @description Conflict. `key_limit_reached`: The account already has as many active keys as it may (`maxActiveKeys` of `GET /account/keys`); revoke one first. */
      409: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
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
      /** @description Too Many Requests. `daily_key_limit_reached`: The account already created as many keys today (UTC) as it may; `Retry-After` says when the next day starts. `{"message":"Too Many Requests"}`: API Gateway throttles the route (the stage's rate and burst limits apply to each route). It sends no `Retry-After`: retry after a short pause that grows with each 429 (e.g. 100 ms, doubling, with jitter, up to a few seconds). API Gateway sends this body without a Content-Type (listed under application/json only because OpenAPI needs a media type). */
      429: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control'?: 'no-store';
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] | components['schemas']['GatewayError'];
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
  revokeAccountKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The key to revoke, as listed by `GET /account/keys`.
         * @example key_3f2a9c1d7e5b4a60
         */
        keyId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK: the revoked key. */
      200: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AccountKey'];
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
      /** @description Unauthorized. `{"message":"Unauthorized"}`: API Gateway refused the token itself (missing, malformed, expired, not signed by this stage's user pool, or issued to another app client); its `WWW-Authenticate` says why. `unauthorized`: the token passed the gateway but is not an access token of this app (e.g. an ID token). Sign in again. */
      401: {
        headers: {
          /** @description On the service's own answers only. */
          'Cache-Control'?: 'no-store';
          /** @description RFC 6750: `Bearer` and, from the gateway, `error="invalid_token"` with a description. */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] | components['schemas']['GatewayError'];
        };
      };
      /** @description Not Found. `not_found`: None of the signed-in account's keys has this `keyId`, whether another account's key has it or none does. */
      404: {
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
  deleteAccount: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No Content: the account is gone. */
      204: {
        headers: {
          /** @description Every answer is private to the caller, so no cache may keep it. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content?: never;
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
      /** @description Unauthorized. `{"message":"Unauthorized"}`: API Gateway refused the token itself (missing, malformed, expired, not signed by this stage's user pool, or issued to another app client); its `WWW-Authenticate` says why. `unauthorized`: the token passed the gateway but is not an access token of this app (e.g. an ID token). Sign in again. */
      401: {
        headers: {
          /** @description On the service's own answers only. */
          'Cache-Control'?: 'no-store';
          /** @description RFC 6750: `Bearer` and, from the gateway, `error="invalid_token"` with a description. */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] | components['schemas']['GatewayError'];
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
}
