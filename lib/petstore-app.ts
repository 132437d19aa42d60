import { Token, type App, type Environment } from 'aws-cdk-lib';
import { CLOUDFRONT_CERTIFICATE_REGION } from './edge-config';
import { PetStoreEdgeStack } from './petstore-edge-stack';
import { PetStoreStack } from './petstore-stack';
import type { StageConfig } from './stage-config';
import { stackNameOf } from '#shared/stages';

export interface PetStoreStacks {
  readonly main: PetStoreStack;
  /** `PetStore-<stage>-edge` in us-east-1: only for a front door of a stage deployed elsewhere. */
  readonly edge?: PetStoreEdgeStack;
}

export interface PetStoreAppProps {
  readonly config: StageConfig;
  readonly projectRoot: string;
  /** Where the stage deploys; the CDK CLI always knows the region (AWS_REGION, the profile, else us-east-1). */
  readonly env: Environment;
}

/**
 * The stacks of one stage. Without a front door, one environment-agnostic-capable stack as always.
 * With one, the WAF web ACL (and a certificate for custom domains) must be created in us-east-1, where
 * CloudFront takes them from: in the stage's stack when it deploys there, otherwise in an edge stack
 * there, which the stage's stack reads across regions. cdk.json makes cross-stack references weak, so
 * CDK writes that read as CloudFormation's `Fn::GetStackOutput` with the edge stack's region (no custom
 * resource); it needs both regions known, and the CDK CLI always provides the stage's.
 */
export function addPetStore(app: App, props: PetStoreAppProps): PetStoreStacks {
  const { config, projectRoot, env } = props;
  const stackName = stackNameOf(config.stage);
  const description = `Pet store service (${config.stage})`;
  const { terminationProtection } = config;
  if (!config.frontDoor || env.region === CLOUDFRONT_CERTIFICATE_REGION) {
    return { main: new PetStoreStack(app, stackName, { config, projectRoot, env, description, terminationProtection }) };
  }
  if (env.region === undefined || Token.isUnresolved(env.region)) {
    throw new Error(
      'frontDoor: the region the stage deploys to must be known to place its us-east-1 part; run through the CDK CLI (npm run cdk, npm run synth), which sets it',
    );
  }
  const edge = new PetStoreEdgeStack(app, `${stackName}-edge`, {
    config,
    frontDoor: config.frontDoor,
    env: { ...env, region: CLOUDFRONT_CERTIFICATE_REGION },
    terminationProtection,
    description: `Pet store service (${config.stage}): the front door's web ACL and certificate, in ${CLOUDFRONT_CERTIFICATE_REGION}`,
  });
  const main = new PetStoreStack(app, stackName, {
    config,
    projectRoot,
    env,
    description,
    terminationProtection,
    frontDoorEdge: edge.edge,
  });
  return { main, edge };
}
