import { RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { AaaaRecord, ARecord, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { constructIdOf } from './construct-ids';
import type { CustomDomains, FrontDoor } from './edge-config';
import { FORWARDED_HOST_HEADER, FRONT_DOOR_SECRET_HEADER } from '#shared/origin-headers';
import { accessLogging } from './petstore-compliance';
import { certificateOf, hostedZoneOf } from './petstore-domains';
import type { PetStoreHttpApi } from './petstore-http-api';
import type { ApiName, PublicApiName } from '#shared/routes';
import type { StageConfig } from './stage-config';

/** What the distributions need from us-east-1, CloudFront's home region for WAF and certificates. */
export interface FrontDoorEdge {
  readonly webAclArn: string;
  /** For the custom domains, when the stage has them. */
  readonly certificate?: ICertificate;
}

/** The body API Gateway sends with its own throttling 429, so a client sees one answer for "slow down". */
const TOO_MANY_REQUESTS_BODY = JSON.stringify({ message: 'Too Many Requests' });
const TOO_MANY_REQUESTS_KEY = 'too-many-requests';

/**
 * Common rules that only count: our bodies are JSON the service never renders, opens or fetches. SizeRestrictions_BODY
 * blocks over 8 KB where the API takes 256 KiB; the others would refuse a pet name mentioning `<b>`, `../` or a URL.
 */
export const COUNTED_COMMON_RULES = [
  'SizeRestrictions_BODY',
  'CrossSiteScripting_BODY',
  'GenericLFI_BODY',
  'GenericRFI_BODY',
  'EC2MetaDataSSRF_BODY',
] as const;

/** The authorizer reads the scheme in any case and the key after any run of spaces: one key, one WAF aggregate. */
const AUTHORIZATION_AS_ONE_KEY: CfnWebACL.TextTransformationProperty[] = [
  { priority: 0, type: 'COMPRESS_WHITE_SPACE' },
  { priority: 1, type: 'LOWERCASE' },
];

export const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  metricName,
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
});

/**
 * The us-east-1 half of the front door (CloudFront takes web ACLs and certificates only from there): the web ACL and
 * the custom domains' certificate; in the main stack when that deploys to us-east-1, else in its own (lib/petstore-app.ts).
 */
export class FrontDoorEdgeResources extends Construct implements FrontDoorEdge {
  readonly webAclArn: string;
  readonly certificate?: ICertificate;

  constructor(scope: Construct, id: string, props: { readonly config: StageConfig; readonly frontDoor: FrontDoor }) {
    super(scope, id);
    const { config, frontDoor } = props;
    const prefix = `PetStore-${config.stage}-front-door`;
    const tooMany = { block: { customResponse: { responseCode: 429, customResponseBodyKey: TOO_MANY_REQUESTS_KEY } } };
    const webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: `PetStore ${config.stage}: rate limits per client IP and per API key or access token, and AWS common rules, in front of the APIs`,
      defaultAction: { allow: {} },
      visibilityConfig: visibility(prefix),
      customResponseBodies: { [TOO_MANY_REQUESTS_KEY]: { contentType: 'APPLICATION_JSON', content: TOO_MANY_REQUESTS_BODY } },
      rules: [
        {
          // First, so that a flooding address is refused before anything else looks at its requests.
          name: 'RateLimitPerClientIp',
          priority: 0,
          statement: {
            rateBasedStatement: { aggregateKeyType: 'IP', limit: frontDoor.rateLimit, evaluationWindowSec: frontDoor.rateWindowSeconds },
          },
          action: tooMany,
          visibilityConfig: visibility(`${prefix}-rate-limit`),
        },
        {
          // One key or access token spread over many addresses is still one client; WAF skips requests without
          // the header, which the per-IP rule holds.
          name: 'RateLimitPerApiKey',
          priority: 1,
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'CUSTOM_KEYS',
              customKeys: [{ header: { name: 'authorization', textTransformations: AUTHORIZATION_AS_ONE_KEY } }],
              limit: frontDoor.keyRateLimit,
              evaluationWindowSec: frontDoor.rateWindowSeconds,
            },
          },
          action: tooMany,
          visibilityConfig: visibility(`${prefix}-key-rate-limit`),
        },
        {
          name: 'AwsCommonRules',
          priority: 2,
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: COUNTED_COMMON_RULES.map((name) => ({ name, actionToUse: { count: {} } })),
            },
          },
          overrideAction: { none: {} },
          visibilityConfig: visibility(`${prefix}-common-rules`),
        },
      ],
    });
    this.webAclArn = webAcl.attrArn;
    if (config.domains) this.certificate = certificateOf(this, config.domains, hostedZoneOf(this, config.domains));
  }
}

export interface PetStoreFrontDoorProps {
  readonly config: StageConfig;
  readonly apis: Readonly<Record<ApiName, PetStoreHttpApi>>;
  readonly edge: FrontDoorEdge;
  /** Shared with the authorizer, which refuses requests that lack it. */
  readonly originSecret: Secret;
  /** compliance=control-tower: each distribution's standard logs go here, under the API's name. */
  readonly accessLogs?: IBucket;
}

/**
 * One CloudFront distribution per API with the stage's web ACL: HTTPS only, nothing cached, every method, every viewer
 * header but Host (API Gateway routes on its own), plus the origin secret. The custom domains live here, not on API Gateway.
 */
export class PetStoreFrontDoor extends Construct {
  /** The custom domain, or the distribution's *.cloudfront.net name. */
  readonly hosts: Readonly<Record<ApiName, string>>;
  /** Where a custom domain's DNS record must point. */
  readonly dnsTargets: Readonly<Record<PublicApiName, string>>;

  constructor(scope: Construct, id: string, props: PetStoreFrontDoorProps) {
    super(scope, id);
    const { config, apis, edge, originSecret, accessLogs } = props;
    const { region, urlSuffix } = Stack.of(this);
    const domains: CustomDomains | undefined = config.domains;
    const zone = domains ? hostedZoneOf(this, domains) : undefined;

    // CloudFront sends API Gateway its own Host; the host the client called travels in this header.
    const forwardHost = new CloudFrontFunction(this, 'ForwardHost', {
      runtime: FunctionRuntime.JS_2_0,
      comment: `Copies Host into ${FORWARDED_HOST_HEADER} for Location and Link`,
      code: FunctionCode.fromInline(
        `function handler(event) {\n  var request = event.request;\n  request.headers['${FORWARDED_HOST_HEADER}'] = { value: request.headers.host.value };\n  return request;\n}`,
      ),
    });

    const distributionFor = (name: ApiName): Distribution => {
      const customDomain = name === 'account' ? undefined : domains?.names[name];
      const distribution = new Distribution(this, `${constructIdOf(name)}Distribution`, {
        comment: `PetStore ${config.stage} ${name} API`,
        webAclId: edge.webAclArn,
        defaultBehavior: {
          origin: new HttpOrigin(`${apis[name].api.apiId}.execute-api.${region}.${urlSuffix}`, {
            protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
            originSslProtocols: [OriginSslPolicy.TLS_V1_2],
            customHeaders: { [FRONT_DOOR_SECRET_HEADER]: originSecret.secretValue.unsafeUnwrap() },
          }),
          // No redirect: a client that sent its key over plain HTTP must not be answered as if that worked.
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          functionAssociations: [{ function: forwardHost, eventType: FunctionEventType.VIEWER_REQUEST }],
        },
        httpVersion: HttpVersion.HTTP2_AND_3,
        ...accessLogging(accessLogs, name),
        // The TLS policy applies to a custom domain only; *.cloudfront.net keeps CloudFront's own.
        ...(customDomain && edge.certificate
          ? { domainNames: [customDomain], certificate: edge.certificate, minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021 }
          : {}),
      });
      Validations.of(distribution).acknowledge(
        { id: 'AwsSolutions-CFR1', reason: 'A public API for clients anywhere: no geo restriction.' },
        ...(accessLogs
          ? []
          : [
              {
                id: 'AwsSolutions-CFR3',
                reason:
                  'API Gateway access logs record every request that reaches the API; WAF metrics and sampled requests show what the front door refused.',
              },
            ]),
        ...(customDomain
          ? []
          : [
              {
                id: 'AwsSolutions-CFR4',
                reason:
                  'Without a custom domain CloudFront serves *.cloudfront.net with its default certificate, whose TLS policy cannot be set.',
              },
            ]),
      );
      if (zone && customDomain) {
        const target = RecordTarget.fromAlias(new CloudFrontTarget(distribution));
        new ARecord(this, `${constructIdOf(name)}Alias`, { zone, recordName: customDomain, target });
        new AaaaRecord(this, `${constructIdOf(name)}AliasIpv6`, { zone, recordName: customDomain, target });
      }
      return distribution;
    };
    const distributions = { pets: distributionFor('pets'), messages: distributionFor('messages'), account: distributionFor('account') };
    this.dnsTargets = { pets: distributions.pets.distributionDomainName, messages: distributions.messages.distributionDomainName };
    this.hosts = {
      pets: domains?.names.pets ?? distributions.pets.distributionDomainName,
      messages: domains?.names.messages ?? distributions.messages.distributionDomainName,
      account: distributions.account.distributionDomainName,
    };
  }
}

/**
 * The value CloudFront adds to every origin request and the authorizer expects (shared/origin-headers.ts): generated by
 * Secrets Manager, it reaches both through dynamic references at deploy time and appears in no template.
 */
export function frontDoorOriginSecret(scope: Construct, config: StageConfig): Secret {
  const secret = new Secret(scope, 'FrontDoorOriginSecret', {
    description: `PetStore ${config.stage}: the header value CloudFront sends so the APIs can tell its requests from direct ones`,
    generateSecretString: { passwordLength: 48, excludePunctuation: true },
    // Nothing to keep: a new stack makes a new secret and hands it to both sides.
    removalPolicy: RemovalPolicy.DESTROY,
  });
  Validations.of(secret).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'Rotation would need CloudFront and the authorizer to accept two values during a switch, which they do not (docs/deploy-reference.md, Front door).',
  });
  return secret;
}
