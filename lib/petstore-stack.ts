import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { CorsHttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpUserPoolAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { PASSWORD_POLICY } from '#shared/accounts';
import { constructIdOf } from './construct-ids';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { functionRecipe, type RunFacts } from '#shared/function-recipe';
import { PetStoreAlarms } from './petstore-alarms';
import { applyControlTower, controlTowerBasics } from './petstore-compliance';
import { PetStoreDashboard } from './petstore-dashboard';
import { PetStoreDeployments } from './petstore-deployments';
import { addEntrance } from './petstore-entrance';
import { frontDoorOriginSecret, type FrontDoorEdge } from './petstore-front-door';
import { PetStoreFunction, type PetStoreFunctionDefaults } from './petstore-function';
import { PetStoreHttpApi } from './petstore-http-api';
import { PetStoreIdentity, userPoolWebAclMetricName } from './petstore-identity';
import { PetStorePortal } from './petstore-portal';
import { PetStoreStageCheck } from './petstore-stage-check';
import { PetStoreTables } from './petstore-tables';
import { PETS_BASE_PATH, type ApiName, type PublicApiName } from '#shared/routes';
import type { StageConfig } from './stage-config';
import type { FunctionName } from '#shared/table-access';

export interface PetStoreStackProps extends StackProps {
  readonly config: StageConfig;
  /** Directory with package-lock.json; handler entries of shared/routes.ts are relative to it. */
  readonly projectRoot: string;
  /** The front door's us-east-1 resources when another stack holds them (lib/petstore-app.ts). */
  readonly frontDoorEdge?: FrontDoorEdge;
}

/** The whole service for one stage, and the outputs the CLIs read. */
export class PetStoreStack extends Stack {
  constructor(scope: Construct, id: string, props: PetStoreStackProps) {
    super(scope, id, props);
    const { config, projectRoot } = props;

    const { tables } = new PetStoreTables(this, 'Tables', { config });
    const identity = new PetStoreIdentity(this, 'Identity', { config });
    const controlTower = config.compliance === 'control-tower' ? controlTowerBasics(this, config) : undefined;
    const portal = new PetStorePortal(this, 'Portal', { projectRoot, ...(controlTower ? { controlTower } : {}) });

    const shared: PetStoreFunctionDefaults = { projectRoot, config, tables };
    const originSecret = config.frontDoor ? frontDoorOriginSecret(this, config) : undefined;
    const facts: RunFacts = {
      stage: config.stage,
      tableName: (key) => tables[key].tableName,
      logLevel: config.logLevel,
      statusShards: config.statusShards,
      identity: { userPoolId: identity.userPool.userPoolId, issuer: identity.issuer, audience: identity.client.userPoolClientId },
      ...(originSecret ? { frontDoorSecret: originSecret.secretValue.unsafeUnwrap() } : {}),
      ...(config.reservedConcurrency ? { reservedFor: config.throttling } : {}),
      tracing: config.tracing,
    };
    const functions = new Map<FunctionName, PetStoreFunction>(
      DEPLOYED_FUNCTIONS.map((fn) => [
        fn.name,
        new PetStoreFunction(this, constructIdOf(fn.name), {
          ...shared,
          entry: fn.entry,
          description: `${fn.name}: ${fn.summary}`,
          recipe: functionRecipe(fn, facts),
          userPoolArn: identity.userPool.userPoolArn,
        }),
      ]),
    );
    const invoked = (name: FunctionName): IFunction => functionOf(functions, name).invoked;
    const authorizer = invoked('authorizer');
    const notFound = invoked('notFound');

    // The portal calls every API from the browser, so CORS and the preflight routes are always on.
    const portalOrigins = [portal.origin];
    const publicApi = (name: PublicApiName, description: string) =>
      new PetStoreHttpApi(this, `${constructIdOf(name)}Api`, {
        api: name,
        apiName: `${id}-${name}`,
        description,
        config,
        authorizer,
        notFound,
        extraCorsOrigins: portalOrigins,
      });
    // The account API has no custom domain: keep its execute-api URL on.
    const { domains: _publicApisOnly, ...accountConfig } = config;
    const apis: Record<ApiName, PetStoreHttpApi> = {
      pets: publicApi('pets', 'Pet store API (v1)'),
      messages: publicApi('messages', 'Message submission (getting-started example)'),
      // API Gateway checks the signed-in user's access token before any function runs.
      account: new PetStoreHttpApi(this, 'AccountApi', {
        api: 'account',
        apiName: `${id}-account`,
        description: "Developer portal: a signed-in user's own API keys",
        config: { ...accountConfig, corsOrigins: [] },
        authorizer: {
          jwt: new HttpUserPoolAuthorizer('AccessTokenAuthorizer', identity.userPool, { userPoolClients: [identity.client] }),
        },
        notFound: invoked('accountNotFound'),
        extraCorsOrigins: portalOrigins,
        corsAllowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.DELETE, CorsHttpMethod.OPTIONS],
      }),
    };
    for (const { name, route } of DEPLOYED_FUNCTIONS) if (route) apis[route.api].addRoute(route, invoked(name));
    for (const api of Object.values(apis)) api.addPreflightRoute(invoked('preflight'));

    // The function, not its alias: the alarm then counts every version's failures.
    const alarms = new PetStoreAlarms(this, 'Alarms', { config, apis, authorizer: functionOf(functions, 'authorizer').function, tables });

    const entrance = addEntrance(this, {
      config,
      apis,
      ...(originSecret ? { originSecret } : {}),
      ...(props.frontDoorEdge ? { frontDoorEdge: props.frontDoorEdge } : {}),
      ...(controlTower ? { accessLogs: controlTower.accessLogs } : {}),
    });
    const petsBaseUrl = `${entrance.origins.pets}${PETS_BASE_PATH}`;

    const stageCheck = config.stageCheck
      ? new PetStoreStageCheck(this, 'StageCheck', {
          ...shared,
          check: config.stageCheck,
          facts,
          userPoolArn: identity.userPool.userPoolArn,
          baseUrls: { pets: petsBaseUrl, messages: entrance.origins.messages },
          alarms,
          ...(config.trafficShift ? { versions: new Map([...functions].map(([name, fn]) => [name, fn.function.currentVersion])) } : {}),
        })
      : undefined;

    if (config.trafficShift) {
      new PetStoreDeployments(this, 'Deployments', {
        config: config.trafficShift,
        ignoreAlarms: config.hotfix,
        ...(stageCheck?.preTraffic ? { preHook: stageCheck.preTraffic.function } : {}),
        functions: [...functions].map(([name, fn]) => {
          if (!fn.live) throw new Error(`${name} has no live alias on a stage that shifts traffic`);
          return {
            name,
            live: fn.live,
            rollbackAlarms: [
              ...servedApis(name).map((apiName) => alarms.serverErrorRate[apiName]),
              ...(name === 'authorizer' ? [alarms.authorizerErrors] : []),
              ...alarms.newVersion(name, fn.function, fn.function.currentVersion, fn.live.aliasName),
            ],
          };
        }),
      });
    }

    const dashboard = new PetStoreDashboard(this, 'Dashboard', {
      config,
      apis,
      statusCounts: alarms.statusCounts,
      functions: new Map([...functions].map(([name, fn]) => [name, { function: fn.function, logGroup: fn.logGroup }])),
      tables,
      alarms: alarms.alarms,
      verdicts: alarms.verdicts,
      ...(stageCheck ? { stageCheck: stageCheck.scheduled.function } : {}),
      identity: {
        userPoolId: identity.userPool.userPoolId,
        clientId: identity.client.userPoolClientId,
        webAclMetricName: userPoolWebAclMetricName(config.stage),
      },
    });

    if (controlTower) {
      const tableUsers = DEPLOYED_FUNCTIONS.filter((fn) => functionRecipe(fn, facts).tables.length > 0);
      applyControlTower(this, { key: controlTower.key, tableUsers: tableUsers.map((fn) => functionOf(functions, fn.name).role) });
    }

    portal.publish({
      stage: config.stage,
      local: false,
      region: this.region,
      cognitoEndpoint: identity.cognitoEndpoint,
      userPoolId: identity.userPool.userPoolId,
      clientId: identity.client.userPoolClientId,
      accountBaseUrl: entrance.origins.account,
      petsBaseUrl,
      messagesBaseUrl: entrance.origins.messages,
      passwordPolicy: PASSWORD_POLICY,
    });

    // Output ids are an interface: scripts/keys.ts, scripts/outputs.ts and npm run smoke read them.
    new CfnOutput(this, 'PetsBaseUrl', { value: petsBaseUrl, description: 'Pets API base URL (spec {base_url})' });
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
    new CfnOutput(this, 'AccountBaseUrl', { value: entrance.origins.account, description: 'Account API base URL (developer portal)' });
    new CfnOutput(this, 'PortalUrl', { value: `${portal.origin}/`, description: 'Developer portal: sign up and get an API key' });
    new CfnOutput(this, 'UserPoolId', { value: identity.userPool.userPoolId, description: 'Read by `npm run keys -- --stage … --email`' });
    new CfnOutput(this, 'UserPoolClientId', { value: identity.client.userPoolClientId });
    new CfnOutput(this, 'AccountsTableName', { value: tables.accounts.tableName, description: 'Read by `npm run keys -- --stage`' });
    new CfnOutput(this, 'DashboardUrl', { value: dashboard.url, description: "The stage's CloudWatch dashboard" });
    if (stageCheck) {
      new CfnOutput(this, 'StageCheckKeySecret', {
        value: stageCheck.keySecretArn,
        description: "Holds the stage check's API key (docs/runbooks.md)",
      });
    }
  }
}

const PUBLIC: ApiName[] = ['pets', 'messages'];
/** Which APIs a function answers for, as wired above: a gradual deploy of it rolls back on those APIs' 5xx alarms. */
function servedApis(name: FunctionName): readonly ApiName[] {
  const route = DEPLOYED_FUNCTIONS.find((fn) => fn.name === name)?.route;
  const sides: Partial<Record<FunctionName, ApiName[]>> = { authorizer: PUBLIC, notFound: PUBLIC, accountNotFound: ['account'] };
  return route ? [route.api] : name === 'preflight' ? [...PUBLIC, 'account'] : (sides[name] ?? []);
}

function functionOf(functions: ReadonlyMap<FunctionName, PetStoreFunction>, name: FunctionName): PetStoreFunction {
  const fn = functions.get(name);
  if (!fn) throw new Error(`shared/deployed-functions.ts has no function ${name}`);
  return fn;
}
