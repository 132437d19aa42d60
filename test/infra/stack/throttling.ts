/**
 * The stages' API Gateway throttles as deployed (default route settings and route settings of each HTTP API
 * stage), what CDK context changes in them, and that the local emulator (local/gateway/throttle.ts) admits exactly
 * what each deployed route would.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { stageConfig, type StageContext } from '#lib/stage-config';
import { createThrottle } from '#local/gateway/throttle';
import { ROUTES, type ApiName } from '#shared/routes';
import { readStageOptions } from '#shared/stage-options';
import { throttlingOf } from '#shared/stage-throttling';
import { STAGES, type StageName } from '#shared/stages';
import { apiNamed, referencedId, resourcesOfType, synth, variant } from '../support/synth';

interface Limits {
  readonly ThrottlingRateLimit: number;
  readonly ThrottlingBurstLimit: number;
}

/** The buckets config/<stage>.json gives a stage, as the local server reads them. */
const COMMITTED = (stage: StageName) => throttlingOf(readStageOptions(stage).options);

type Pair = [number, number];

/** staging and prod: createPet throttled apart, and small buckets for unknown paths and preflights (`side`). */
const guarded = (pets: Pair, createPet: Pair, messages: Pair, account: Pair, side: Pair) => ({
  pets: { defaultRoute: pets, routes: { 'POST /v1/pets': createPet, $default: side, 'OPTIONS /{proxy+}': side } },
  messages: { defaultRoute: messages, routes: { $default: side, 'OPTIONS /{proxy+}': side } },
  account: { defaultRoute: account, routes: {} },
});

/** What each stage promises, written out here rather than read from config/<stage>.json. */
const EXPECTED: Record<StageName, Record<ApiName, { defaultRoute: Pair; routes: Record<string, Pair> }>> = {
  dev: {
    pets: { defaultRoute: [20, 40], routes: {} },
    messages: { defaultRoute: [20, 40], routes: {} },
    account: { defaultRoute: [20, 40], routes: {} },
  },
  staging: guarded([100, 200], [50, 50], [50, 100], [50, 100], [10, 20]),
  prod: guarded([1_500, 3_000], [1_000, 1_000], [500, 1_000], [200, 400], [100, 200]),
};

const limits = ([rate, burst]: Pair): Limits => ({ ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst });

/** The $default stage of one API: its default route settings and route settings. */
function stageOf(template: Template, stage: StageName, api: ApiName) {
  const apiId = apiNamed(template, stage, api);
  const [entry] = [...resourcesOfType(template, 'AWS::ApiGatewayV2::Stage')].filter(
    ([, resource]) => referencedId(resource.Properties.ApiId) === apiId,
  );
  if (!entry) throw new Error(`no stage for the ${api} API`);
  const [id, resource] = entry;
  return {
    id,
    dependsOn: (resource as { DependsOn?: string[] }).DependsOn ?? [],
    defaultRoute: resource.Properties.DefaultRouteSettings as Limits,
    routes: (resource.Properties.RouteSettings ?? {}) as Record<string, Limits>,
  };
}

const routeKeysOf = (template: Template, stage: StageName, api: ApiName): Map<string, string> => {
  const apiId = apiNamed(template, stage, api);
  return new Map(
    [...resourcesOfType(template, 'AWS::ApiGatewayV2::Route')]
      .filter(([, route]) => referencedId(route.Properties.ApiId) === apiId)
      .map(([id, route]) => [route.Properties.RouteKey as string, id]),
  );
};

const APIS: readonly ApiName[] = ['pets', 'messages', 'account'];

describe.each(STAGES)('%s stage throttles', (stage) => {
  it.each(APIS)('the %s API throttles every route by its default route settings, and the routes apart by their own', (api) => {
    const { template } = synth(stage);
    const deployed = stageOf(template, stage, api);
    expect(deployed.defaultRoute).toEqual(limits(EXPECTED[stage][api].defaultRoute));
    expect(deployed.routes).toEqual(
      Object.fromEntries(Object.entries(EXPECTED[stage][api].routes).map(([key, pair]) => [key, limits(pair)])),
    );
  });

  it.each(APIS)('the %s API has every route its stage throttles apart, created before the stage', (api) => {
    const { template } = synth(stage);
    const deployed = stageOf(template, stage, api);
    const routes = routeKeysOf(template, stage, api);
    for (const key of Object.keys(deployed.routes)) {
      expect(routes.has(key)).toBe(true);
      expect(deployed.dependsOn).toContain(routes.get(key));
    }
  });

  it('createPet is held below the read routes, and below the 4,000 writes/s a new on-demand table takes', () => {
    const { pets } = EXPECTED[stage];
    const createPet = pets.routes['POST /v1/pets'] ?? pets.defaultRoute;
    expect(createPet[0]).toBeLessThanOrEqual(pets.defaultRoute[0]);
    expect(createPet[0]).toBeLessThanOrEqual(4_000);
  });

  it.each(APIS)('the local emulator admits on each %s route exactly the burst, then the rate per second, the stage deploys', (api) => {
    const { template } = synth(stage);
    const deployed = stageOf(template, stage, api);
    for (const key of routeKeysOf(template, stage, api).keys()) {
      const { ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst } = deployed.routes[key] ?? deployed.defaultRoute;
      let clockMs = 0;
      const throttle = createThrottle(COMMITTED(stage), () => clockMs);
      let admitted = 0;
      while (throttle.admit(api, key)) admitted++;
      expect({ key, burst: admitted }).toEqual({ key, burst });
      clockMs += 1_000;
      admitted = 0;
      while (throttle.admit(api, key)) admitted++;
      expect({ key, rate: admitted }).toEqual({ key, rate: Math.min(rate, burst) });
    }
  });
});

describe('the local emulator throttles route by route', () => {
  it('a flood of creates empties createPet’s bucket and leaves the read routes and the other APIs theirs', () => {
    const throttle = createThrottle(COMMITTED('staging'), () => 0);
    let creates = 0;
    while (throttle.admit('pets', 'POST /v1/pets')) creates++;
    expect(creates).toBe(50);
    expect(throttle.admit('pets', 'GET /v1/pets')).toBe(true);
    expect(throttle.admit('pets', 'GET /v1/pets/{petId}')).toBe(true);
    expect(throttle.admit('messages', 'POST /messages')).toBe(true);
  });

  it('one limit given alone applies to every route of every API, each with its own bucket', () => {
    const throttle = createThrottle({ rateLimit: 1, burstLimit: 1 }, () => 0);
    expect(throttle.admit('pets', 'GET /v1/pets')).toBe(true);
    expect(throttle.admit('pets', 'GET /v1/pets')).toBe(false);
    expect(throttle.admit('pets', 'POST /v1/pets')).toBe(true);
    expect(throttle.admit('pets', '$default')).toBe(true);
  });
});

describe('throttles from CDK context', () => {
  it('-c petsRateLimit/petsBurstLimit set the pets API default route, -c createPetRateLimit/createPetBurstLimit its createPet route', () => {
    const { template } = variant('prodWithOptions');
    const pets = stageOf(template, 'prod', 'pets');
    expect(pets.defaultRoute).toEqual(limits([4_000, 8_000]));
    expect(pets.routes['POST /v1/pets']).toEqual(limits([900, 2_000]));
    // The rest stays as the stage has it.
    expect(pets.routes.$default).toEqual(limits([100, 200]));
    expect(stageOf(template, 'prod', 'messages').defaultRoute).toEqual(limits([500, 1_000]));
  });

  it('-c messagesRateLimit/messagesBurstLimit set the messages API default route; numbers from cdk.json work too', () => {
    const config = stageConfig('staging', { messagesRateLimit: 300, messagesBurstLimit: '600' });
    expect(config.throttling.messages.defaultRoute).toEqual({ rateLimit: 300, burstLimit: 600 });
    expect(config.throttling.pets).toEqual(COMMITTED('staging').pets);
  });

  const refused = (context: StageContext, message: RegExp) => expect(() => stageConfig('staging', context)).toThrow(message);

  it('refuses what is not a whole number of requests of at least 1', () => {
    refused({ petsRateLimit: '0' }, /petsRateLimit: "0" is not a whole number of at least 1/);
    refused({ createPetBurstLimit: '1.5' }, /createPetBurstLimit/);
    refused({ messagesRateLimit: 'fast' }, /messagesRateLimit/);
  });

  it('refuses a createPet limit above what the pets table takes at once, unless it is pre-warmed for it', () => {
    refused({ createPetRateLimit: '5000' }, /more than the pets table takes at once \(4000 writes\/s\).*petsWarmWrites=5000/);
    // Pre-warmed, the table takes it; what is left to refuse is the status index's layout (./status-shards.ts).
    refused({ createPetRateLimit: '5000', petsWarmWrites: '6000' }, /createPet at 5000 creates\/s needs 10 status shards/);
  });

  it('every route the context names exists in shared/routes.ts', () => {
    expect(ROUTES.map(({ method, path }) => `${method} ${path}`)).toEqual(expect.arrayContaining(['POST /v1/pets', 'POST /messages']));
  });
});
