import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { FrontDoor } from './edge-config';
import { FrontDoorEdgeResources, type FrontDoorEdge } from './petstore-front-door';
import type { StageConfig } from './stage-config';

/** `PetStore-<stage>-edge`: the front door's us-east-1 part (web ACL, certificate) for a stage deployed elsewhere. */
export class PetStoreEdgeStack extends Stack {
  readonly edge: FrontDoorEdge;

  constructor(scope: Construct, id: string, props: StackProps & { readonly config: StageConfig; readonly frontDoor: FrontDoor }) {
    super(scope, id, props);
    this.edge = new FrontDoorEdgeResources(this, 'FrontDoor', { config: props.config, frontDoor: props.frontDoor });
  }
}
