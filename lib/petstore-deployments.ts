import { Validations } from 'aws-cdk-lib';
import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import { LambdaApplication, LambdaDeploymentGroup, type ILambdaDeploymentConfig } from 'aws-cdk-lib/aws-codedeploy';
import { ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Alias, IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { constructIdOf } from './construct-ids';
import type { FunctionName } from '#shared/table-access';

/** One function whose live alias CodeDeploy moves, and the alarms that stop the move. */
interface ShiftedFunction {
  readonly name: FunctionName;
  readonly live: Alias;
  /** At most 10 (CodeDeploy's limit per deployment group). */
  readonly rollbackAlarms: readonly IAlarm[];
}

export interface PetStoreDeploymentsProps {
  readonly config: ILambdaDeploymentConfig;
  readonly functions: readonly ShiftedFunction[];
  /** Runs the stage check against the new versions before any traffic moves (lib/petstore-stage-check.ts). */
  readonly preHook?: IFunction;
  /** `-c hotfix=true`: this deploy shifts without looking at the alarms (lib/stage-config.ts). */
  readonly ignoreAlarms: boolean;
}

/**
 * Gradual deploys: CloudFormation hands a function's alias update to CodeDeploy, which shifts the traffic to the new
 * version and moves the alias back if one of its alarms fires, or the deployment fails or is stopped.
 */
export class PetStoreDeployments extends Construct {
  constructor(scope: Construct, id: string, props: PetStoreDeploymentsProps) {
    super(scope, id);
    const application = new LambdaApplication(this, 'Application');
    // One role for every group: the construct would otherwise make one per function, each with the managed policy.
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('codedeploy.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSCodeDeployRoleForLambdaLimited')],
      description: 'CodeDeploy: shifts the live aliases of the stage and reads its alarms',
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason: "AWS's policy for CodeDeploy on Lambda: alias updates, alarm reads and its own hook functions only.",
    });
    // AWS's policy lets CodeDeploy invoke hooks named CodeDeployHook_* only; ours is named by CloudFormation.
    if (props.preHook)
      role.addToPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [props.preHook.functionArn] }));
    // Each group adds the managed policy to its role again; the role above already has it.
    const sharedRole = role.withoutPolicyUpdates();

    for (const { name, live, rollbackAlarms } of props.functions) {
      if (rollbackAlarms.length === 0 || rollbackAlarms.length > 10) {
        throw new Error(`${name}: a deployment group takes 1 to 10 rollback alarms, not ${rollbackAlarms.length}`);
      }
      new LambdaDeploymentGroup(this, constructIdOf(name), {
        application,
        alias: live,
        deploymentConfig: props.config,
        role: sharedRole,
        alarms: [...rollbackAlarms],
        ignoreAlarmConfiguration: props.ignoreAlarms,
        ...(props.preHook ? { preHook: props.preHook } : {}),
        autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
      });
    }
  }
}
