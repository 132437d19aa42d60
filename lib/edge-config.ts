/**
 * How clients reach a stage, read from CDK context and checked before anything is built: custom
 * domain names (`-c petsDomain=… -c messagesDomain=…` with a certificate or a Route 53 zone), and the
 * optional front door (`-c frontDoor=true`: CloudFront + AWS WAF). Without that context, nothing of
 * it exists. No aws-cdk-lib import here on purpose.
 */
import type { PublicApiName } from '#shared/routes';

export interface HostedZone {
  readonly id: string;
  /** The zone's apex, e.g. `example.com`; both domain names must lie in it. */
  readonly name: string;
}

export interface CustomDomains {
  /** One name per API: the pets API at its root (base URL `https://<pets>/v1`), messages at its own. */
  readonly names: Readonly<Record<PublicApiName, string>>;
  /** An ACM certificate covering both names (in us-east-1 with the front door: CloudFront's region). */
  readonly certificateArn?: string;
  /** Where a DNS-validated certificate (when no certificateArn) and the alias records are created. */
  readonly hostedZone?: HostedZone;
  /** API Gateway's `execute-api` endpoint turned off, so the custom domain is the only way in. */
  readonly disableDefaultEndpoint: boolean;
}

export interface FrontDoor {
  /** Requests one client IP may send per evaluation window before WAF answers 429. */
  readonly rateLimit: number;
  /** Requests one `Authorization` value (one API key) may send per window, from however many addresses. */
  readonly keyRateLimit: number;
  readonly rateWindowSeconds: RateWindowSeconds;
}

/** The evaluation windows AWS WAF offers for rate-based rules. */
export const RATE_WINDOWS_SECONDS = [60, 120, 300, 600] as const;
export type RateWindowSeconds = (typeof RATE_WINDOWS_SECONDS)[number];
/** AWS WAF's smallest rate-based limit. */
export const MIN_RATE_LIMIT = 10;

/** Optional context for this module, as CDK hands it over (CLI strings, or cdk.json values). */
export interface EdgeContext {
  readonly petsDomain?: unknown;
  readonly messagesDomain?: unknown;
  readonly certificateArn?: unknown;
  readonly hostedZoneId?: unknown;
  readonly hostedZoneName?: unknown;
  readonly disableDefaultEndpoint?: unknown;
  readonly frontDoor?: unknown;
  readonly frontDoorRateLimit?: unknown;
  readonly frontDoorKeyRateLimit?: unknown;
}

const HOSTNAME = /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:([a-z]{2}(?:-[a-z]+)+-\d):\d{12}:certificate\/[0-9a-f-]{36}$/;
const HOSTED_ZONE_ID = /^Z[A-Z0-9]{1,31}$/;
/** CloudFront takes certificates from this region only. */
export const CLOUDFRONT_CERTIFICATE_REGION = 'us-east-1';

const given = (value: unknown): boolean => value !== undefined && value !== '';

function text(name: string, value: unknown): string | undefined {
  if (!given(value)) return undefined;
  if (typeof value !== 'string') throw new Error(`${name}: ${JSON.stringify(value)} is not a string`);
  return value.trim();
}

export function flag(name: string, value: unknown): boolean | undefined {
  if (!given(value)) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`${name}: ${JSON.stringify(value)} is neither true nor false`);
}

function hostname(name: string, value: unknown): string | undefined {
  const host = text(name, value);
  if (host !== undefined && !HOSTNAME.test(host)) {
    throw new Error(
      `${name}: ${JSON.stringify(host)} is not a domain name (lower case, e.g. api.example.com; no scheme, path or wildcard)`,
    );
  }
  return host;
}

const inZone = (host: string, zone: string): boolean => host === zone || host.endsWith(`.${zone}`);

/** `-c petsDomain … -c messagesDomain …` and how they are certified; undefined when no domain is given. */
export function parseCustomDomains(context: EdgeContext, frontDoor: boolean): CustomDomains | undefined {
  const pets = hostname('petsDomain', context.petsDomain);
  const messages = hostname('messagesDomain', context.messagesDomain);
  const certificateArn = text('certificateArn', context.certificateArn);
  const zoneId = text('hostedZoneId', context.hostedZoneId);
  const zoneName = hostname('hostedZoneName', context.hostedZoneName);
  const disableDefaultEndpoint = flag('disableDefaultEndpoint', context.disableDefaultEndpoint);

  if (pets === undefined && messages === undefined) {
    const stray = [certificateArn && 'certificateArn', zoneId && 'hostedZoneId', zoneName && 'hostedZoneName'];
    if (disableDefaultEndpoint !== undefined) stray.push('disableDefaultEndpoint');
    const strays = stray.filter(Boolean);
    if (strays.length > 0) throw new Error(`${strays.join(', ')}: given without petsDomain and messagesDomain, which they are for`);
    return undefined;
  }
  if (pets === undefined || messages === undefined) {
    throw new Error(
      'petsDomain and messagesDomain go together: each API gets its own stable address (e.g. api.example.com and messages.example.com)',
    );
  }
  if (pets === messages) throw new Error(`petsDomain and messagesDomain are both ${pets}: each API needs a name of its own`);
  if ((zoneId === undefined) !== (zoneName === undefined)) throw new Error('hostedZoneId and hostedZoneName go together');
  if (zoneId !== undefined && !HOSTED_ZONE_ID.test(zoneId))
    throw new Error(`hostedZoneId: ${JSON.stringify(zoneId)} is not a Route 53 zone id (Z…)`);
  const hostedZone = zoneId !== undefined && zoneName !== undefined ? { id: zoneId, name: zoneName } : undefined;
  if (hostedZone) {
    for (const host of [pets, messages]) {
      if (!inZone(host, hostedZone.name)) throw new Error(`${host} is not in the hosted zone ${hostedZone.name}`);
    }
  }
  if (certificateArn !== undefined) {
    const region = CERTIFICATE_ARN.exec(certificateArn)?.[1];
    if (region === undefined) throw new Error(`certificateArn: ${JSON.stringify(certificateArn)} is not an ACM certificate ARN`);
    if (frontDoor && region !== CLOUDFRONT_CERTIFICATE_REGION) {
      throw new Error(
        `certificateArn: with frontDoor the names live on CloudFront, which takes certificates from ${CLOUDFRONT_CERTIFICATE_REGION} only, not ${region}`,
      );
    }
  }
  if (certificateArn === undefined && hostedZone === undefined) {
    throw new Error(
      'custom domains need -c certificateArn=<ACM ARN covering both names>, or -c hostedZoneId and -c hostedZoneName to make one',
    );
  }
  if (frontDoor && disableDefaultEndpoint === true) {
    throw new Error(
      "disableDefaultEndpoint: with frontDoor, CloudFront's origin is the execute-api endpoint (the origin secret guards it)",
    );
  }
  return {
    names: { pets, messages },
    ...(certificateArn !== undefined ? { certificateArn } : {}),
    ...(hostedZone ? { hostedZone } : {}),
    // On by default: a stable address nobody bypasses. The front door needs the endpoint as its origin.
    disableDefaultEndpoint: frontDoor ? false : (disableDefaultEndpoint ?? true),
  };
}

/** `-c frontDoor=true [-c frontDoorRateLimit=N] [-c frontDoorKeyRateLimit=N]`; undefined without it. */
export function parseFrontDoor(context: EdgeContext, defaults: FrontDoor): FrontDoor | undefined {
  const enabled = flag('frontDoor', context.frontDoor) ?? false;
  if (!enabled) {
    const stray = (['frontDoorRateLimit', 'frontDoorKeyRateLimit'] as const).filter((name) => given(context[name]));
    if (stray.length > 0) throw new Error(`${stray.join(', ')}: given without -c frontDoor=true`);
    return undefined;
  }
  const limit = (name: string, value: unknown, what: string, fallback: number): number => {
    if (!given(value)) return fallback;
    const parsed = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(parsed) || parsed < MIN_RATE_LIMIT) {
      throw new Error(
        `${name}: ${JSON.stringify(value)} is not a whole number of requests of at least ${MIN_RATE_LIMIT} (per ${what} per ${defaults.rateWindowSeconds} s)`,
      );
    }
    return parsed;
  };
  return {
    ...defaults,
    rateLimit: limit('frontDoorRateLimit', context.frontDoorRateLimit, 'client IP', defaults.rateLimit),
    keyRateLimit: limit('frontDoorKeyRateLimit', context.frontDoorKeyRateLimit, 'API key', defaults.keyRateLimit),
  };
}
