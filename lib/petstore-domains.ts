import { ApiMapping, DomainName, EndpointType, SecurityPolicy } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate, CertificateValidation, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import { ARecord, HostedZone, RecordTarget, type IHostedZone } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayv2DomainProperties } from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';
import { constructIdOf } from './construct-ids';
import type { CustomDomains } from './edge-config';
import type { PetStoreHttpApi } from './petstore-http-api';
import type { PublicApiName } from '#shared/routes';

/** The Route 53 zone of `-c hostedZoneId/-c hostedZoneName`, when given. */
export const hostedZoneOf = (scope: Construct, domains: CustomDomains): IHostedZone | undefined =>
  domains.hostedZone
    ? HostedZone.fromHostedZoneAttributes(scope, 'HostedZone', { hostedZoneId: domains.hostedZone.id, zoneName: domains.hostedZone.name })
    : undefined;

/**
 * The certificate for both names: the one `-c certificateArn` names, or a new one that ACM validates
 * through records it writes in the hosted zone (the deploy waits until ACM has issued it). The
 * caller's stack decides the region: the API's for API Gateway, us-east-1 for CloudFront.
 */
export function certificateOf(scope: Construct, domains: CustomDomains, zone: IHostedZone | undefined): ICertificate {
  if (domains.certificateArn) return Certificate.fromCertificateArn(scope, 'Certificate', domains.certificateArn);
  if (!zone) throw new Error('custom domains need a certificate ARN or a hosted zone');
  return new Certificate(scope, 'Certificate', {
    domainName: domains.names.pets,
    subjectAlternativeNames: [domains.names.messages],
    validation: CertificateValidation.fromDns(zone),
  });
}

export interface PetStoreApiDomainsProps {
  readonly domains: CustomDomains;
  readonly apis: Readonly<Record<PublicApiName, PetStoreHttpApi>>;
}

/**
 * Stable addresses without the front door: one regional API Gateway custom domain per API (TLS 1.2),
 * each API mapped at the domain's root. The pets routes carry `/v1` themselves (shared/routes.ts), and
 * through a mapping without a key the functions see the same paths as on execute-api, so the pets
 * base URL is `https://<petsDomain>/v1`. With a hosted zone, alias records point the names at the
 * domains; otherwise the operator points them at the `*DnsTarget` outputs.
 */
export class PetStoreApiDomains extends Construct {
  /** API → the regional domain name its custom domain's DNS record must point at. */
  readonly dnsTargets: Readonly<Record<PublicApiName, string>>;

  constructor(scope: Construct, id: string, props: PetStoreApiDomainsProps) {
    super(scope, id);
    const { domains, apis } = props;
    const zone = hostedZoneOf(this, domains);
    const certificate = certificateOf(this, domains, zone);
    const domainFor = (name: PublicApiName): string => {
      const apiId = constructIdOf(name);
      const domainName = new DomainName(this, `${apiId}Domain`, {
        domainName: domains.names[name],
        certificate,
        endpointType: EndpointType.REGIONAL,
        securityPolicy: SecurityPolicy.TLS_1_2,
      });
      new ApiMapping(this, `${apiId}Mapping`, { api: apis[name].api, domainName, stage: apis[name].stage });
      if (zone) {
        new ARecord(this, `${apiId}Alias`, {
          zone,
          recordName: domains.names[name],
          target: RecordTarget.fromAlias(new ApiGatewayv2DomainProperties(domainName.regionalDomainName, domainName.regionalHostedZoneId)),
        });
      }
      return domainName.regionalDomainName;
    };
    this.dnsTargets = { pets: domainFor('pets'), messages: domainFor('messages') };
  }
}
