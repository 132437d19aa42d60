import { ACCOUNT_ROUTES, ALL_ROUTES, PREFLIGHT_ROUTE, ROUTES, type ApiName } from '#shared/routes';
import { STAGES } from '#shared/stages';
import type { Template } from 'aws-cdk-lib/assertions';
import {
  apiNamed,
  functionNamed,
  referencedId,
  resourcesOfType,
  synth,
  withOptions,
  type Resource,
  type Synthesized,
} from '../support/synth';

const PREFLIGHT_KEY = `${PREFLIGHT_ROUTE.method} ${PREFLIGHT_ROUTE.path}`;

/** What each stage promises, written out here rather than read from lib/stage-config.ts. */
const EXPECTED = {
  dev: { retentionDays: 7 },
  staging: { retentionDays: 30 },
  prod: { retentionDays: 180 },
} as const;

/**
 * The function a reference invokes: itself, or the function behind the live alias staging and prod invoke
 * (test/infra/stack/safe-deploys.ts).
 */
function invokedFunction(template: Template, id: string | undefined): string {
  const alias = resourcesOfType(template, 'AWS::Lambda::Alias').get(id ?? '');
  return (alias ? referencedId(alias.Properties.FunctionName) : id) ?? '';
}

/** Route key → the function name its integration invokes, for one API of the template. */
function routesOf(stage: (typeof STAGES)[number], api: ApiName, { template }: Synthesized = synth(stage)) {
  const apiId = apiNamed(template, stage, api);
  const integrations = resourcesOfType(template, 'AWS::ApiGatewayV2::Integration');
  const functions = resourcesOfType(template, 'AWS::Lambda::Function');
  const routes = [...resourcesOfType(template, 'AWS::ApiGatewayV2::Route').values()].filter(
    (route) => referencedId(route.Properties.ApiId) === apiId,
  );
  return routes.map((route) => {
    const target = JSON.stringify(route.Properties.Target);
    const integrationId = [...integrations.keys()].find((id) => target.includes(`"${id}"`));
    const integration = integrations.get(integrationId ?? '') as Resource;
    const functionId = invokedFunction(template, referencedId(integration.Properties.IntegrationUri));
    const description = String(functions.get(functionId)?.Properties.Description);
    return { route, integration, functionId, functionName: description.split(':')[0] };
  });
}

describe.each(STAGES)('%s stage routes', (stage) => {
  it.each<ApiName>(['pets', 'messages', 'account'])(
    'the %s API serves exactly its routes of shared/routes.ts plus $default and the preflight route',
    (api) => {
      const keys = routesOf(stage, api).map(({ route }) => route.Properties.RouteKey);
      expect(keys.sort()).toEqual(expectedRouteKeys(api).sort());
    },
  );

  it('the pets API routes live under /v1 and the messages route does not', () => {
    expect(routesOf(stage, 'pets').map(({ route }) => route.Properties.RouteKey)).toEqual(
      expect.arrayContaining(['GET /v1/pets', 'POST /v1/pets', 'GET /v1/pets/{petId}']),
    );
    expect(routesOf(stage, 'messages').map(({ route }) => route.Properties.RouteKey)).toContain('POST /messages');
  });

  it.each<ApiName>(['pets', 'messages'])(
    "every %s route, $default included, runs the API's Lambda authorizer (but the preflight route)",
    (api) => {
      const { template } = synth(stage);
      const apiId = apiNamed(template, stage, api);
      const [authorizerId] =
        [...resourcesOfType(template, 'AWS::ApiGatewayV2::Authorizer')].find(
          ([, authorizer]) => referencedId(authorizer.Properties.ApiId) === apiId,
        ) ?? [];
      for (const { route } of routesOf(stage, api).filter(({ route: candidate }) => candidate.Properties.RouteKey !== PREFLIGHT_KEY)) {
        expect(route.Properties.AuthorizationType).toBe('CUSTOM');
        expect(referencedId(route.Properties.AuthorizerId)).toBe(authorizerId);
      }
    },
  );

  it('each operation has its own function, reached by a payload 2.0 Lambda proxy integration', () => {
    const all = [...routesOf(stage, 'pets'), ...routesOf(stage, 'messages')];
    for (const route of ROUTES) {
      const found = all.find(({ route: deployed }) => deployed.Properties.RouteKey === `${route.method} ${route.path}`);
      expect(found?.functionName).toBe(route.operationId);
    }
    const operationFunctions = all
      .filter(({ route }) => route.Properties.RouteKey !== '$default' && route.Properties.RouteKey !== PREFLIGHT_KEY)
      .map(({ functionId }) => functionId);
    expect(new Set(operationFunctions).size).toBe(ROUTES.length);
    for (const { integration } of all) {
      expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    }
  });

  it('the account API: every route, $default included, is behind the user pool JWT authorizer (issuer, the portal client as audience)', () => {
    const { template } = synth(stage);
    const apiId = apiNamed(template, stage, 'account');
    const [authorizerId, authorizer] =
      [...resourcesOfType(template, 'AWS::ApiGatewayV2::Authorizer')].find(
        ([, candidate]) => referencedId(candidate.Properties.ApiId) === apiId,
      ) ?? [];
    const poolId = [...resourcesOfType(template, 'AWS::Cognito::UserPool').keys()][0] ?? '';
    const clientId = [...resourcesOfType(template, 'AWS::Cognito::UserPoolClient').keys()][0] ?? '';
    expect(authorizer?.Properties).toMatchObject({
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: { Audience: [{ Ref: clientId }] },
    });
    const issuer = JSON.stringify((authorizer?.Properties.JwtConfiguration as { Issuer: unknown }).Issuer);
    expect(issuer).toContain('https://cognito-idp.');
    expect(issuer).toContain(`"Ref":"${poolId}"`);
    const routes = routesOf(stage, 'account').filter(({ route }) => route.Properties.RouteKey !== PREFLIGHT_KEY);
    expect(routes).toHaveLength(ACCOUNT_ROUTES.length + 1);
    for (const { route, functionName } of routes) {
      expect(route.Properties.AuthorizationType).toBe('JWT');
      expect(referencedId(route.Properties.AuthorizerId)).toBe(authorizerId);
      expect(functionName).toBe(
        route.Properties.RouteKey === '$default'
          ? 'accountNotFound'
          : ACCOUNT_ROUTES.find((candidate) => `${candidate.method} ${candidate.path}` === route.Properties.RouteKey)?.operationId,
      );
    }
  });

  it('unknown methods and paths of either API go to the not-found function', () => {
    const { template } = synth(stage);
    const [notFoundId] = functionNamed(template, 'notFound');
    for (const api of ['pets', 'messages'] as const) {
      const fallback = routesOf(stage, api).find(({ route }) => route.Properties.RouteKey === '$default');
      expect(fallback?.functionId).toBe(notFoundId);
    }
  });

  it('API Gateway may invoke each route function only from its own API', () => {
    const { template } = synth(stage);
    const permissions = [...resourcesOfType(template, 'AWS::Lambda::Permission').values()];
    for (const api of ['pets', 'messages'] as const) {
      const apiId = apiNamed(template, stage, api);
      for (const { functionId } of routesOf(stage, api)) {
        const grants = permissions.filter(
          (permission) =>
            invokedFunction(template, referencedId(permission.Properties.FunctionName)) === functionId &&
            JSON.stringify(permission.Properties.SourceArn).includes(`"${apiId}"`),
        );
        expect(grants.length).toBeGreaterThan(0);
        for (const grant of grants)
          expect(grant.Properties).toMatchObject({ Action: 'lambda:InvokeFunction', Principal: 'apigateway.amazonaws.com' });
      }
    }
  });
});

describe.each(STAGES)('%s stage authorizer', (stage) => {
  it('both APIs use the caller-resolving authorizer: simple responses, payload 2.0, no identity source, caching off', () => {
    const { template } = synth(stage);
    const [authorizerFunctionId] = functionNamed(template, 'authorizer');
    const authorizers = [...resourcesOfType(template, 'AWS::ApiGatewayV2::Authorizer').values()].filter(
      (authorizer) => authorizer.Properties.AuthorizerType === 'REQUEST',
    );
    expect(authorizers.map((authorizer) => referencedId(authorizer.Properties.ApiId)).sort()).toEqual(
      [apiNamed(template, stage, 'pets'), apiNamed(template, stage, 'messages')].sort(),
    );
    for (const { Properties: authorizer } of authorizers) {
      expect(authorizer).toMatchObject({
        AuthorizerType: 'REQUEST',
        EnableSimpleResponses: true,
        AuthorizerPayloadFormatVersion: '2.0',
        AuthorizerResultTtlInSeconds: 0,
      });
      // With an identity source, API Gateway itself would answer {"message":"Unauthorized"} to a
      // request without the header instead of letting the handler answer the spec's 401 body.
      expect(authorizer.IdentitySource ?? []).toEqual([]);
      const invoked = [...JSON.stringify(authorizer.AuthorizerUri).matchAll(/"(?:Ref|Fn::GetAtt)":\[?"([A-Za-z0-9]+)"/g)].map(
        (match) => match[1],
      );
      expect(invoked.map((id) => invokedFunction(template, id))).toContain(authorizerFunctionId);
      expect(authorizer.AuthorizerCredentialsArn).toBeUndefined();
    }
  });

  it('API Gateway may invoke the authorizer function only as one of these two authorizers', () => {
    const { template } = synth(stage);
    const [authorizerFunctionId] = functionNamed(template, 'authorizer');
    const grants = [...resourcesOfType(template, 'AWS::Lambda::Permission').values()].filter(
      (permission) => invokedFunction(template, referencedId(permission.Properties.FunctionName)) === authorizerFunctionId,
    );
    const authorizerIds = [...resourcesOfType(template, 'AWS::ApiGatewayV2::Authorizer').keys()];
    expect(grants).toHaveLength(2);
    for (const grant of grants) {
      expect(grant.Properties).toMatchObject({ Action: 'lambda:InvokeFunction', Principal: 'apigateway.amazonaws.com' });
      const sourceArn = JSON.stringify(grant.Properties.SourceArn);
      expect(sourceArn).toContain('/authorizers/');
      expect(authorizerIds.some((id) => sourceArn.includes(`"${id}"`))).toBe(true);
    }
  });
});

describe.each(STAGES)('%s stage HTTP API stages', (stage) => {
  const stagesOf = () => [...resourcesOfType(synth(stage).template, 'AWS::ApiGatewayV2::Stage').values()];

  it('each API has one auto-deployed $default stage, so the base URL has no stage segment', () => {
    const stages = stagesOf();
    expect(stages).toHaveLength(3);
    for (const { Properties } of stages) expect(Properties).toMatchObject({ StageName: '$default', AutoDeploy: true });
  });

  // Default route and route throttles per stage and per API: test/infra/stack/throttling.ts.

  it('access logs are one JSON object per request with id, route, status, latency and authorizer outcome, never headers', () => {
    for (const { Properties } of stagesOf()) {
      const { Format } = Properties.AccessLogSettings as { Format: string };
      const fields = JSON.parse(Format) as Record<string, string>;
      expect(fields).toMatchObject({
        requestId: '$context.requestId',
        routeKey: '$context.routeKey',
        status: '$context.status',
        responseLatencyMs: '$context.responseLatency',
        integrationError: '$context.integrationErrorMessage',
        authorizerError: '$context.authorizer.error',
      });
      expect(Format).not.toMatch(/header|querystring|authorization/i);
    }
  });

  it('access logs go to their own log group with the stage retention', () => {
    const { template } = synth(stage);
    const logGroups = resourcesOfType(template, 'AWS::Logs::LogGroup');
    for (const { Properties } of stagesOf()) {
      const destination = referencedId((Properties.AccessLogSettings as { DestinationArn: unknown }).DestinationArn);
      expect(logGroups.get(destination ?? '')?.Properties.RetentionInDays).toBe(EXPECTED[stage].retentionDays);
    }
  });

  it("CORS allows only the developer portal's origin unless more are configured; the account API also DELETE", () => {
    const { template } = synth(stage);
    const [distributionId] = [...resourcesOfType(template, 'AWS::CloudFront::Distribution').keys()];
    const portalOrigin = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] };
    for (const [id, api] of resourcesOfType(template, 'AWS::ApiGatewayV2::Api')) {
      expect(api.Properties.ProtocolType).toBe('HTTP');
      expect(api.Properties.CorsConfiguration).toMatchObject({
        AllowOrigins: [portalOrigin],
        AllowHeaders: expect.arrayContaining(['authorization', 'content-type']),
      });
      const methods = (api.Properties.CorsConfiguration as { AllowMethods: string[] }).AllowMethods;
      expect(methods.includes('DELETE')).toBe(id === apiNamed(template, stage, 'account'));
    }
  });
});

/** Every API's route keys: those of shared/routes.ts, `$default`, and the preflight route (CORS is always on: the portal calls every API). */
const expectedRouteKeys = (api: ApiName) => [
  ...ALL_ROUTES.filter((route) => route.api === api).map((route) => `${route.method} ${route.path}`),
  '$default',
  PREFLIGHT_KEY,
];

describe.each(STAGES)('%s stage with corsOrigins (and its other options)', (stage) => {
  it("configured CORS origins, with the portal's, let a browser send Authorization and Idempotency-Key and read the Link, Location and Idempotent-Replayed headers", () => {
    const { template } = withOptions(stage);
    const [distributionId] = [...resourcesOfType(template, 'AWS::CloudFront::Distribution').keys()];
    const portalOrigin = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] };
    for (const name of ['pets', 'messages'] as const) {
      const api = resourcesOfType(template, 'AWS::ApiGatewayV2::Api').get(apiNamed(template, stage, name));
      expect(api?.Properties.CorsConfiguration).toEqual({
        AllowOrigins: ['https://app.example.com', 'https://admin.example.com', portalOrigin],
        AllowHeaders: ['authorization', 'content-type', 'idempotency-key'],
        ExposeHeaders: expect.arrayContaining(['link', 'location', 'idempotent-replayed', 'deprecation', 'sunset', 'retry-after']),
        AllowMethods: ['GET', 'POST', 'OPTIONS'],
        MaxAge: 3600,
      });
    }
    // The account API is called by the portal alone.
    const account = resourcesOfType(template, 'AWS::ApiGatewayV2::Api').get(apiNamed(template, stage, 'account'));
    expect((account?.Properties.CorsConfiguration as { AllowOrigins: unknown[] }).AllowOrigins).toEqual([portalOrigin]);
  });

  it.each<ApiName>(['pets', 'messages', 'account'])(
    'the %s API sends OPTIONS /{proxy+} to the preflight function without authorization, every other route through its authorizer',
    (api) => {
      const { template } = withOptions(stage);
      const [preflightId] = functionNamed(template, 'preflight');
      const routes = routesOf(stage, api, withOptions(stage));
      expect(routes.map(({ route }) => route.Properties.RouteKey).sort()).toEqual(expectedRouteKeys(api).sort());
      for (const { route, functionId, functionName } of routes) {
        if (route.Properties.RouteKey === PREFLIGHT_KEY) {
          expect(route.Properties.AuthorizationType).toBe('NONE');
          expect(route.Properties.AuthorizerId).toBeUndefined();
          expect([functionId, functionName]).toEqual([preflightId, 'preflight']);
        } else {
          expect(route.Properties.AuthorizationType).toBe(api === 'account' ? 'JWT' : 'CUSTOM');
        }
      }
    },
  );

  it("a browser's preflight for every route's path takes OPTIONS /{proxy+}, not the authorized $default", () => {
    // API Gateway's greedy `{proxy+}` matches one or more path segments: every path but `/`.
    const greedy = /^\/.+$/;
    for (const api of ['pets', 'messages', 'account'] as const) {
      const keys = routesOf(stage, api, withOptions(stage)).map(({ route }) => String(route.Properties.RouteKey));
      expect(keys.filter((key) => key.startsWith('OPTIONS '))).toEqual([PREFLIGHT_KEY]);
      for (const route of ALL_ROUTES.filter((candidate) => candidate.api === api)) expect(route.path).toMatch(greedy);
    }
  });

  it('API Gateway may invoke the preflight function only from the three APIs', () => {
    const { template } = withOptions(stage);
    const [preflightId] = functionNamed(template, 'preflight');
    const grants = [...resourcesOfType(template, 'AWS::Lambda::Permission').values()].filter(
      (permission) => invokedFunction(template, referencedId(permission.Properties.FunctionName)) === preflightId,
    );
    const apiIds = (['pets', 'messages', 'account'] as const).map((api) => apiNamed(template, stage, api));
    expect(grants).toHaveLength(3);
    for (const grant of grants) {
      expect(grant.Properties).toMatchObject({ Action: 'lambda:InvokeFunction', Principal: 'apigateway.amazonaws.com' });
      expect(apiIds.filter((id) => JSON.stringify(grant.Properties.SourceArn).includes(`"${id}"`))).toHaveLength(1);
    }
  });
});

it.each(STAGES)("without corsOrigins, %s still answers preflights on every API: the portal's origin calls them", (stage) => {
  for (const api of ['pets', 'messages', 'account'] as const) {
    const keys = routesOf(stage, api).map(({ route }) => String(route.Properties.RouteKey));
    expect(keys.filter((key) => key.startsWith('OPTIONS '))).toEqual([PREFLIGHT_KEY]);
  }
});
