/** Stores: a handler's repositories on the tables its environment names; one module each, so bundles hold their own. */
import { tableName } from '../table-name';
import { documentClient } from '../dynamodb-client';
import { DynamoPetRepository } from '../repositories/pet-repository';
import { statusShardsFromEnvironment } from '../status-shards';

/** Pets to read (getPet, listPets). */
export const petReader = (): DynamoPetRepository =>
  new DynamoPetRepository(documentClient(), tableName('pets'), { shards: statusShardsFromEnvironment() });

/** Pets to create, once per `Idempotency-Key`. */
export const petWriter = (): DynamoPetRepository =>
  new DynamoPetRepository(documentClient(), tableName('pets'), {
    idempotencyTable: tableName('idempotency'),
    shards: statusShardsFromEnvironment(),
  });
