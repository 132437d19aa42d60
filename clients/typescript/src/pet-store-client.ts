/** The client of the pets and messages APIs, called with an API key; requests typed by the documents through openapi-fetch. */
import createClient, { type Client } from 'openapi-fetch';
import { baseUrl } from './base-url.ts';
import { checkBearerCredential, resolveTransport, type CallOptions, type Transport, type TransportOptions } from './client-options.ts';
import { warnDeprecatedOnce } from './deprecation.ts';
import type { paths as MessagesPaths } from './generated/messages.ts';
import type { paths as PetsPaths } from './generated/pets.ts';
import { idempotencyKeyFor } from './idempotency-key.ts';
import { nextCursor } from './link-header.ts';
import type { OperationId } from './operations.ts';
import type { Message, NewPet, Pet, PetStatus } from './schemas.ts';
import { send, type Outcome, type Success } from './send.ts';

export interface PetStoreClientOptions extends TransportOptions {
  /** The pets API's base URL, ending with `/v1`: the stack output `PetsBaseUrl` (locally `http://127.0.0.1:3000/v1`). */
  readonly petsBaseUrl: string;
  /** The messages API's base URL, without `/v1`: the stack output `MessagesBaseUrl` (locally `http://127.0.0.1:3000`). */
  readonly messagesBaseUrl: string;
  /** An API key (`pst_…`) from the developer portal; the same key works on both APIs. */
  readonly apiKey: string;
}

/** A stack's CloudFormation outputs: as an object (`npm run outputs -- --json`) or as `DescribeStacks` lists them. */
export type StackOutputs =
  | Readonly<Record<string, string | undefined>>
  | readonly { readonly OutputKey?: string | undefined; readonly OutputValue?: string | undefined }[];

const isOutputList = (outputs: StackOutputs): outputs is Extract<StackOutputs, readonly unknown[]> => Array.isArray(outputs);

export interface CreateOptions extends CallOptions {
  /**
   * Sent as `Idempotency-Key` on every attempt (default: a new UUID per call). Within 24 hours the same key and
   * body store nothing new and answer as the first time: give your own to repeat a create across calls too.
   */
  readonly idempotencyKey?: string;
}

export interface ListPetsOptions extends CallOptions {
  /** Only animals with this status, oldest first; without it, every animal in an unspecified but stable order. */
  readonly status?: PetStatus;
  /** Animals per request, 1 to 100 (the service's default: 20). */
  readonly pageSize?: number;
}

export interface ListPetsPageOptions extends ListPetsOptions {
  /** Where the page starts: the `nextCursor` of the previous page, with the same `status`. */
  readonly cursor?: string;
}

export interface PetPage {
  readonly pets: Pet[];
  /** Pass it as `cursor` for the next page; undefined on the last page. */
  readonly nextCursor: string | undefined;
}

/**
 * Calls the pets and messages APIs with an API key. Every call is retried on network failures, timeouts, 429 and
 * 500, 502, 503 and 504, up to `retry.maxAttempts` requests; creates send the same `Idempotency-Key` on each
 * retry, so a retried create is stored once. Failures are thrown as `PetStoreError`s.
 */
export class PetStoreClient {
  readonly #pets: Client<PetsPaths>;
  readonly #messages: Client<MessagesPaths>;
  readonly #transport: Transport;
  readonly #petsBaseUrl: string;

  /** @throws TypeError when a base URL, the key or an option is not valid. */
  constructor(options: PetStoreClientOptions) {
    this.#transport = resolveTransport(options);
    const headers = { Authorization: `Bearer ${checkBearerCredential('apiKey', options.apiKey)}` };
    const fetch = this.#transport.fetch;
    this.#petsBaseUrl = baseUrl('petsBaseUrl', options.petsBaseUrl);
    this.#pets = createClient<PetsPaths>({ baseUrl: this.#petsBaseUrl, headers, fetch });
    this.#messages = createClient<MessagesPaths>({ baseUrl: baseUrl('messagesBaseUrl', options.messagesBaseUrl), headers, fetch });
  }

  /**
   * A client for a deployed stage, from its stack outputs `PetsBaseUrl` and `MessagesBaseUrl`.
   * @throws TypeError when an output is missing or not valid.
   */
  static fromStackOutputs(outputs: StackOutputs, apiKey: string, options: TransportOptions = {}): PetStoreClient {
    const values = isOutputList(outputs)
      ? Object.fromEntries(outputs.map(({ OutputKey, OutputValue }) => [OutputKey ?? '', OutputValue]))
      : outputs;
    const output = (name: string): string => {
      const value = values[name];
      if (value === undefined || value === '') throw new TypeError(`the stack outputs have no ${name}`);
      return value;
    };
    return new PetStoreClient({ ...options, petsBaseUrl: output('PetsBaseUrl'), messagesBaseUrl: output('MessagesBaseUrl'), apiKey });
  }

  /** Every animal (with `status`, only those), page after page; each page is one call, retried on its own. */
  async *listPets(options: ListPetsOptions = {}): AsyncGenerator<Pet, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.listPetsPage(cursor === undefined ? options : { ...options, cursor });
      yield* page.pets;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  }

  /** One page of animals and the cursor of the next (`GET /pets`); `invalid_request` for a bad `pageSize` or cursor. */
  async listPetsPage(options: ListPetsPageOptions = {}): Promise<PetPage> {
    const query = {
      ...(options.pageSize === undefined ? {} : { limit: options.pageSize }),
      ...(options.status === undefined ? {} : { status: options.status }),
      ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
    };
    const { data, response } = await this.#send('listPets', options, (signal) => this.#pets.GET('/pets', { params: { query }, signal }));
    return { pets: data, nextCursor: nextCursor(response.headers.get('link'), response.url || this.#petsBaseUrl) };
  }

  /** Adds an animal (`POST /pets`) and answers it with its id; `invalid_request` names the field at fault. */
  async createPet(pet: NewPet, options: CreateOptions = {}): Promise<Pet> {
    const key = idempotencyKeyFor(options.idempotencyKey);
    const { data } = await this.#send('createPet', { ...options, idempotencyKey: key }, (signal) =>
      this.#pets.POST('/pets', { body: pet, params: { header: { 'Idempotency-Key': key } }, signal }),
    );
    return data;
  }

  /**
   * One animal by its id (`GET /pets/{petId}`), or `not_found`. The first answer with a `Sunset` header makes the
   * process warn once (a `DeprecationWarning`).
   * @deprecated The service removes it on 5 December 2030 (its `Sunset` header); list with `listPets({ status })`.
   */
  async getPet(id: number, options: CallOptions = {}): Promise<Pet> {
    // Every answer, errors included, carries Sunset; warned about after the call, so a warning that throws
    // (`--throw-deprecation`) is never taken for a failed attempt.
    let sunset: string | null = null;
    try {
      const { data } = await this.#send('getPet', options, async (signal) => {
        const outcome = await this.#pets.GET('/pets/{petId}', { params: { path: { petId: id } }, signal });
        sunset ??= outcome.response.headers.get('sunset');
        return outcome;
      });
      return data;
    } finally {
      warnDeprecatedOnce('PetStoreClient.getPet()', sunset, 'List with listPets({ status }) instead.');
    }
  }

  /** Submits a message (`POST /messages` on the messages API), answered `queued` once stored. */
  async submitMessage(text: string, options: CreateOptions = {}): Promise<Message> {
    const key = idempotencyKeyFor(options.idempotencyKey);
    const { data } = await this.#send('submitMessage', { ...options, idempotencyKey: key }, (signal) =>
      this.#messages.POST('/messages', { body: { message: text }, params: { header: { 'Idempotency-Key': key } }, signal }),
    );
    return data;
  }

  /** Every call here is safe to repeat: reads, and creates with their `Idempotency-Key`. */
  #send<T>(operation: OperationId, options: CreateOptions, attempt: (signal: AbortSignal) => Promise<Outcome<T>>): Promise<Success<T>> {
    return send(operation, attempt, { ...this.#transport, ...options, rule: 'transient' });
  }
}
