import { GetCommand, QueryCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PETS_STATUS_INDEX } from '../../../lib/tables';
import type { IdempotencyClaim } from '../idempotency';
import type { PageCursor } from '../page-cursor';
import { newPetId } from '../pet-ids';
import type { NewPet } from '../schemas/pet';
import type { Pet } from '../schemas/pet-response';
import { DEFAULT_PET_STATUS, type PetStatus } from '../schemas/pet-status';
import { putIfAbsent, withWriteToken, type Tokened } from './put-if-absent';
import { writeOnce, type WriteOnceTarget, type Written } from './write-once';

export interface PetPage {
  readonly pets: Pet[];
  /** Where the next page starts; absent on the last page. */
  readonly next?: PageCursor;
}

export interface ListPetsOptions {
  readonly limit: number;
  readonly status?: PetStatus;
  readonly after?: PageCursor;
}

export interface PetRepository {
  create(pet: NewPet): Promise<Pet>;
  /**
   * Creates the pet once per claim (`Idempotency-Key`): a repeat answers what `answerFor` answered
   * the first time, whatever became of the first request. Without a claim, a plain create.
   */
  createOnce<A>(pet: NewPet, answerFor: (pet: Pet) => A, claim: IdempotencyClaim | undefined): Promise<Written<A>>;
  get(id: number): Promise<Pet | undefined>;
  list(options: ListPetsOptions): Promise<PetPage>;
}

/** A fresh id collides only when two creates draw the same 12 random bits in the same millisecond. */
const MAX_CREATE_ATTEMPTS = 5;

// `name` and `status` are DynamoDB reserved words; project only what a Pet carries.
const PET_PROJECTION = {
  ProjectionExpression: '#id, #name, #categoryId, #status',
  ExpressionAttributeNames: { '#id': 'id', '#name': 'name', '#categoryId': 'categoryId', '#status': 'status' },
};

type PetItem = Tokened<Pet & { createdAt: string }>;

const toPet = (item: Record<string, unknown>): Pet => {
  const { id, name, categoryId, status } = item as Pet;
  return { id, name, categoryId, status };
};

export interface PetRepositoryOptions {
  /** Draws a new pet id (tests fix it). */
  readonly nextId?: () => number;
  /** The `Idempotency-Key` records (lib/tables.ts `idempotency`): createOnce with a claim needs them. */
  readonly idempotencyTable?: string;
  /** The clock for `createdAt` (tests fix it). */
  readonly now?: () => Date;
}

export class DynamoPetRepository implements PetRepository {
  readonly #nextId: () => number;
  readonly #now: () => Date;
  readonly #once: WriteOnceTarget | undefined;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    { nextId = newPetId, idempotencyTable, now = () => new Date() }: PetRepositoryOptions = {},
  ) {
    this.#nextId = nextId;
    this.#now = now;
    this.#once = idempotencyTable ? { db, tableName, keyName: 'id', recordsTable: idempotencyTable } : undefined;
  }

  #newItem(newPet: NewPet): PetItem {
    return withWriteToken({
      id: this.#nextId(),
      name: newPet.name,
      categoryId: newPet.categoryId,
      status: newPet.status ?? DEFAULT_PET_STATUS,
      createdAt: this.#now().toISOString(),
    });
  }

  async create(newPet: NewPet): Promise<Pet> {
    for (let attempt = 1; attempt <= MAX_CREATE_ATTEMPTS; attempt++) {
      const item = this.#newItem(newPet);
      if ((await putIfAbsent(this.db, this.tableName, 'id', item)) === 'stored') return toPet(item);
    }
    throw new Error(`no free pet id after ${MAX_CREATE_ATTEMPTS} attempts`);
  }

  async createOnce<A>(newPet: NewPet, answerFor: (pet: Pet) => A, claim: IdempotencyClaim | undefined): Promise<Written<A>> {
    if (!claim) return { answer: answerFor(await this.create(newPet)), replayed: false };
    if (!this.#once) throw new Error('DynamoPetRepository was built without its idempotency table');
    return writeOnce(this.#once, claim, () => {
      const item = this.#newItem(newPet);
      return { item, answer: answerFor(toPet(item)) };
    });
  }

  async get(id: number): Promise<Pet | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { id }, ...PET_PROJECTION }));
    return Item ? toPet(Item) : undefined;
  }

  /**
   * Reads one item more than the page so the last page is known as such (no trailing empty page).
   * The status filter is a Query on the status index (ordered by id, i.e. by creation time); the
   * unfiltered listing is a Scan in DynamoDB's own order. Both stop after the page: the cost grows
   * with `limit`, never with the table.
   */
  async list({ limit, status, after }: ListPetsOptions): Promise<PetPage> {
    const wanted = limit + 1;
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined = after
      ? status
        ? { id: after.lastId, status }
        : { id: after.lastId }
      : undefined;
    do {
      const common = { TableName: this.tableName, Limit: wanted - items.length, ExclusiveStartKey: startKey };
      const output = status
        ? await this.db.send(
            new QueryCommand({
              ...common,
              ...PET_PROJECTION,
              IndexName: PETS_STATUS_INDEX,
              KeyConditionExpression: '#status = :status',
              ExpressionAttributeValues: { ':status': status },
            }),
          )
        : await this.db.send(new ScanCommand({ ...common, ...PET_PROJECTION }));
      items.push(...(output.Items ?? []));
      startKey = output.LastEvaluatedKey;
    } while (startKey && items.length < wanted);

    const pets = items.slice(0, limit).map(toPet);
    const last = pets.at(-1);
    return items.length > limit && last ? { pets, next: { lastId: last.id, ...(status ? { status } : {}) } } : { pets };
  }
}
