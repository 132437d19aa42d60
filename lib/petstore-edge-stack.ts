import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { FrontDoor } from './edge-config';
import { FrontDoorEdgeResources, type FrontDoorEdge } from './petstore-front-door';
import type { StageConfig } from './stage-config';

export interface PetStoreEdgeStackProps extends StackProps {
  readonly config: StageConfig;
  readonly frontDoor: FrontDoor;
}

/**
 * The front door's us-east-1 part (web ACL, certificate) for a stage deployed elsewhere:
 * `PetStore-<stage>-edge`, which the stage's stack reads through CDK's cross-region references.
 */
export class PetStoreEdgeStack extends Stack {
  readonly edge: FrontDoorEdge;

  constructor(scope: Construct, id: string, props: PetStoreEdgeStackProps) {
    super(scope, id, props);
    this.edge = new FrontDoorEdgeResources(this, 'FrontDoor', { config: props.config, frontDoor: props.frontDoor });
  }
}
