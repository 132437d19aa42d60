import { Duration, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  CorsHttpMethod,
  HttpApi,
  type IHttpRouteAuthorizer,
  HttpMethod,
  HttpNoneAuthorizer,
  type HttpRoute,
  LogGroupLogDestination,
  type CfnStage,
  type CorsPreflightOptions,
  type HttpStage,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { CORS_ALLOW_HEADERS, CORS_ALLOW_METHODS, CORS_EXPOSE_HEADERS, CORS_MAX_AGE_SECONDS } from '#shared/cors';
import { PREFLIGHT_ROUTE, type ApiName, type RouteDefinition } from '#shared/routes';
import { DEFAULT_ROUTE_KEY, routeKeyOf, type ApiThrottling } from '#shared/stage-throttling';
import type { StageConfig } from './stage-config';

/**
 * One JSON object per request; no headers or query string, so no API key lands in it. Nothing twice, since every byte
 * is paid at ingestion: the method is in `routeKey`, the time is the log event's own; no protocol or length, which no
 * one acts on.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLatencyMs: '$context.responseLatency',
  integrationStatus: '$context.integrationStatus',
  integrationLatencyMs: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
  authorizerError: '$context.authorizer.error',
  keyId: '$context.authorizer.keyId',
  anonymousReason: '$context.authorizer.reason',
} as const;

const corsPreflight = (origins: readonly string[], methods?: readonly CorsHttpMethod[]): CorsPreflightOptions => ({
  allowOrigins: [...origins],
  allowMethods: methods ? [...methods] : CORS_ALLOW_METHODS.map((method) => CorsHttpMethod[method]),
  allowHeaders: [...CORS_ALLOW_HEADERS],
  exposeHeaders: [...CORS_EXPOSE_HEADERS],
  maxAge: Duration.seconds(CORS_MAX_AGE_SECONDS),
});

export interface PetStoreHttpApiProps {
  readonly api: ApiName;
  readonly apiName: string;
  readonly description: string;
  readonly config: StageConfig;
  /** Resolves the caller of every request and never denies; or, for the account API, the user pool's JWT authorizer. */
  readonly authorizer: IFunction | { readonly jwt: IHttpRouteAuthorizer };
  /** Serves `$default`. */
  readonly notFound: IFunction;
  /** Allowed by CORS on top of the stage's `corsOrigins` (the portal's). */
  readonly extraCorsOrigins?: readonly string[];
  /** The stage's default (GET, POST) when absent. */
  readonly corsAllowMethods?: readonly CorsHttpMethod[];
}

/** An HTTP API whose every route runs the authorizer, with a `$default` stage throttled route by route and access logs. */
export class PetStoreHttpApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: LogGroup;
  private readonly throttling: ApiThrottling;
  /** Route keys the stage has settings for, and whether the route exists yet. */
  private readonly throttledRoutes = new Map<string, boolean>();

  constructor(scope: Construct, id: string, props: PetStoreHttpApiProps) {
    super(scope, id);
    const { config } = props;
    this.throttling = config.throttling[props.api];

    // API Gateway must never answer 401/403 itself (it cannot shape the spec's error body): no identity source, so
    // every request reaches the authorizer, hence no cache (the authorizer caches lookups itself).
    const authorizer =
      'jwt' in props.authorizer
        ? props.authorizer.jwt
        : new HttpLambdaAuthorizer('CallerAuthorizer', props.authorizer, {
            responseTypes: [HttpLambdaResponseType.SIMPLE],
            identitySource: [],
            resultsCacheTtl: Duration.seconds(0),
          });
    const corsOrigins = [...(config.corsOrigins ?? []), ...(props.extraCorsOrigins ?? [])];

    this.api = new HttpApi(this, 'Api', {
      apiName: props.apiName,
      description: props.description,
      defaultAuthorizer: authorizer,
      defaultIntegration: new HttpLambdaIntegration('NotFoundIntegration', props.notFound),
      ...(corsOrigins.length > 0 ? { corsPreflight: corsPreflight(corsOrigins, props.corsAllowMethods) } : {}),
      ...(config.domains?.disableDefaultEndpoint ? { disableExecuteApiEndpoint: true } : {}),
      createDefaultStage: false,
    });

    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: config.logRetention, removalPolicy: config.logRemovalPolicy });
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: this.throttling.defaultRoute,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    const routeSettings = Object.entries(this.throttling.routes);
    if (routeSettings.length > 0) {
      (this.stage.node.defaultChild as CfnStage).routeSettings = Object.fromEntries(
        routeSettings.map(([key, { rateLimit, burstLimit }]) => [
          key,
          { ThrottlingRateLimit: rateLimit, ThrottlingBurstLimit: burstLimit },
        ]),
      );
    }
    for (const [key] of routeSettings) this.throttledRoutes.set(key, false);
    const defaultRoute = this.api.node.tryFindChild('DefaultRoute');
    if (defaultRoute) this.settled(DEFAULT_ROUTE_KEY, [defaultRoute]);
    // A stage whose route settings name a route the API lacks fails at deploy time ("Unable to find Route by key").
    this.node.addValidation({
      validate: () =>
        [...this.throttledRoutes]
          .filter(([, exists]) => !exists)
          .map(([key]) => `the ${props.api} API's stage throttles route ${key}, which the API does not have`),
    });
  }

  /** The stage waits for the routes its route settings name, which CloudFormation does not know to do. */
  private settled(routeKey: string, routes: readonly IConstruct[]): void {
    if (!this.throttledRoutes.has(routeKey)) return;
    this.throttledRoutes.set(routeKey, true);
    for (const route of routes) this.stage.node.addDependency(route);
  }

  get endpoint(): string {
    return this.api.apiEndpoint;
  }

  /** One route of shared/routes.ts to its own function; the default authorizer applies. */
  addRoute(route: RouteDefinition, handler: IFunction): void {
    this.route(route, `${route.operationId}Integration`, handler);
  }

  /**
   * CORS preflights without the authorizer: API Gateway answers a preflight itself only when no route
   * matches, and `$default` matches everything ("Configure CORS for HTTP APIs", $default routes and
   * authorizers). HTTP APIs have no mock integration, hence a function that answers 204.
   */
  addPreflightRoute(handler: IFunction): void {
    for (const route of this.route(PREFLIGHT_ROUTE, 'PreflightIntegration', handler, { authorizer: new HttpNoneAuthorizer() })) {
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason: 'Browsers send CORS preflights without credentials; this route answers 204 and reaches no data.',
      });
    }
  }

  private route(
    route: { readonly path: string; readonly method: keyof typeof HttpMethod },
    integrationId: string,
    handler: IFunction,
    more = {},
  ): HttpRoute[] {
    const integration = new HttpLambdaIntegration(integrationId, handler);
    const routes = this.api.addRoutes({ path: route.path, methods: [HttpMethod[route.method]], integration, ...more });
    this.settled(routeKeyOf(route), routes);
    return routes;
  }
}
