import { Token, type App, type Environment } from 'aws-cdk-lib';
import { CLOUDFRONT_CERTIFICATE_REGION } from './edge-config';
import { PetStoreEdgeStack } from './petstore-edge-stack';
import { PetStoreStack } from './petstore-stack';
import type { StageConfig } from './stage-config';
import { stackNameOf } from '#shared/stages';

/**
 * The stacks of one stage. A front door's web ACL (and certificate) must be in us-east-1, where CloudFront takes them
 * from: in the stage's stack when it deploys there, else in an edge stack it reads across regions (cdk.json makes
 * cross-stack references weak: `Fn::GetStackOutput`, no custom resource), which needs both regions known.
 */
export function addPetStore(
  app: App,
  props: { readonly config: StageConfig; readonly projectRoot: string; readonly env: Environment },
): { readonly main: PetStoreStack; readonly edge?: PetStoreEdgeStack } {
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
