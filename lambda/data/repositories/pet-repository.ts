import { GetCommand, QueryCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PETS_STATUS_INDEX, PETS_STATUS_SHARD_ATTRIBUTE } from '#shared/tables';
import { newPetId } from '../pet-ids';
import { statusShards, type StatusShards } from '../status-shards';
import type { NewPet } from '#contract/schemas/pet';
import type { Pet } from '#contract/schemas/pet-response';
import { DEFAULT_PET_STATUS, type PetStatus } from '#contract/schemas/pet-status';
import { withWriteToken } from './conditional-put';
import { readPages } from './read-pages';
import { creator, type CreateOptions, type IdempotencyClaim, type Written } from './write-once';

/** The position after the last pet of a page (http/page-cursor.ts gives it its wire form). */
export interface PageCursor {
  readonly lastId: number;
  readonly status?: PetStatus;
}

/** A page of pets, and where the next one starts (absent on the last page). */
interface PetPage {
  readonly pets: Pet[];
  readonly next?: PageCursor;
}

/** A fresh id collides only when two creates draw the same 12 random bits in the same millisecond. */
const MAX_CREATE_ATTEMPTS = 5;

/** Reads only what a Pet carries (`name` and `status` are DynamoDB reserved words, hence the names). */
const PET_ATTRIBUTES = ['id', 'name', 'categoryId', 'status'] as const satisfies readonly (keyof Pet)[];
export const PET_PROJECTION = {
  ProjectionExpression: PET_ATTRIBUTES.map((name) => `#${name}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(PET_ATTRIBUTES.map((name) => [`#${name}`, name])),
};

/** A stored pet without what stays in the table (createdAt, writeToken, the shard). */
const toPet = (item: Record<string, unknown>): Pet => {
  const { id, name, categoryId, status } = item as Pet;
  return { id, name, categoryId, status };
};

/** The store of pets, as the handlers see it: domain data in, domain data out. */
export class DynamoPetRepository {
  readonly #create: ReturnType<typeof creator<number>>;
  readonly #shards: StatusShards;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** `shards`: the stage's status index layout (one key per status when absent, as tests need). */
    { shards = statusShards([{ shards: 1 }]), ...options }: CreateOptions<number> & { readonly shards?: StatusShards } = {},
  ) {
    this.#shards = shards;
    this.#create = creator(db, tableName, newPetId, options, { maxAttempts: MAX_CREATE_ATTEMPTS, keyDescription: 'pet id' });
  }

  /** Stores a new pet with a fresh id; with a claim (`Idempotency-Key`), a repeat gets the first one's pet, replayed. */
  async create(newPet: NewPet, claim?: IdempotencyClaim): Promise<Written<Pet>> {
    const { name, categoryId, status = DEFAULT_PET_STATUS } = newPet;
    const { value, replayed } = await this.#create(
      (id, createdAt) =>
        withWriteToken({ id, name, categoryId, status, createdAt, [PETS_STATUS_SHARD_ATTRIBUTE]: this.#shards.keyOf(status, id) }),
      claim,
    );
    return { value: toPet(value), replayed };
  }

  async get(id: number): Promise<Pet | undefined> {
    // Strongly consistent (1 read unit per 4 KB instead of 0.5): a pet just created is found at once.
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { id }, ConsistentRead: true, ...PET_PROJECTION }),
    );
    return Item ? toPet(Item) : undefined;
  }

  /**
   * Reads one item more than the page, to know the last page. Unfiltered: a Scan. By status: each key of the status
   * index that can hold a pet after the cursor (status-shards.ts) queried in parallel for `limit + 1` pets after it,
   * merged by id: cost grows with `limit` and the stage's shard count, not the table.
   */
  async list({
    limit,
    status,
    after,
  }: {
    readonly limit: number;
    readonly status?: PetStatus;
    readonly after?: PageCursor;
  }): Promise<PetPage> {
    const wanted = limit + 1;
    const items = status ? await this.#fromShards(status, wanted, after?.lastId) : await this.#scan(wanted, after?.lastId);
    const pets = items.slice(0, limit).map(toPet);
    const last = pets.at(-1);
    return items.length > limit && last ? { pets, next: { lastId: last.id, ...(status ? { status } : {}) } } : { pets };
  }

  async #fromShards(status: PetStatus, wanted: number, afterId: number | undefined): Promise<Record<string, unknown>[]> {
    const pages = await Promise.all(
      this.#shards.keysAfter(status, afterId).map((shard) =>
        readPages(
          ({ startKey, limit }) =>
            this.db.send(
              new QueryCommand({
                TableName: this.tableName,
                IndexName: PETS_STATUS_INDEX,
                Limit: limit,
                ExclusiveStartKey: startKey,
                KeyConditionExpression: afterId === undefined ? '#key = :key' : '#key = :key AND #id > :after',
                ...PET_PROJECTION,
                ExpressionAttributeNames: { ...PET_PROJECTION.ExpressionAttributeNames, '#key': PETS_STATUS_SHARD_ATTRIBUTE },
                ExpressionAttributeValues: { ':key': shard, ...(afterId === undefined ? {} : { ':after': afterId }) },
              }),
            ),
          { wanted },
        ),
      ),
    );
    return pages
      .flat()
      .sort((a, b) => (a.id as number) - (b.id as number))
      .slice(0, wanted);
  }

  async #scan(wanted: number, afterId: number | undefined): Promise<Record<string, unknown>[]> {
    return readPages(
      ({ startKey, limit }) =>
        this.db.send(new ScanCommand({ TableName: this.tableName, Limit: limit, ExclusiveStartKey: startKey, ...PET_PROJECTION })),
      { wanted, ...(afterId === undefined ? {} : { startKey: { id: afterId } }) },
    );
  }
}
