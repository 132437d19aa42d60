import { AUTHORIZER_ENTRY, NOT_FOUND_ENTRY, ROUTES } from './routes';
import { tablesUsedBy, type FunctionName } from './table-access';
import { TABLES } from './tables';

export interface DeployedFunction {
  readonly name: FunctionName;
  /** Handler module relative to the project root. */
  readonly entry: string;
}

/** Every function the CDK stack deploys (lib/petstore-stack.ts), read from the same route table. */
export const DEPLOYED_FUNCTIONS: readonly DeployedFunction[] = [
  { name: 'authorizer', entry: AUTHORIZER_ENTRY },
  ...ROUTES.map((route) => ({ name: route.operationId, entry: route.entry })),
  { name: 'notFound', entry: NOT_FOUND_ENTRY },
];

/** The table-name variables the stack gives this function (lib/petstore-function.ts). */
export const tableEnvironmentOf = (name: FunctionName, physicalName: (baseName: string) => string): Record<string, string> =>
  Object.fromEntries(tablesUsedBy(name).map((key) => [TABLES[key].envVar, physicalName(TABLES[key].baseName)]));
