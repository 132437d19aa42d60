/**
 * The doctor's check that a stage's alarms reach someone: after a deploy, each subscriber its options name
 * (alarmEmail, alarmHttpsEndpoint) is on the alarm topic and confirmed (SNS ListSubscriptionsByTopic); before one,
 * what is left to do; with neither, what `none` means.
 */
import { ListSubscriptionsByTopicCommand, SNSClient, type Subscription } from '@aws-sdk/client-sns';
import type { StageOptions } from '#shared/stage-options';
import { PLACEHOLDER, stageFileOf } from '#shared/stage-options';
import type { StageName } from '#shared/stages';
import { operatorRequestHandler, withCallDeadline } from '../aws-call-deadline';
import { stackResources, type AwsTarget } from '../aws-target';

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly fix?: string;
}

const NAME = 'alarm subscription';
/** What SNS writes in place of a subscription's ARN until the endpoint confirms it. */
const PENDING = 'PendingConfirmation';

/** The subscribers a stage's options ask for, as SNS names them (protocol, endpoint). */
function wanted(options: StageOptions): { protocol: 'email' | 'https'; endpoint: string }[] {
  const email = options.alarmEmail !== 'none' && !PLACEHOLDER.test(options.alarmEmail) ? options.alarmEmail : undefined;
  return [
    ...(email ? [{ protocol: 'email' as const, endpoint: email }] : []),
    ...(options.alarmHttpsEndpoint ? [{ protocol: 'https' as const, endpoint: options.alarmHttpsEndpoint }] : []),
  ];
}

async function subscriptionsOf(topicArn: string, target: AwsTarget, settings: Readonly<Record<string, unknown>>): Promise<Subscription[]> {
  const sns = withCallDeadline(
    new SNSClient({ ...settings, requestHandler: operatorRequestHandler(), region: target.region }),
    target.region,
  );
  const all: Subscription[] = [];
  try {
    let NextToken: string | undefined;
    do {
      const page = await sns.send(new ListSubscriptionsByTopicCommand({ TopicArn: topicArn, ...(NextToken ? { NextToken } : {}) }));
      all.push(...(page.Subscriptions ?? []));
      NextToken = page.NextToken;
    } while (NextToken);
  } finally {
    sns.destroy();
  }
  return all;
}

const FIXES = {
  email: (endpoint: string) =>
    `open the link in the mail "AWS Notification - Subscription Confirmation" sent to ${endpoint} (check its spam folder)`,
  https: (endpoint: string) =>
    `${endpoint} must confirm: SNS posted it a SubscriptionConfirmation whose SubscribeURL it has to GET (a chat service's own webhook cannot; docs/deploy-reference.md, Options)`,
};

/** `settings`: SDK client settings, for tests. */
export async function alarmSubscriptionChecks(
  stage: StageName,
  options: StageOptions,
  target: AwsTarget,
  settings: Readonly<Record<string, unknown>> = {},
): Promise<Check[]> {
  // A placeholder fails the stage file's own check already.
  if (PLACEHOLDER.test(options.alarmEmail)) return [];
  const subscribers = wanted(options);
  if (subscribers.length === 0) {
    return [
      {
        name: NAME,
        ok: true,
        detail: `none: ${stage}'s alarms still change state, show on its dashboard and roll canary deploys back, but tell no one; set alarmEmail or alarmHttpsEndpoint in ${stageFileOf(stage)} to be told`,
      },
    ];
  }
  let resources;
  try {
    resources = await stackResources(stage, target, settings);
  } catch (error) {
    if (!(error instanceof Error && /does not exist/.test(error.message))) throw error;
    const who = subscribers.map(({ endpoint }) => endpoint).join(' and ');
    return [
      {
        name: NAME,
        ok: true,
        detail: `not deployed yet: after the first deploy, confirm the subscription of ${who}, then run the doctor again`,
      },
    ];
  }
  const topic = resources.find((resource) => resource.type === 'AWS::SNS::Topic' && /AlarmsTopic/.test(resource.logicalId));
  if (!topic) return [{ name: NAME, ok: false, detail: 'the deployed stack has no alarm topic', fix: `deploy ${stage} from this version` }];
  const found = await subscriptionsOf(topic.physicalId, target, settings);
  return subscribers.map(({ protocol, endpoint }): Check => {
    const name = `${NAME} ${endpoint}`;
    const subscription = found.find((s) => s.Protocol === protocol && s.Endpoint === endpoint);
    if (!subscription) return { name, ok: false, detail: 'not on the alarm topic', fix: `deploy ${stage} with this ${stageFileOf(stage)}` };
    if (subscription.SubscriptionArn === PENDING)
      return { name, ok: false, detail: 'waiting for confirmation: no alarm reaches it', fix: FIXES[protocol](endpoint) };
    return { name, ok: true, detail: 'confirmed' };
  });
}
