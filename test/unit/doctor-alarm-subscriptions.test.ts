/**
 * The doctor's alarm-subscription check after a deploy, against a stand-in for CloudFormation's ListStackResources and
 * SNS's ListSubscriptionsByTopic (query protocol, XML, pages of NextToken as AWS documents: 100 a page), which refuses
 * a request without TopicArn or a SigV4 signature.
 */
import { createServer } from 'node:http';
import { readStageOptions } from '#shared/stage-options';
import { alarmSubscriptionChecks } from '../../scripts/doctor/alarm-subscriptions';
import { bodyOf, listenOnLoopback, type Listening } from '../support/loopback-server';

const TOPIC_ARN = 'arn:aws:sns:eu-west-1:123456789012:PetStore-staging-AlarmsTopic3A2DFEBA-abc';
/** Endpoint → SubscriptionArn (`PendingConfirmation` until confirmed); besides them, 150 others fill the first pages. */
let subscribed: Record<string, { protocol: string; arn: string }> = {};
const calls: string[] = [];

const PAGE = 100;
function answer(form: URLSearchParams): { status: number; body: string } {
  const action = form.get('Action') ?? '';
  calls.push(action);
  if (action === 'ListStackResources' && form.get('StackName') === 'PetStore-staging') {
    const member = `<member><LogicalResourceId>AlarmsTopic3A2DFEBA</LogicalResourceId><PhysicalResourceId>${TOPIC_ARN}</PhysicalResourceId><ResourceType>AWS::SNS::Topic</ResourceType><LastUpdatedTimestamp>2026-01-01T00:00:00Z</LastUpdatedTimestamp><ResourceStatus>CREATE_COMPLETE</ResourceStatus></member>`;
    return {
      status: 200,
      body: `<ListStackResourcesResponse><ListStackResourcesResult><StackResourceSummaries>${member}</StackResourceSummaries></ListStackResourcesResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></ListStackResourcesResponse>`,
    };
  }
  if (action === 'ListSubscriptionsByTopic' && form.get('TopicArn') === TOPIC_ARN) {
    const others = Array.from(
      { length: 150 },
      (_, n) => [`https://other-${n}.example.com/`, { protocol: 'https', arn: `${TOPIC_ARN}:o${n}` }] as const,
    );
    const all = [...others, ...Object.entries(subscribed)];
    const start = Number(form.get('NextToken') ?? 0);
    const page = all.slice(start, start + PAGE);
    const members = page
      .map(
        ([endpoint, { protocol, arn }]) =>
          `<member><TopicArn>${TOPIC_ARN}</TopicArn><Protocol>${protocol}</Protocol><SubscriptionArn>${arn}</SubscriptionArn><Owner>123456789012</Owner><Endpoint>${endpoint}</Endpoint></member>`,
      )
      .join('');
    const next = start + PAGE < all.length ? `<NextToken>${start + PAGE}</NextToken>` : '';
    return {
      status: 200,
      body: `<ListSubscriptionsByTopicResponse><ListSubscriptionsByTopicResult><Subscriptions>${members}</Subscriptions>${next}</ListSubscriptionsByTopicResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></ListSubscriptionsByTopicResponse>`,
    };
  }
  const code = action === 'ListSubscriptionsByTopic' ? 'InvalidParameter' : 'ValidationError';
  return {
    status: 400,
    body: `<ErrorResponse><Error><Type>Sender</Type><Code>${code}</Code><Message>the stand-in does not answer ${action}</Message></Error><RequestId>r</RequestId></ErrorResponse>`,
  };
}

let standIn: Listening;
beforeAll(async () => {
  const server = createServer((request, response) => {
    void bodyOf(request).then((text) => {
      const { status, body } = /Credential=\S+\/aws4_request/.test(request.headers.authorization ?? '')
        ? answer(new URLSearchParams(text))
        : { status: 403, body: 'missing SigV4 authorization' };
      response.writeHead(status, { 'content-type': 'text/xml' });
      response.end(body);
    });
  });
  standIn = await listenOnLoopback(server);
});
afterAll(() => standIn.close());
beforeEach(() => {
  calls.length = 0;
});

const settings = () => ({ endpoint: standIn.origin, credentials: { accessKeyId: 'AKIDSTANDIN', secretAccessKey: 'x' } });
const target = { region: 'eu-west-1', regionSource: '--region' };
const check = (overrides: Record<string, string>) =>
  alarmSubscriptionChecks('staging', readStageOptions('staging', overrides).options, target, settings());

it('an e-mail subscription still waiting for its click fails, saying which mail to open', async () => {
  subscribed = { 'ops@example.com': { protocol: 'email', arn: 'PendingConfirmation' } };
  expect(await check({ alarmEmail: 'ops@example.com' })).toEqual([
    {
      name: 'alarm subscription ops@example.com',
      ok: false,
      detail: 'waiting for confirmation: no alarm reaches it',
      fix: 'open the link in the mail "AWS Notification - Subscription Confirmation" sent to ops@example.com (check its spam folder)',
    },
  ]);
  // Past the first page of the topic's subscriptions.
  expect(calls.filter((action) => action === 'ListSubscriptionsByTopic')).toHaveLength(2);
});

it('confirmed e-mail and HTTPS subscriptions pass; a missing one fails', async () => {
  subscribed = {
    'ops@example.com': { protocol: 'email', arn: `${TOPIC_ARN}:1` },
    'https://hooks.example.com/alarms': { protocol: 'https', arn: `${TOPIC_ARN}:2` },
  };
  expect(await check({ alarmEmail: 'ops@example.com', alarmHttpsEndpoint: 'https://hooks.example.com/alarms' })).toEqual([
    { name: 'alarm subscription ops@example.com', ok: true, detail: 'confirmed' },
    { name: 'alarm subscription https://hooks.example.com/alarms', ok: true, detail: 'confirmed' },
  ]);
  const [missing] = await check({ alarmEmail: 'someone-else@example.com' });
  expect(missing).toMatchObject({ ok: false, detail: 'not on the alarm topic' });
});

it('an HTTPS endpoint that never confirmed fails, saying it must GET the SubscribeURL', async () => {
  subscribed = { 'https://hooks.example.com/alarms': { protocol: 'https', arn: 'PendingConfirmation' } };
  const [pending] = await check({ alarmHttpsEndpoint: 'https://hooks.example.com/alarms' });
  expect(pending).toMatchObject({ ok: false, fix: expect.stringContaining('SubscribeURL') });
});

it('with no subscriber (none) it passes and says what that means, calling nothing', async () => {
  const [none] = await check({});
  expect(none).toMatchObject({ ok: true, detail: expect.stringMatching(/^none: staging's alarms .* tell no one/) });
  expect(calls).toEqual([]);
});
