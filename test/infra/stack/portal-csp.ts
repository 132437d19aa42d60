/**
 * The portal's Content-Security-Policy on the synthesized template: its pages may connect to this
 * stage's own Cognito endpoint and API origins and nothing else — custom domains and the front door
 * included, never a wildcard over a region's API Gateway. The policy travels with the uploaded
 * objects (lib/petstore-portal.ts says why), so both halves are checked: what the deployment stores
 * and what the viewer-response function makes of it.
 */
import { runInNewContext } from 'node:vm';
import type { StageName } from '#shared/stages';
import { apiNamed, onlyResource, resourcesOfType, synth, variant, type Resource, type Synthesized } from '../support/synth';

/** A CloudFormation string value as text, references as `{LogicalId}` or `{LogicalId.Attribute}`. */
function rendered(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    if ('Ref' in value) return `{${String(value.Ref)}}`;
    if ('Fn::GetAtt' in value && Array.isArray(value['Fn::GetAtt'])) return `{${value['Fn::GetAtt'].join('.')}}`;
    if ('Fn::Join' in value && Array.isArray(value['Fn::Join'])) {
      const [separator, parts] = value['Fn::Join'] as [string, unknown[]];
      return parts.map(rendered).join(separator);
    }
  }
  throw new Error(`cannot render ${JSON.stringify(value)}`);
}

const directive = (policy: string, name: string): string[] =>
  policy
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([first]) => first === name)
    ?.slice(1) ?? [];

interface Portal {
  readonly storedPolicy: string;
  readonly headerFunction: (event: unknown) => { headers: Record<string, { value: string } | undefined> };
  readonly template: Synthesized['template'];
}

function portalOf({ template }: Synthesized): Portal {
  const [, deployment] = onlyResource(template, 'Custom::CDKBucketDeployment', () => true);
  const metadata = deployment.Properties.UserMetadata as Record<string, unknown>;
  const [[, fn]] = [...resourcesOfType(template, 'AWS::CloudFront::Function')].filter(([, candidate]) =>
    String((candidate.Properties.FunctionConfig as { Comment?: string }).Comment).startsWith('Developer portal'),
  ) as [[string, Resource]];
  const handler = runInNewContext(`${String(fn.Properties.FunctionCode)}\nhandler`) as Portal['headerFunction'];
  return { storedPolicy: rendered(metadata.csp), headerFunction: handler, template };
}

/** An HTTP API's own `https://<id>.execute-api.<region>.<suffix>`, as CloudFormation gives it. */
const executeApi = (template: Portal['template'], stage: StageName, api: 'pets' | 'messages' | 'account') =>
  `{${apiNamed(template, stage, api)}.ApiEndpoint}`;

describe("the portal's Content-Security-Policy", () => {
  it("a plain stage may connect to its site, its Cognito endpoint and its three APIs' execute-api origins, nothing else", () => {
    const { storedPolicy, template } = portalOf(synth('dev'));
    expect(directive(storedPolicy, 'connect-src')).toEqual([
      "'self'",
      'https://cognito-idp.{AWS::Region}.{AWS::URLSuffix}',
      executeApi(template, 'dev', 'account'),
      executeApi(template, 'dev', 'pets'),
      executeApi(template, 'dev', 'messages'),
    ]);
    expect(storedPolicy).not.toContain('*');
    // Everything else from the site only, and never framed.
    expect(directive(storedPolicy, 'default-src')).toEqual(["'self'"]);
    expect(directive(storedPolicy, 'script-src')).toEqual(["'self'"]);
    expect(directive(storedPolicy, 'frame-ancestors')).toEqual(["'none'"]);
  });

  it('a stage with custom domains on API Gateway lists those domains for the pets and messages APIs', () => {
    const { storedPolicy, template } = portalOf(variant('stagingWithOptions'));
    expect(directive(storedPolicy, 'connect-src')).toEqual([
      "'self'",
      'https://cognito-idp.eu-west-1.{AWS::URLSuffix}',
      executeApi(template, 'staging', 'account'),
      'https://api.example.com',
      'https://messages.example.com',
    ]);
  });

  it("a stage behind the front door lists the front door's domains, or its distributions where it has none", () => {
    const withDomains = portalOf(variant('frontDoorInUsEast1'));
    expect(directive(withDomains.storedPolicy, 'connect-src').slice(3)).toEqual([
      'https://api.example.com',
      'https://messages.example.com',
    ]);

    const bare = portalOf(variant('frontDoor'));
    const distribution = (name: string) =>
      onlyResource(bare.template, 'AWS::CloudFront::Distribution', (resource: Resource) =>
        String((resource.Properties.DistributionConfig as { Comment?: string }).Comment).includes(name),
      )[0];
    expect(directive(bare.storedPolicy, 'connect-src').slice(3)).toEqual([
      `https://{${distribution('pets')}.DomainName}`,
      `https://{${distribution('messages')}.DomainName}`,
    ]);
  });

  it('CloudFront sends the stored policy as the header, and a strict one without any API where an answer has none', () => {
    const { storedPolicy, headerFunction, template } = portalOf(synth('dev'));
    const answered = headerFunction({ response: { headers: { 'x-amz-meta-csp': { value: storedPolicy } } } });
    expect(answered.headers['content-security-policy']).toEqual({ value: storedPolicy });
    expect(answered.headers['x-amz-meta-csp']).toBeUndefined();

    const s3Error = headerFunction({ response: { headers: {} } }).headers['content-security-policy']?.value ?? '';
    expect(directive(s3Error, 'connect-src')).toEqual(["'self'"]);
    expect(directive(s3Error, 'frame-ancestors')).toEqual(["'none'"]);

    const [, headersPolicy] = onlyResource(template, 'AWS::CloudFront::ResponseHeadersPolicy', () => true);
    expect(JSON.stringify(headersPolicy.Properties)).not.toContain('ContentSecurityPolicy');
  });
});
