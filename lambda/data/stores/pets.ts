/**
 * Stores are the one way a handler gets its data: a repository on the tables this function's
 * environment names (the stack or the local server sets it; shared/table-access.ts decides which tables a
 * function may use). One small module per store, so a function's bundle holds only its own.
 */
import { tableName } from '../table-name';
import { documentClient } from '../dynamodb-client';
import { DynamoPetRepository } from '../repositories/pet-repository';
import { PETS_LEGACY_STATUS_INDEX_ENV } from '#shared/tables';

/** Pets to read (getPet, listPets); from the unsharded status index while the stage upgrades (shared/tables.ts). */
export const petReader = (): DynamoPetRepository => {
  const legacyStatusIndex = process.env[PETS_LEGACY_STATUS_INDEX_ENV];
  return new DynamoPetRepository(documentClient(), tableName('pets'), legacyStatusIndex ? { legacyStatusIndex } : {});
};

/** Pets to create, once per `Idempotency-Key`. */
export const petWriter = (): DynamoPetRepository =>
  new DynamoPetRepository(documentClient(), tableName('pets'), { idempotencyTable: tableName('idempotency') });
