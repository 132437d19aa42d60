import type { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { runInNewContext } from 'node:vm';
import { stageConfig, type StageContext } from '#lib/stage-config';
import { STAGES } from '#shared/stages';
import {
  apiNamed,
  EDGE_CERTIFICATE_ARN,
  functionNamed,
  NAMES,
  referencedId,
  REGIONAL_CERTIFICATE_ARN,
  resourcesOfType,
  synth,
  synthesize,
  variant,
  ZONE,
  type Resource,
  type Synthesized,
} from '../support/synth';

/** AWS's ids of the managed CloudFront policies the front door uses. */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

const outputsOf = (template: Template) => template.findOutputs('*') as Record<string, { Value: unknown }>;
const only = (template: Template, type: string): Resource[] => [...resourcesOfType(template, type).values()];
/** The origin secret, not the stage check's key (the stage's other secret). */
const originSecrets = (template: Template): [string, Resource][] =>
  [...resourcesOfType(template, 'AWS::SecretsManager::Secret')].filter(([, secret]) =>
    /CloudFront/.test(String(secret.Properties.Description)),
  );
/** The front door's web ACLs; every stage also has a regional one on its user pool (test/infra/stack/identity.ts). */
const cloudFrontAcls = (template: Template): [string, Resource][] =>
  [...resourcesOfType(template, 'AWS::WAFv2::WebACL')].filter(([, acl]) => acl.Properties.Scope === 'CLOUDFRONT');
const findingsOf = (synthesized: Synthesized): string[] =>
  [synthesized.stack, ...(synthesized.edge ? [synthesized.edge.stack] : [])].flatMap((stack) =>
    new AwsSolutionsChecks()
      .validateScope(stack)
      .violations.map((violation) => `${violation.ruleName}: ${violation.violatingResources.length}`),
  );

describe('custom domains on API Gateway (-c petsDomain -c messagesDomain)', () => {
  const withCertificate = () => variant('stagingWithOptions');
  const withZone = () => variant('devWithOptions');

  it('each API gets a regional TLS 1.2 domain with the given certificate, mapped at its root to its $default stage', () => {
    const { template } = withCertificate();
    const domains = only(template, 'AWS::ApiGatewayV2::DomainName');
    expect(domains.map(({ Properties }) => Properties.DomainName).sort()).toEqual(['api.example.com', 'messages.example.com']);
    for (const { Properties } of domains) {
      expect(Properties.DomainNameConfigurations).toEqual([
        { CertificateArn: REGIONAL_CERTIFICATE_ARN, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' },
      ]);
    }
    const domainIds = new Map(
      [...resourcesOfType(template, 'AWS::ApiGatewayV2::DomainName')].map(([id, r]) => [id, r.Properties.DomainName]),
    );
    const mappings = only(template, 'AWS::ApiGatewayV2::ApiMapping').map(({ Properties }) => ({
      domain: domainIds.get(referencedId(Properties.DomainName) ?? ''),
      api: referencedId(Properties.ApiId),
      key: Properties.ApiMappingKey,
      stage: Properties.Stage,
    }));
    expect(mappings).toEqual(
      expect.arrayContaining([
        { domain: 'api.example.com', api: apiNamed(template, 'staging', 'pets'), key: undefined, stage: '$default' },
        { domain: 'messages.example.com', api: apiNamed(template, 'staging', 'messages'), key: undefined, stage: '$default' },
      ]),
    );
    expect(mappings).toHaveLength(2);
  });

  it('the base URLs become https://<petsDomain>/v1 and https://<messagesDomain>, and the DNS targets are output', () => {
    const outputs = outputsOf(withCertificate().template);
    expect(outputs.PetsBaseUrl?.Value).toBe('https://api.example.com/v1');
    expect(outputs.MessagesBaseUrl?.Value).toBe('https://messages.example.com');
    expect(JSON.stringify(outputs.PetsDnsTarget?.Value)).toContain('RegionalDomainName');
    expect(JSON.stringify(outputs.MessagesDnsTarget?.Value)).toContain('RegionalDomainName');
  });

  it('the execute-api endpoints of the pets and messages APIs are off by default, so nobody bypasses the domains', () => {
    const { template } = withCertificate();
    for (const [id, { Properties }] of resourcesOfType(template, 'AWS::ApiGatewayV2::Api')) {
      // The developer portal's account API has no custom domain: its execute-api URL is its address.
      expect([Properties.Name, Properties.DisableExecuteApiEndpoint]).toEqual([
        Properties.Name,
        id === apiNamed(template, 'staging', 'account') ? undefined : true,
      ]);
    }
  });

  it('with a hosted zone: a DNS-validated certificate for both names and an alias record per name; -c disableDefaultEndpoint=false keeps execute-api', () => {
    const { template } = withZone();
    expect(only(template, 'AWS::CertificateManager::Certificate').map(({ Properties }) => Properties)).toEqual([
      expect.objectContaining({
        DomainName: 'api.example.com',
        SubjectAlternativeNames: ['messages.example.com'],
        ValidationMethod: 'DNS',
        DomainValidationOptions: expect.arrayContaining([{ DomainName: 'api.example.com', HostedZoneId: ZONE.hostedZoneId }]),
      }),
    ]);
    const records = only(template, 'AWS::Route53::RecordSet').map(({ Properties }) => Properties);
    expect(records.map((record) => [record.Name, record.Type, record.HostedZoneId]).sort()).toEqual([
      ['api.example.com.', 'A', ZONE.hostedZoneId],
      ['messages.example.com.', 'A', ZONE.hostedZoneId],
    ]);
    for (const record of records) expect(JSON.stringify(record.AliasTarget)).toContain('RegionalDomainName');
    for (const { Properties } of only(template, 'AWS::ApiGatewayV2::Api')) expect(Properties.DisableExecuteApiEndpoint).toBeUndefined();
    expect(outputsOf(template).PetsDnsTarget).toBeUndefined();
  });

  it('cdk-nag finds nothing with custom domains', () => {
    expect(findingsOf(withCertificate())).toEqual([]);
    expect(findingsOf(withZone())).toEqual([]);
  });
});

/** The distributions in front of the APIs: the developer portal's own (an S3 origin) is not one of them. */
const apiDistributions = (template: Template) =>
  only(template, 'AWS::CloudFront::Distribution').filter(({ Properties }) =>
    (Properties.DistributionConfig as { Origins: Record<string, unknown>[] }).Origins.some((origin) => 'CustomOriginConfig' in origin),
  );

describe.each(STAGES)('%s stage without edge context', (stage) => {
  it('has no custom domain, CloudFront, WAF for the APIs, certificate, DNS record or secret, and execute-api base URLs', () => {
    const { template } = synth(stage);
    expect(cloudFrontAcls(template)).toEqual([]);
    for (const type of [
      'AWS::ApiGatewayV2::DomainName',
      'AWS::ApiGatewayV2::ApiMapping',
      'AWS::CertificateManager::Certificate',
      'AWS::Route53::RecordSet',
      'AWS::SecretsManager::Secret',
    ]) {
      // The stage check's key is a secret too, and no part of the entrance.
      const ofEntrance = type === 'AWS::SecretsManager::Secret' ? originSecrets(template) : [...resourcesOfType(template, type)];
      expect([type, ofEntrance.length]).toEqual([type, 0]);
    }
    // The one distribution is the developer portal's.
    expect(apiDistributions(template)).toEqual([]);
    expect(resourcesOfType(template, 'AWS::CloudFront::Distribution').size).toBe(1);
    expect(JSON.stringify(outputsOf(template).PetsBaseUrl?.Value)).toContain('ApiEndpoint');
  });
});

describe('the front door (-c frontDoor=true) of a stage outside us-east-1', () => {
  const frontDoor = () => variant('frontDoor');
  const edgeTemplate = (): Template => {
    const { edge } = frontDoor();
    if (!edge) throw new Error('expected an edge stack');
    return edge.template;
  };
  const webAcl = () => only(edgeTemplate(), 'AWS::WAFv2::WebACL')[0]?.Properties as Record<string, unknown>;
  const distributions = () =>
    apiDistributions(frontDoor().template).map(({ Properties }) => Properties.DistributionConfig as Record<string, unknown>);

  it("puts the WAF web ACL in a PetStore-<stage>-edge stack in us-east-1, CloudFront's region for it", () => {
    const { edge } = frontDoor();
    expect(edge?.stack.stackName).toBe('PetStore-staging-edge');
    expect(edge?.stack.region).toBe('us-east-1');
    expect(webAcl()).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
    expect(cloudFrontAcls(frontDoor().template)).toEqual([]);
  });

  it("blocks a client IP above the stage's limit per minute with 429 and API Gateway's throttling body", () => {
    const acl = webAcl();
    const rules = acl.Rules as Record<string, unknown>[];
    expect(rules[0]).toMatchObject({
      Priority: 0,
      Statement: { RateBasedStatement: { AggregateKeyType: 'IP', Limit: 600, EvaluationWindowSec: 60 } },
      Action: { Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'too-many-requests' } } },
    });
    expect(acl.CustomResponseBodies).toEqual({
      'too-many-requests': { ContentType: 'APPLICATION_JSON', Content: '{"message":"Too Many Requests"}' },
    });
  });

  it('runs the AWS common rules, counting (not blocking) the body rules that would refuse valid 256 KiB or free-text bodies', () => {
    const rules = webAcl().Rules as Record<string, unknown>[];
    expect(rules[2]).toMatchObject({
      Priority: 2,
      OverrideAction: { None: {} },
      Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesCommonRuleSet' } },
    });
    const overrides = (rules[2] as { Statement: { ManagedRuleGroupStatement: { RuleActionOverrides: unknown[] } } }).Statement
      .ManagedRuleGroupStatement.RuleActionOverrides;
    expect(overrides).toContainEqual({ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } });
    for (const override of overrides) expect(override).toMatchObject({ Name: expect.stringMatching(/_BODY$/), ActionToUse: { Count: {} } });
  });

  it('-c frontDoorRateLimit sets the per-client-IP limit', () => {
    const { edge } = variant('frontDoorWithZone');
    const acl = only(edge?.template as Template, 'AWS::WAFv2::WebACL')[0]?.Properties as { Rules: { Statement: unknown }[] };
    expect(acl.Rules[0]?.Statement).toEqual({ RateBasedStatement: { AggregateKeyType: 'IP', Limit: 2000, EvaluationWindowSec: 60 } });
  });

  it("puts one CloudFront distribution in front of each API's execute-api endpoint, the account API's too, with the web ACL read from the edge stack", () => {
    const { template } = frontDoor();
    const apiIds = (['pets', 'messages', 'account'] as const).map((api) => apiNamed(template, 'staging', api));
    const configs = distributions();
    expect(configs).toHaveLength(3);
    const originApis = configs.map((config) => {
      const [origin] = config.Origins as { DomainName: unknown }[];
      return JSON.stringify(origin?.DomainName);
    });
    for (const apiId of apiIds)
      expect(originApis.filter((domain) => domain.includes(`"${apiId}"`) && domain.includes('.execute-api.eu-west-1.'))).toHaveLength(1);
    for (const config of configs) {
      expect(config.WebACLId).toEqual({
        'Fn::GetStackOutput': { StackName: 'PetStore-staging-edge', Region: 'us-east-1', OutputName: expect.any(String) },
      });
    }
  });

  it('forwards every method and viewer header but Host over HTTPS only, caches nothing, and adds the origin secret from Secrets Manager', () => {
    const { template } = frontDoor();
    const [[secretId, secret] = ['', undefined]] = originSecrets(template);
    expect(secret?.Properties.GenerateSecretString).toEqual({
      ExcludePunctuation: true,
      PasswordLength: 48,
    });
    for (const config of distributions()) {
      expect(config.DefaultCacheBehavior).toMatchObject({
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        ViewerProtocolPolicy: 'https-only',
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      });
      const [origin] = config.Origins as Record<string, unknown>[];
      expect(origin?.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
      expect(origin?.OriginCustomHeaders).toEqual([
        {
          HeaderName: 'x-petstore-origin-secret',
          HeaderValue: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] },
        },
      ]);
    }
  });

  it('hands the authorizer the same secret, and the route functions the header that carries the host clients called', () => {
    const { template } = frontDoor();
    const [[secretId] = ['']] = originSecrets(template);
    const environment = (name: 'authorizer' | 'listPets' | 'createPet' | 'submitMessage' | 'notFound') =>
      (functionNamed(template, name)[1].Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(environment('authorizer').PETSTORE_FRONT_DOOR_SECRET).toEqual({
      'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']],
    });
    for (const name of ['listPets', 'createPet', 'submitMessage'] as const) {
      expect(environment(name).PETSTORE_PUBLIC_HOST_HEADER).toBe('x-forwarded-host');
      expect(environment(name).PETSTORE_FRONT_DOOR_SECRET).toBeUndefined();
    }
    expect(environment('notFound').PETSTORE_FRONT_DOOR_SECRET).toBeUndefined();
  });

  it('a viewer-request function copies the Host clients called into x-forwarded-host (API Gateway gets its own Host)', () => {
    const { template } = frontDoor();
    const [[functionId, cloudFrontFunction]] = [...resourcesOfType(template, 'AWS::CloudFront::Function')].filter(([, fn]) =>
      String(fn.Properties.FunctionCode).includes('x-forwarded-host'),
    ) as [[string, Resource]];
    for (const config of distributions()) {
      expect((config.DefaultCacheBehavior as { FunctionAssociations: unknown }).FunctionAssociations).toEqual([
        { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
      ]);
    }
    const handler = runInNewContext(`${String(cloudFrontFunction.Properties.FunctionCode)}\nhandler`) as (event: unknown) => {
      headers: Record<string, { value: string }>;
    };
    const request = handler({
      request: { headers: { host: { value: 'api.example.com' }, 'x-forwarded-host': { value: 'evil.example' } } },
    });
    expect(request.headers['x-forwarded-host']).toEqual({ value: 'api.example.com' });
    expect(request.headers.host).toEqual({ value: 'api.example.com' });
  });

  it("the base URLs are the distributions (the portal's account API too), and execute-api stays on as their origin", () => {
    const { template } = frontDoor();
    const outputs = outputsOf(template);
    expect(JSON.stringify(outputs.PetsBaseUrl?.Value)).toMatch(
      /"https:\/\/",\{"Fn::GetAtt":\["FrontDoorPetsDistribution\w+","DomainName"\]\},"\/v1"/,
    );
    expect(JSON.stringify(outputs.MessagesBaseUrl?.Value)).toMatch(
      /"https:\/\/",\{"Fn::GetAtt":\["FrontDoorMessagesDistribution\w+","DomainName"\]\}\]/,
    );
    expect(JSON.stringify(outputs.AccountBaseUrl?.Value)).toMatch(
      /"https:\/\/",\{"Fn::GetAtt":\["FrontDoorAccountDistribution\w+","DomainName"\]\}\]/,
    );
    for (const { Properties } of only(template, 'AWS::ApiGatewayV2::Api')) expect(Properties.DisableExecuteApiEndpoint).toBeUndefined();
  });

  it('cdk-nag finds nothing in either stack', () => {
    expect(findingsOf(frontDoor())).toEqual([]);
  });
});

describe('the front door of a stage in us-east-1', () => {
  it('keeps the web ACL in the stage stack itself: no edge stack, no cross-region read', () => {
    const synthesized = variant('frontDoorInUsEast1');
    expect(synthesized.edge).toBeUndefined();
    const [[aclId] = []] = cloudFrontAcls(synthesized.template);
    for (const { Properties } of apiDistributions(synthesized.template)) {
      expect((Properties.DistributionConfig as { WebACLId: unknown }).WebACLId).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    }
    expect(findingsOf(synthesized)).toEqual([]);
  });
});

describe('the front door with custom domains', () => {
  const withZone = () => variant('frontDoorWithZone');

  it('puts the names on the distributions (TLS 1.2), with a DNS-validated certificate made in us-east-1, and A/AAAA aliases', () => {
    const { template, edge } = withZone();
    expect(only(edge?.template as Template, 'AWS::CertificateManager::Certificate')[0]?.Properties).toMatchObject({
      DomainName: 'api.example.com',
      SubjectAlternativeNames: ['messages.example.com'],
      ValidationMethod: 'DNS',
    });
    expect(resourcesOfType(template, 'AWS::CertificateManager::Certificate').size).toBe(0);
    expect(resourcesOfType(template, 'AWS::ApiGatewayV2::DomainName').size).toBe(0);
    const all = apiDistributions(template).map(({ Properties }) => Properties.DistributionConfig as Record<string, unknown>);
    // The account API's distribution keeps its *.cloudfront.net name: the portal is its only caller.
    const configs = all.filter((config) => config.Aliases !== undefined);
    expect(configs.map((config) => config.Aliases).sort()).toEqual([['api.example.com'], ['messages.example.com']]);
    expect(all).toHaveLength(3);
    for (const config of configs) {
      expect(config.ViewerCertificate).toMatchObject({
        AcmCertificateArn: { 'Fn::GetStackOutput': expect.objectContaining({ StackName: 'PetStore-prod-edge', Region: 'us-east-1' }) },
        MinimumProtocolVersion: 'TLSv1.2_2021',
        SslSupportMethod: 'sni-only',
      });
    }
    const records = only(template, 'AWS::Route53::RecordSet').map(({ Properties }) => [Properties.Name, Properties.Type]);
    expect(records.sort()).toEqual([
      ['api.example.com.', 'A'],
      ['api.example.com.', 'AAAA'],
      ['messages.example.com.', 'A'],
      ['messages.example.com.', 'AAAA'],
    ]);
    expect(outputsOf(template).PetsBaseUrl?.Value).toBe('https://api.example.com/v1');
    expect(outputsOf(template).MessagesBaseUrl?.Value).toBe('https://messages.example.com');
  });

  it('with a us-east-1 certificate ARN and no zone, outputs the distributions as DNS targets', () => {
    const { template } = variant('frontDoorInUsEast1');
    expect(JSON.stringify(outputsOf(template).PetsDnsTarget?.Value)).toContain('FrontDoorPetsDistribution');
    expect(resourcesOfType(template, 'AWS::Route53::RecordSet').size).toBe(0);
  });

  it('cdk-nag finds nothing in either stack', () => {
    expect(findingsOf(withZone())).toEqual([]);
  });
});

describe('edge context is checked before anything is built', () => {
  const refused = (context: StageContext, message: RegExp) => expect(() => stageConfig('staging', context)).toThrow(message);

  it('refuses one domain without the other, the same name twice, and names that are not plain host names', () => {
    refused({ petsDomain: 'api.example.com', certificateArn: REGIONAL_CERTIFICATE_ARN }, /go together/);
    refused(
      { petsDomain: 'api.example.com', messagesDomain: 'api.example.com', certificateArn: REGIONAL_CERTIFICATE_ARN },
      /name of its own/,
    );
    refused({ ...NAMES, petsDomain: 'https://api.example.com', certificateArn: REGIONAL_CERTIFICATE_ARN }, /not a domain name/);
    refused({ ...NAMES, petsDomain: 'API.example.com', certificateArn: REGIONAL_CERTIFICATE_ARN }, /not a domain name/);
    refused({ ...NAMES, messagesDomain: '*.example.com', certificateArn: REGIONAL_CERTIFICATE_ARN }, /not a domain name/);
  });

  it('refuses domains without a certificate or a zone, a malformed ARN, a zone that does not hold the names, and half a zone', () => {
    refused({ ...NAMES }, /need certificateArn/);
    refused({ ...NAMES, certificateArn: 'arn:aws:acm:eu-west-1:123:certificate/x' }, /not an ACM certificate ARN/);
    refused({ ...NAMES, ...ZONE, hostedZoneName: 'example.org' }, /api.example.com is not in the hosted zone example.org/);
    refused({ ...NAMES, hostedZoneId: ZONE.hostedZoneId }, /go together/);
    refused({ ...NAMES, ...ZONE, hostedZoneId: 'zone-1' }, /not a Route 53 zone id/);
  });

  it('refuses domain settings without domains, and front door settings without the front door', () => {
    refused({ certificateArn: REGIONAL_CERTIFICATE_ARN }, /given without petsDomain and messagesDomain/);
    refused({ disableDefaultEndpoint: 'true' }, /given without petsDomain and messagesDomain/);
    refused({ frontDoorRateLimit: '100' }, /given without frontDoor/);
  });

  it('with the front door: the certificate must be in us-east-1, execute-api must stay on, the limit is a whole number of at least 10', () => {
    refused({ frontDoor: 'true', ...NAMES, certificateArn: REGIONAL_CERTIFICATE_ARN }, /certificates from us-east-1 only, not eu-west-1/);
    refused(
      { frontDoor: 'true', ...NAMES, certificateArn: EDGE_CERTIFICATE_ARN, disableDefaultEndpoint: 'true' },
      /origin is the execute-api endpoint/,
    );
    refused({ frontDoor: 'true', frontDoorRateLimit: '9' }, /at least 10/);
    refused({ frontDoor: 'true', frontDoorRateLimit: '1e3' }, /whole number/);
    refused({ frontDoor: 'yes' }, /neither true nor false/);
  });

  it('reads booleans and numbers from cdk.json as well as strings from the command line', () => {
    expect(stageConfig('staging', { frontDoor: true, frontDoorRateLimit: 50 }).frontDoor).toEqual({
      rateLimit: 50,
      keyRateLimit: 3000,
      rateWindowSeconds: 60,
    });
    expect(stageConfig('staging', { ...NAMES, ...ZONE, disableDefaultEndpoint: false }).domains?.disableDefaultEndpoint).toBe(false);
  });

  it('a front door needs the stage region known to place its us-east-1 part', () => {
    expect(() => synthesize('dev', { frontDoor: 'true' })).toThrow(/region the stage deploys to must be known/);
  });
});
