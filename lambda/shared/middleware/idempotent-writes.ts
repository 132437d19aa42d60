import { IdempotencyConfig } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { makeHandlerIdempotent } from '@aws-lambda-powertools/idempotency/middleware';
import { PowertoolsFunctions } from '@aws-lambda-powertools/jmespath/functions';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { createHash } from 'node:crypto';
import { tableName } from '../config';
import { dynamoDbClient } from '../dynamodb-client';
import { invalidRequest } from '../errors';
import type { ApiContext } from '../http-handler';
import type { HttpResponse } from '../http-response';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_WINDOW_SECONDS } from '../operation-spec';

const OWNS_RECORD = 'petstore.idempotency.ownsRecord';
const ENGAGED = 'petstore.idempotency.engaged';

/**
 * Powertools finds the body for its payload check with a JMESPath search, and every search builds an
 * interpreter that walks the functions' whole class chain again to list them (≈ 4 µs a search in a
 * tight loop; createPet with a key 10–25 µs faster in place, interleaved runs of bench/ part 2). The
 * list never changes: walk it once.
 * The walk calls this method on each prototype of the chain too; only the instance has `methods`.
 */
class IntrospectedOnce extends PowertoolsFunctions {
  override introspectMethods(scope?: Parameters<PowertoolsFunctions['introspectMethods']>[0]): Set<string> {
    const known = Object.hasOwn(this, 'methods') ? this.methods : undefined;
    return known && known.size > 0 ? known : super.introspectMethods(scope);
  }
}

/**
 * `Idempotency-Key` (optional): the same key and body from the same account within the window gets the
 * original answer and stores nothing new. Powertools is engaged only when the header is present (see
 * `before`); the record's key comes from RequestScopedKeys below, the body is checked by Powertools.
 */
const idempotencyConfig = (): IdempotencyConfig => new IdempotencyConfig({
  payloadValidationJmesPath: 'body',
  jmesPathOptions: new IntrospectedOnce(),
  expiresAfterSeconds: IDEMPOTENCY_WINDOW_SECONDS,
  responseHook: (response) => {
    const replay = response as unknown as HttpResponse;
    return { ...replay, headers: { ...replay.headers, 'idempotent-replayed': 'true' } } as unknown as typeof response;
  },
});

type HashedData = Parameters<DynamoDBPersistenceLayer['saveInProgress']>[0];

/**
 * Records are keyed by operation (Powertools' prefix), account and header value. The middleware
 * already holds the account and the header when it engages Powertools, so it hands this store the
 * key for the request's event instead of an `eventKeyJmesPath`: Powertools would evaluate that
 * expression over the whole event and hash the result when the request starts and again when its
 * answer is saved (~35 µs a request, bench/ part 2). Each operation gets its own store because
 * Powertools sets the prefix in `before` only: a shared store (the local server runs every operation
 * in one process) could save one operation's answer under another's prefix.
 */
class RequestScopedKeys extends DynamoDBPersistenceLayer {
  readonly #keys = new WeakMap<object, { readonly scoped: string; hashed?: string; payloadHash?: string }>();

  /** `event` is the object Powertools receives as its payload: request.event. */
  useKey(event: object, accountId: string, idempotencyKey: string): void {
    this.#keys.set(event, { scoped: JSON.stringify([accountId, idempotencyKey]) });
  }

  protected override getHashedIdempotencyKey(data: HashedData): string {
    const entry = this.#entry(data);
    // Never hash something else instead: a wrong key could answer one client with another's result.
    if (!entry) throw new Error('idempotency engaged without a key for this request');
    entry.hashed ??= `${this.idempotencyKeyPrefix}#${createHash('sha256').update(entry.scoped).digest('base64url')}`;
    return entry.hashed;
  }

  /** Powertools' payload hash of this request's event, computed once (see below). */
  payloadHashOnce(data: HashedData, hashPayload: PayloadHashing['getHashedPayload']): string {
    const entry = this.#entry(data);
    if (!entry) return hashPayload.call(this, data);
    entry.payloadHash ??= hashPayload.call(this, data);
    return entry.payloadHash;
  }

  #entry(data: HashedData) {
    return typeof data === 'object' && data !== null ? this.#keys.get(data) : undefined;
  }
}

/** The Powertools persistence-layer method that RequestScopedKeys computes once per request. */
interface PayloadHashing {
  getHashedPayload(this: RequestScopedKeys, data: HashedData): string;
}

/*
 * Powertools hashes the body for its payload check when the request starts and again when the answer
 * is saved (JMESPath search, deep key sort, md5: ~20 µs each in place, bench/ part 2). The body is the
 * same both times, so the second hash is the first, kept with the request's key. Powertools types the
 * method as private, hence this view of the prototype instead of an override; were it renamed in a
 * release (the version is pinned), this would only stop saving time.
 */
const payloadHashing = RequestScopedKeys.prototype as unknown as PayloadHashing;
const hashPayload = payloadHashing.getHashedPayload;
payloadHashing.getHashedPayload = function (data) {
  return this.payloadHashOnce(data, hashPayload);
};

/**
 * Powertools' idempotency middleware, with guards of our own: the header is checked first (and names
 * the record, see RequestScopedKeys), and its onError runs only when this request holds the
 * in-progress record — otherwise a duplicate refused as "in progress" would delete the record of
 * the request that is actually running.
 */
export const idempotentWrites = (operationId: string): MiddlewareObj<APIGatewayProxyEventV2, HttpResponse, Error, ApiContext, Record<string, unknown>> => {
  // Built on the first request with a key: requests without one never need it (saves ~0.5 ms of start).
  let engaged: { readonly store: RequestScopedKeys; readonly middleware: ReturnType<typeof makeHandlerIdempotent> } | undefined;
  const powertools = () => {
    if (!engaged) {
      const store = new RequestScopedKeys({ tableName: tableName('idempotency'), awsSdkV3Client: dynamoDbClient() });
      // Keys are per operation: Powertools would otherwise prefix them with the Lambda function name,
      // which changes with every deployment and is the same for all operations in the local server.
      engaged = { store, middleware: makeHandlerIdempotent({ persistenceStore: store, config: idempotencyConfig(), keyPrefix: operationId }) };
    }
    return engaged;
  };
  return {
    before: async (request) => {
      const key = request.event.headers['idempotency-key'];
      // No header, no idempotency: Powertools is not engaged at all (nothing to hash or store).
      request.internal[ENGAGED] = key !== undefined;
      if (key === undefined) return undefined;
      if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
        throw invalidRequest("header 'Idempotency-Key' must be 1 to 255 visible ASCII characters");
      }
      const { caller } = request.context;
      if (!caller) throw new Error('idempotentWrites runs after requireCaller');
      const { store, middleware } = powertools();
      store.useKey(request.event, caller.accountId, key);
      const replay: unknown = await middleware.before?.(request as never);
      request.internal[OWNS_RECORD] = replay === undefined;
      return replay as HttpResponse | undefined;
    },
    after: async (request) => {
      if (request.internal[ENGAGED] === true) await powertools().middleware.after?.(request as never);
    },
    onError: async (request) => {
      if (request.internal[OWNS_RECORD] === true) await powertools().middleware.onError?.(request as never);
    },
  };
};

/** What http-handler.ts takes from the creating operations (DESIGN: read handlers never load this module). */
export type IdempotentWrites = typeof idempotentWrites;
