/**
 * Stores are the one way a handler gets its data: a repository on the tables this function's
 * environment names (the stack or the local server sets it; shared/table-access.ts decides which tables a
 * function may use). One small module per store, so a function's bundle holds only its own.
 */
import { tableName } from '../table-name';
import { documentClient } from '../dynamodb-client';
import { DynamoPetRepository } from '../repositories/pet-repository';

/** Pets to read (getPet, listPets). */
export const petReader = (): DynamoPetRepository => new DynamoPetRepository(documentClient(), tableName('pets'));

/** Pets to create, once per `Idempotency-Key`. */
export const petWriter = (): DynamoPetRepository =>
  new DynamoPetRepository(documentClient(), tableName('pets'), { idempotencyTable: tableName('idempotency') });
