import { Annotations, Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import {
  AllowedMethods,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, CfnBucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PORTAL_CONFIG_FILE, PORTAL_DIRECTORY, type PortalConfig } from '#shared/accounts';
import { PORTAL_EXTRA_FILES, portalSecurityPolicy } from '#shared/portal-files';
import { accessLogging, type ControlTowerBasics } from './petstore-compliance';

export interface PetStorePortalProps {
  /** Directory holding portal/ and the files of shared/portal-files.ts. */
  readonly projectRoot: string;
  /** compliance=control-tower: the files encrypted with its key (CT.S3.PR.10), the distribution's logs in its bucket (CT.CLOUDFRONT.PR.5). */
  readonly controlTower?: ControlTowerBasics;
}

/** The object metadata (`x-amz-meta-csp`) that carries the Content-Security-Policy from the deployment to CloudFront. */
const CSP_METADATA = 'csp';

/**
 * `https://host` of a URL, tokens included: a `${Token[…]}` marker holds no slash, and a URL starting with one is an
 * endpoint such as API Gateway's `apiEndpoint`, scheme and host in one token.
 */
export function originOf(url: string): string {
  const origin = /^(?:https:\/\/)?[^/]+/.exec(url)?.[0] ?? '';
  if (!origin.startsWith('https://') && !(origin.startsWith('${Token[') && Token.isUnresolved(origin)))
    throw new Error(`not an https URL: ${url}`);
  return origin;
}

/**
 * The developer portal's site: a private S3 bucket behind CloudFront. `publish` is separate so the APIs can allow the
 * site's origin (CORS) before the config naming them is written. The CSP's `connect-src` names the APIs, which a response
 * headers policy cannot hold (a cycle): each object stores it and a viewer-response function makes it the header.
 */
export class PetStorePortal extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  readonly origin: string;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: PetStorePortalProps,
  ) {
    super(scope, id);
    const { controlTower } = props;
    // Rewritten by every deploy: nothing to keep.
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      ...(controlTower
        ? { encryption: BucketEncryption.KMS, encryptionKey: controlTower.key }
        : { encryption: BucketEncryption.S3_MANAGED }),
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'Static files written only by the deployment and read only through CloudFront; nothing to audit per request.',
    });

    const headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Developer portal: no framing, no sniffing, no referrer (the CSP comes from the objects)',
      securityHeadersBehavior: {
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Pet Store developer portal',
      defaultRootObject: 'index.html',
      priceClass: PriceClass.PRICE_CLASS_100,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.readable),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        responseHeadersPolicy: headers,
        functionAssociations: [{ eventType: FunctionEventType.VIEWER_RESPONSE, function: this.securityPolicyFunction() }],
      },
      ...accessLogging(controlTower?.accessLogs, 'portal'),
    });
    if (controlTower) {
      // The OAC origin adds CloudFront's kms:Decrypt to the key for this account's distributions, not this one: the
      // distribution needs the bucket, which needs the key. The bucket's policy still admits this distribution only.
      Annotations.of(Stack.of(this)).acknowledgeWarning(
        '@aws-cdk/aws-cloudfront-origins:wildcardKeyPolicyForOac',
        "The portal bucket's policy names its one distribution; the key's policy cannot without a dependency cycle.",
      );
    }
    Validations.of(this.distribution).acknowledge(
      { id: 'AwsSolutions-CFR1', reason: 'A public developer portal: no geographic restriction.' },
      { id: 'AwsSolutions-CFR2', reason: 'Static files only; the APIs behind it are throttled per stage.' },
      ...(controlTower
        ? []
        : [{ id: 'AwsSolutions-CFR3', reason: 'Static files only: no per-request log needed (the APIs keep access logs).' }]),
      {
        id: 'AwsSolutions-CFR4',
        reason: 'The default CloudFront domain and certificate; a custom domain with TLSv1.2_2021 is a separate change.',
      },
    );
    this.origin = `https://${this.distribution.distributionDomainName}`;
  }

  private securityPolicyFunction(): CloudFrontFunction {
    const header = `x-amz-meta-${CSP_METADATA}`;
    return new CloudFrontFunction(this, 'ContentSecurityPolicy', {
      comment: 'Developer portal: the Content-Security-Policy stored with each object',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(
        [
          'function handler(event) {',
          '  var headers = event.response.headers;',
          `  var stored = headers[${JSON.stringify(header)}];`,
          `  delete headers[${JSON.stringify(header)}];`,
          `  headers['content-security-policy'] = { value: stored ? stored.value : ${JSON.stringify(portalSecurityPolicy([]))} };`,
          '  return event.response;',
          '}',
        ].join('\n'),
      ),
    });
  }

  // Bucket's `isWebsite: boolean | undefined` is not IBucket's optional one under exactOptionalPropertyTypes.
  private get readable(): IBucket {
    return this.bucket as IBucket;
  }

  /** Uploads the site and this stage's config.json, and clears CloudFront's cache of the old ones. */
  publish(config: PortalConfig): BucketDeployment {
    const { projectRoot } = this.props;
    const deployment = new BucketDeployment(this, 'Deployment', {
      destinationBucket: this.readable,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
      metadata: {
        [CSP_METADATA]: portalSecurityPolicy([
          ...new Set([config.cognitoEndpoint, config.accountBaseUrl, config.petsBaseUrl, config.messagesBaseUrl].map(originOf)),
        ]),
      },
      sources: [
        Source.asset(join(projectRoot, PORTAL_DIRECTORY)),
        ...Object.entries(PORTAL_EXTRA_FILES).map(([key, file]) => Source.data(key, readFileSync(join(projectRoot, file), 'utf8'))),
        Source.jsonData(PORTAL_CONFIG_FILE, config),
      ],
    });
    // Its Lambda is one CDK-provided function per stack (outside this construct): acknowledged on it.
    const handler = deployment.handlerRole.node.scope;
    if (!handler) throw new Error('BucketDeployment has no handler function');
    const bucketResource = this.bucket.node.defaultChild;
    if (!(bucketResource instanceof CfnBucket)) throw new Error('the portal bucket has no CfnBucket');
    // The bootstrap assets bucket's ARN, as cdk-nag spells it: literal where the stack's env is known.
    const stack = Stack.of(this);
    const spelled = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
    const [partition, account, region] = [
      spelled(stack.partition, 'Partition'),
      spelled(stack.account, 'AccountId'),
      spelled(stack.region, 'Region'),
    ];
    const cdkOwned = (id: string) => ({
      id,
      reason: "BucketDeployment's own Lambda (CDK's construct): its role, runtime and S3 (and KMS) wildcards.",
    });
    Validations.of(handler).acknowledge(
      cdkOwned('AwsSolutions-L1'),
      cdkOwned('AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]'),
      // With the compliance key, CDK's grant on the bucket covers the key too (only it: the resource is the key's ARN).
      ...['s3:GetBucket*', 's3:GetObject*', 's3:List*', 's3:Abort*', 's3:DeleteObject*']
        .concat(this.bucket.encryptionKey ? ['kms:GenerateDataKey*', 'kms:ReEncrypt*'] : [])
        .map((action) => cdkOwned(`AwsSolutions-IAM5[Action::${action}]`)),
      cdkOwned(`AwsSolutions-IAM5[Resource::arn:${partition}:s3:::cdk-hnb659fds-assets-${account}-${region}/*]`),
      cdkOwned(`AwsSolutions-IAM5[Resource::<${stack.getLogicalId(bucketResource)}.Arn>/*]`),
      cdkOwned('AwsSolutions-IAM5[Resource::*]'),
    );
    return deployment;
  }
}
