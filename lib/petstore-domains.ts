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

/** The certificate for both names: `-c certificateArn`, or a new one ACM validates by DNS in the hosted zone. */
export function certificateOf(scope: Construct, domains: CustomDomains, zone: IHostedZone | undefined): ICertificate {
  if (domains.certificateArn) return Certificate.fromCertificateArn(scope, 'Certificate', domains.certificateArn);
  if (!zone) throw new Error('custom domains need a certificate ARN or a hosted zone');
  return new Certificate(scope, 'Certificate', {
    domainName: domains.names.pets,
    subjectAlternativeNames: [domains.names.messages],
    validation: CertificateValidation.fromDns(zone),
  });
}

/**
 * Stable addresses without the front door: one regional API Gateway custom domain per API, mapped at its root (the
 * pets routes carry `/v1` themselves). With a hosted zone, alias records point the names at them; otherwise the
 * operator points them at the `*DnsTarget` outputs.
 */
export class PetStoreApiDomains extends Construct {
  readonly dnsTargets: Readonly<Record<PublicApiName, string>>;

  constructor(
    scope: Construct,
    id: string,
    props: { readonly domains: CustomDomains; readonly apis: Readonly<Record<PublicApiName, PetStoreHttpApi>> },
  ) {
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
