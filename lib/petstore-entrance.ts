import { Stack, Token } from 'aws-cdk-lib';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { CLOUDFRONT_CERTIFICATE_REGION } from './edge-config';
import { PetStoreApiDomains } from './petstore-domains';
import { FrontDoorEdgeResources, PetStoreFrontDoor, type FrontDoorEdge } from './petstore-front-door';
import type { PetStoreHttpApi } from './petstore-http-api';
import type { ApiName, PublicApiName } from '#shared/routes';
import type { StageConfig } from './stage-config';

interface Entrance {
  /** Scheme and host of each API, no trailing slash. */
  readonly origins: Readonly<Record<ApiName, string>>;
  /** Where a custom domain's DNS record must point, when the stack writes no records itself. */
  readonly dnsTargets?: Readonly<Record<PublicApiName, string>>;
}

interface EntranceProps {
  readonly config: StageConfig;
  readonly apis: Readonly<Record<ApiName, PetStoreHttpApi>>;
  /** Set when the stage has a front door. */
  readonly originSecret?: Secret;
  /** The front door's us-east-1 resources, when another stack holds them (lib/petstore-app.ts). */
  readonly frontDoorEdge?: FrontDoorEdge;
  /** compliance=control-tower: where the front door's distributions write their standard logs. */
  readonly accessLogs?: IBucket;
}

/** How clients reach the APIs: through the front door, through API Gateway custom domains, or at the execute-api URLs. */
export function addEntrance(scope: Construct, props: EntranceProps): Entrance {
  const { config, apis, originSecret } = props;
  // The account API has no custom domain: its own front door distribution, else its execute-api URL.
  const https = (hosts: Readonly<Record<PublicApiName, string> & { account?: string }>) => ({
    pets: `https://${hosts.pets}`,
    messages: `https://${hosts.messages}`,
    account: hosts.account ? `https://${hosts.account}` : apis.account.endpoint,
  });
  const needsDnsTargets = config.domains !== undefined && config.domains.hostedZone === undefined;
  if (config.frontDoor && originSecret) {
    const edge = props.frontDoorEdge ?? edgeHere(scope, config);
    const frontDoor = new PetStoreFrontDoor(scope, 'FrontDoor', {
      config,
      apis,
      edge,
      originSecret,
      ...(props.accessLogs ? { accessLogs: props.accessLogs } : {}),
    });
    return { origins: https(frontDoor.hosts), ...(needsDnsTargets ? { dnsTargets: frontDoor.dnsTargets } : {}) };
  }
  if (config.domains) {
    const domains = new PetStoreApiDomains(scope, 'Domains', { domains: config.domains, apis });
    return { origins: https(config.domains.names), ...(needsDnsTargets ? { dnsTargets: domains.dnsTargets } : {}) };
  }
  return { origins: { pets: apis.pets.endpoint, messages: apis.messages.endpoint, account: apis.account.endpoint } };
}

/** The web ACL (and certificate) in this stack: only where it deploys to CloudFront's region. */
function edgeHere(scope: Construct, config: StageConfig): FrontDoorEdge {
  const { region } = Stack.of(scope);
  if (Token.isUnresolved(region) || region !== CLOUDFRONT_CERTIFICATE_REGION) {
    throw new Error(
      `the front door's web ACL must be created in ${CLOUDFRONT_CERTIFICATE_REGION}; this stack deploys to ${region} (lib/petstore-app.ts makes an edge stack)`,
    );
  }
  if (!config.frontDoor) throw new Error('no front door configured');
  return new FrontDoorEdgeResources(scope, 'FrontDoorEdge', { config, frontDoor: config.frontDoor });
}
