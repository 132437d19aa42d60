import { TABLES, type TableKey } from '#shared/tables';

/** Physical table name from the environment the stack (or the local server) sets. */
export function tableName(key: TableKey): string {
  const { envVar } = TABLES[key];
  const name = process.env[envVar];
  if (!name) throw new Error(`${envVar} is not set`);
  return name;
}
