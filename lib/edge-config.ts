/**
 * How clients reach a stage, checked before anything is built: custom domain names and the optional front door
 * (CloudFront + AWS WAF), from its options (shared/stage-options.ts). No aws-cdk-lib import here on purpose.
 */
import type { PublicApiName } from '#shared/routes';
import type { StageOptions } from '#shared/stage-options';

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
/** CloudFront takes certificates from this region only. */
export const CLOUDFRONT_CERTIFICATE_REGION = 'us-east-1';

const inZone = (host: string, zone: string): boolean => host === zone || host.endsWith(`.${zone}`);

/** The stage's domain names and how they are certified; undefined when it names none. */
export function parseCustomDomains(options: StageOptions, frontDoor: boolean): CustomDomains | undefined {
  const {
    petsDomain: pets,
    messagesDomain: messages,
    certificateArn,
    hostedZoneId: zoneId,
    hostedZoneName: zoneName,
    disableDefaultEndpoint,
  } = options;
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
  const hostedZone = zoneId !== undefined && zoneName !== undefined ? { id: zoneId, name: zoneName } : undefined;
  if (hostedZone) {
    for (const host of [pets, messages]) {
      if (!inZone(host, hostedZone.name)) throw new Error(`${host} is not in the hosted zone ${hostedZone.name}`);
    }
  }
  const certificateRegion = certificateArn?.split(':')[3];
  if (frontDoor && certificateRegion !== undefined && certificateRegion !== CLOUDFRONT_CERTIFICATE_REGION) {
    throw new Error(
      `certificateArn: with frontDoor the names live on CloudFront, which takes certificates from ${CLOUDFRONT_CERTIFICATE_REGION} only, not ${certificateRegion}`,
    );
  }
  if (certificateArn === undefined && hostedZone === undefined) {
    throw new Error(
      'custom domains need certificateArn (an ACM certificate covering both names), or hostedZoneId and hostedZoneName to make one',
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
