import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { CorsHttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpUserPoolAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { constructIdOf } from './construct-ids';
import { DEPLOYED_FUNCTIONS } from './deployed-functions';
import { PetStoreAlarms } from './petstore-alarms';
import { PetStoreFunction, type PetStoreFunctionDefaults } from './petstore-function';
import { PetStoreHttpApi } from './petstore-http-api';
import { PetStoreTables } from './petstore-tables';
import { ACCOUNT_TOKEN_AUDIENCE_ENV, ACCOUNT_TOKEN_ISSUER_ENV, IDENTITY_ACCESS, PASSWORD_POLICY, USER_POOL_ID_ENV } from './accounts';
import { PetStoreIdentity } from './petstore-identity';
import { PetStorePortal } from './petstore-portal';
import { PETS_BASE_PATH, type ApiName } from './routes';
import type { StageConfig } from './stage-config';
import type { FunctionName } from './table-access';

export interface PetStoreStackProps extends StackProps {
  readonly config: StageConfig;
  /** Directory with package-lock.json; handler entries of lib/routes.ts are relative to it. */
  readonly projectRoot: string;
}

/**
 * The whole service for one stage: tables, every function of lib/deployed-functions.ts, the pets and
 * messages HTTP APIs with one route per route function, the developer portal (user pool, account API,
 * site), alarms, and the outputs the keys CLI reads.
 */
export class PetStoreStack extends Stack {
  constructor(scope: Construct, id: string, props: PetStoreStackProps) {
    super(scope, id, props);
    const { config, projectRoot } = props;

    const { tables } = new PetStoreTables(this, 'Tables', { config });
    const identity = new PetStoreIdentity(this, 'Identity', { config });
    const portal = new PetStorePortal(this, 'Portal', { projectRoot });

    const shared: PetStoreFunctionDefaults = { projectRoot, config, tables };
    // The account functions check the access token's issuer and audience again (defense in depth).
    const accountEnvironment = {
      [ACCOUNT_TOKEN_ISSUER_ENV]: identity.issuer,
      [ACCOUNT_TOKEN_AUDIENCE_ENV]: identity.client.userPoolClientId,
    };
    const identityAccess = (name: FunctionName) => {
      const actions = IDENTITY_ACCESS[name];
      if (!actions) return {};
      return {
        environment: { [USER_POOL_ID_ENV]: identity.userPool.userPoolId },
        statements: [new PolicyStatement({ actions: [...actions], resources: [identity.userPool.userPoolArn] })],
      };
    };
    const functions = new Map<FunctionName, IFunction>(
      DEPLOYED_FUNCTIONS.map((fn) => {
        const cognito = identityAccess(fn.name);
        return [
          fn.name,
          new PetStoreFunction(this, constructIdOf(fn.name), {
            ...shared,
            name: fn.name,
            entry: fn.entry,
            description: `${fn.name}: ${fn.summary}`,
            ...(fn.account || cognito.environment
              ? { environment: { ...(fn.account ? accountEnvironment : {}), ...cognito.environment } }
              : {}),
            ...(cognito.statements ? { statements: cognito.statements } : {}),
          }).function,
        ];
      }),
    );
    const functionNamed = (name: FunctionName): IFunction => {
      const fn = functions.get(name);
      if (!fn) throw new Error(`lib/deployed-functions.ts has no function ${name}`);
      return fn;
    };
    const authorizer = functionNamed('authorizer');
    const notFound = functionNamed('notFound');

    // Developer portal hook: the portal's origin may call the pets and messages APIs from the browser ("Try it").
    const portalOrigins = [portal.origin];
    const api = (name: 'pets' | 'messages', description: string) =>
      new PetStoreHttpApi(this, `${constructIdOf(name)}Api`, {
        apiName: `${id}-${name}`,
        description,
        config,
        authorizer,
        notFound,
        extraCorsOrigins: portalOrigins,
      });
    const apis: Record<ApiName, PetStoreHttpApi> = {
      pets: api('pets', 'Pet store API (v1)'),
      messages: api('messages', 'Message submission (getting-started example)'),
      // Its callers are signed-in users: API Gateway checks their access token (signature, issuer, the
      // portal's app client, expiry) before any function runs. Only the portal calls it from a browser.
      account: new PetStoreHttpApi(this, 'AccountApi', {
        apiName: `${id}-account`,
        description: "Developer portal: a signed-in user's own API keys",
        config: { ...config, corsOrigins: [] },
        authorizer: {
          jwt: new HttpUserPoolAuthorizer('AccessTokenAuthorizer', identity.userPool, { userPoolClients: [identity.client] }),
        },
        notFound: functionNamed('accountNotFound'),
        extraCorsOrigins: portalOrigins,
        corsAllowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.DELETE, CorsHttpMethod.OPTIONS],
      }),
    };
    for (const { name, route } of DEPLOYED_FUNCTIONS) if (route) apis[route.api].addRoute(route, functionNamed(name));

    new PetStoreAlarms(this, 'Alarms', { config, apis, authorizer, tables });

    portal.publish({
      stage: config.stage,
      local: false,
      region: this.region,
      cognitoEndpoint: identity.cognitoEndpoint,
      userPoolId: identity.userPool.userPoolId,
      clientId: identity.client.userPoolClientId,
      accountBaseUrl: apis.account.endpoint,
      petsBaseUrl: `${apis.pets.endpoint}${PETS_BASE_PATH}`,
      messagesBaseUrl: apis.messages.endpoint,
      passwordPolicy: PASSWORD_POLICY,
    });

    // Output ids are an interface: scripts/keys.ts reads ApiKeysTableName from the deployed stack.
    new CfnOutput(this, 'PetsBaseUrl', {
      value: `${apis.pets.endpoint}${PETS_BASE_PATH}`,
      description: 'Pets API base URL (spec {base_url})',
    });
    new CfnOutput(this, 'MessagesBaseUrl', { value: apis.messages.endpoint, description: 'Messages API base URL (POST /messages)' });
    new CfnOutput(this, 'PetsTableName', { value: tables.pets.tableName });
    new CfnOutput(this, 'MessagesTableName', { value: tables.messages.tableName });
    new CfnOutput(this, 'ApiKeysTableName', { value: tables.apiKeys.tableName, description: 'Read by `npm run keys -- --stage`' });
    new CfnOutput(this, 'AccountBaseUrl', { value: apis.account.endpoint, description: 'Account API base URL (developer portal)' });
    new CfnOutput(this, 'PortalUrl', { value: `${portal.origin}/`, description: 'Developer portal: sign up and get an API key' });
    new CfnOutput(this, 'UserPoolId', { value: identity.userPool.userPoolId, description: 'Read by `npm run keys -- --stage … --email`' });
    new CfnOutput(this, 'UserPoolClientId', { value: identity.client.userPoolClientId });
    new CfnOutput(this, 'AccountsTableName', { value: tables.accounts.tableName, description: 'Read by `npm run keys -- --stage`' });
  }
}
