import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { constructIdOf } from './construct-ids';
import { DEPLOYED_FUNCTIONS, type DeployedFunction } from './deployed-functions';
import { FORWARDED_HOST_HEADER, FRONT_DOOR_SECRET_ENV, PUBLIC_HOST_HEADER_ENV } from './front-door';
import { PetStoreAlarms } from './petstore-alarms';
import { addEntrance } from './petstore-entrance';
import { frontDoorOriginSecret, type FrontDoorEdge } from './petstore-front-door';
import { PetStoreFunction, type PetStoreFunctionDefaults } from './petstore-function';
import { PetStoreHttpApi } from './petstore-http-api';
import { PetStoreTables } from './petstore-tables';
import { PETS_BASE_PATH, type ApiName } from './routes';
import type { StageConfig } from './stage-config';
import type { FunctionName } from './table-access';

export interface PetStoreStackProps extends StackProps {
  readonly config: StageConfig;
  /** Directory with package-lock.json; handler entries of lib/routes.ts are relative to it. */
  readonly projectRoot: string;
  /** The front door's us-east-1 resources when another stack holds them (lib/petstore-app.ts). */
  readonly frontDoorEdge?: FrontDoorEdge;
}

/**
 * The whole service for one stage: tables, every function of lib/deployed-functions.ts, the pets and
 * messages HTTP APIs with one route per route function, alarms, and the outputs the keys CLI reads.
 */
export class PetStoreStack extends Stack {
  constructor(scope: Construct, id: string, props: PetStoreStackProps) {
    super(scope, id, props);
    const { config, projectRoot } = props;

    const { tables } = new PetStoreTables(this, 'Tables', { config });

    const shared: PetStoreFunctionDefaults = { projectRoot, config, tables };
    // Behind a front door the authorizer gets the origin secret, and the route functions the header
    // that carries the host clients called (lib/front-door.ts).
    const originSecret = config.frontDoor ? frontDoorOriginSecret(this, config) : undefined;
    const frontDoorEnvironment = (fn: DeployedFunction): Record<string, string> =>
      !originSecret
        ? {}
        : fn.name === 'authorizer'
          ? { [FRONT_DOOR_SECRET_ENV]: originSecret.secretValue.unsafeUnwrap() }
          : fn.route
            ? { [PUBLIC_HOST_HEADER_ENV]: FORWARDED_HOST_HEADER }
            : {};
    const functions = new Map<FunctionName, IFunction>(
      DEPLOYED_FUNCTIONS.filter((fn) => !fn.onlyWithCors || config.corsOrigins).map((fn) => [
        fn.name,
        new PetStoreFunction(this, constructIdOf(fn.name), {
          ...shared,
          name: fn.name,
          entry: fn.entry,
          description: `${fn.name}: ${fn.summary}`,
          environment: frontDoorEnvironment(fn),
        }).function,
      ]),
    );
    const functionNamed = (name: FunctionName): IFunction => {
      const fn = functions.get(name);
      if (!fn) throw new Error(`lib/deployed-functions.ts has no function ${name}`);
      return fn;
    };
    const authorizer = functionNamed('authorizer');
    const notFound = functionNamed('notFound');

    const api = (name: ApiName, description: string) =>
      new PetStoreHttpApi(this, `${constructIdOf(name)}Api`, { apiName: `${id}-${name}`, description, config, authorizer, notFound });
    const apis: Record<ApiName, PetStoreHttpApi> = {
      pets: api('pets', 'Pet store API (v1)'),
      messages: api('messages', 'Message submission (getting-started example)'),
    };
    for (const { name, route } of DEPLOYED_FUNCTIONS) if (route) apis[route.api].addRoute(route, functionNamed(name));
    if (config.corsOrigins) for (const api of Object.values(apis)) api.addPreflightRoute(functionNamed('preflight'));

    new PetStoreAlarms(this, 'Alarms', { config, apis, authorizer, tables });

    const entrance = addEntrance(this, {
      config,
      apis,
      ...(originSecret ? { originSecret } : {}),
      ...(props.frontDoorEdge ? { frontDoorEdge: props.frontDoorEdge } : {}),
    });

    // Output ids are an interface: scripts/keys.ts reads ApiKeysTableName from the deployed stack.
    new CfnOutput(this, 'PetsBaseUrl', {
      value: `${entrance.origins.pets}${PETS_BASE_PATH}`,
      description: 'Pets API base URL (spec {base_url})',
    });
    new CfnOutput(this, 'MessagesBaseUrl', { value: entrance.origins.messages, description: 'Messages API base URL (POST /messages)' });
    if (entrance.dnsTargets && config.domains) {
      for (const name of ['pets', 'messages'] as const) {
        new CfnOutput(this, `${constructIdOf(name)}DnsTarget`, {
          value: entrance.dnsTargets[name],
          description: `Point ${config.domains.names[name]} here (CNAME, or a Route 53 alias)`,
        });
      }
    }
    new CfnOutput(this, 'PetsTableName', { value: tables.pets.tableName });
    new CfnOutput(this, 'MessagesTableName', { value: tables.messages.tableName });
    new CfnOutput(this, 'ApiKeysTableName', { value: tables.apiKeys.tableName, description: 'Read by `npm run keys -- --stage`' });
  }
}
