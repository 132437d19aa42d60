import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { PetStoreAlarms } from './petstore-alarms';
import { PetStoreFunction, type PetStoreFunctionDefaults } from './petstore-function';
import { PetStoreHttpApi } from './petstore-http-api';
import { PetStoreTables } from './petstore-tables';
import { AUTHORIZER_ENTRY, NOT_FOUND_ENTRY, PETS_BASE_PATH, ROUTES, type ApiName } from './routes';
import type { StageConfig } from './stage-config';
import type { FunctionName } from './table-access';

export interface PetStoreStackProps extends StackProps {
  readonly config: StageConfig;
  /** Directory with package-lock.json; handler entries of lib/routes.ts are relative to it. */
  readonly projectRoot: string;
}

const constructId = (name: string): string => `${name.charAt(0).toUpperCase()}${name.slice(1)}`;

/**
 * The whole service for one stage: tables, one function per route plus the authorizer and the
 * not-found function, the pets and messages HTTP APIs, alarms, and the outputs the keys CLI reads.
 */
export class PetStoreStack extends Stack {
  constructor(scope: Construct, id: string, props: PetStoreStackProps) {
    super(scope, id, props);
    const { config, projectRoot } = props;

    const { tables } = new PetStoreTables(this, 'Tables', { config });

    const shared: PetStoreFunctionDefaults = { projectRoot, config, tables };
    // The description starts with the function's name: what a reader of the console (and the tests) keys on.
    const fn = (name: FunctionName, entry: string, summary: string) =>
      new PetStoreFunction(this, constructId(name), { ...shared, name, entry, description: `${name}: ${summary}` }).function;

    const authorizer = fn('authorizer', AUTHORIZER_ENTRY, 'resolves the caller from the Bearer API key');
    const notFound = fn('notFound', NOT_FOUND_ENTRY, 'answers 404 for unknown routes');

    const api = (name: ApiName, description: string) =>
      new PetStoreHttpApi(this, `${constructId(name)}Api`, { apiName: `${id}-${name}`, description, config, authorizer, notFound });
    const apis: Record<ApiName, PetStoreHttpApi> = {
      pets: api('pets', 'Pet store API (v1)'),
      messages: api('messages', 'Message submission (getting-started example)'),
    };

    for (const route of ROUTES) {
      apis[route.api].addRoute(route, fn(route.operationId, route.entry, `${route.method} ${route.path}`));
    }

    new PetStoreAlarms(this, 'Alarms', { config, apis, authorizer, tables });

    // Output ids are an interface: scripts/keys.ts reads ApiKeysTableName from the deployed stack.
    new CfnOutput(this, 'PetsBaseUrl', { value: `${apis.pets.endpoint}${PETS_BASE_PATH}`, description: 'Pets API base URL (spec {base_url})' });
    new CfnOutput(this, 'MessagesBaseUrl', { value: apis.messages.endpoint, description: 'Messages API base URL (POST /messages)' });
    new CfnOutput(this, 'PetsTableName', { value: tables.pets.tableName });
    new CfnOutput(this, 'MessagesTableName', { value: tables.messages.tableName });
    new CfnOutput(this, 'ApiKeysTableName', { value: tables.apiKeys.tableName, description: 'Read by `npm run keys -- --stage`' });
  }
}
