/**
 * Gradual deploys, stage by stage: on staging and prod every function is invoked through its live alias, which
 * CodeDeploy shifts to a new version as a canary and moves back when the stage's alarms fire; dev has none of it.
 */
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { functionNamed, referencedId, resourcesOfType, synth, type Resource } from '../support/synth';

const FUNCTIONS = DEPLOYED_FUNCTIONS.map((fn) => fn.name);

/** An alias id → the function id it points at (through its version). */
function aliasesOf(stage: 'dev' | 'staging' | 'prod'): Map<string, { fn: string; alias: Resource }> {
  const { template } = synth(stage);
  return new Map(
    [...resourcesOfType(template, 'AWS::Lambda::Alias')].map(([id, alias]) => [
      id,
      { fn: referencedId(alias.Properties.FunctionName) ?? '', alias },
    ]),
  );
}

const invokedIds = (value: unknown): string[] => {
  // `arn:…:function:<fn>` joined from a reference, or the alias's own reference.
  const text = JSON.stringify(value);
  return [...text.matchAll(/"(?:Ref|Fn::GetAtt)":\s*\[?"([A-Za-z0-9]+)"/g)].map((match) => match[1] ?? '');
};

describe.each(['staging', 'prod'] as const)('%s stage', (stage) => {
  const { template } = synth(stage);
  const aliases = aliasesOf(stage);
  const groups = resourcesOfType(template, 'AWS::CodeDeploy::DeploymentGroup');

  it.each(FUNCTIONS)('%s has a live alias whose updates CodeDeploy performs as a 10 %% canary for 10 minutes', (name) => {
    const [functionId] = functionNamed(template, name);
    const found = [...aliases].filter(([, { fn }]) => fn === functionId);
    expect(found).toHaveLength(1);
    const [, { alias }] = found[0] ?? ['', { alias: undefined }];
    const resource = alias as unknown as Resource & { UpdatePolicy?: { CodeDeployLambdaAliasUpdate?: { DeploymentGroupName: unknown } } };
    expect(resource.Properties.Name).toBe('live');
    const groupId = referencedId(resource.UpdatePolicy?.CodeDeployLambdaAliasUpdate?.DeploymentGroupName);
    const group = groups.get(groupId ?? '');
    expect(group?.Properties).toMatchObject({
      DeploymentConfigName: 'CodeDeployDefault.LambdaCanary10Percent10Minutes',
      DeploymentStyle: { DeploymentOption: 'WITH_TRAFFIC_CONTROL', DeploymentType: 'BLUE_GREEN' },
      AutoRollbackConfiguration: {
        Enabled: true,
        Events: expect.arrayContaining(['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM', 'DEPLOYMENT_STOP_ON_REQUEST']) as unknown,
      },
      AlarmConfiguration: { Enabled: true },
    });
  });

  it.each(FUNCTIONS)('%s rolls back on the 5xx rate alarm of every API it serves (and the authorizer on its own errors)', (name) => {
    const [functionId] = functionNamed(template, name);
    const [aliasId] = [...aliases].find(([, { fn }]) => fn === functionId) ?? [];
    const alias = resourcesOfType(template, 'AWS::Lambda::Alias').get(aliasId ?? '') as
      (Resource & { UpdatePolicy: { CodeDeployLambdaAliasUpdate: { DeploymentGroupName: unknown } } }) | undefined;
    const group = groups.get(referencedId(alias?.UpdatePolicy.CodeDeployLambdaAliasUpdate.DeploymentGroupName) ?? '');
    const alarmIds = (group?.Properties.AlarmConfiguration as { Alarms: { Name: unknown }[] }).Alarms.map((alarm) =>
      referencedId(alarm.Name),
    );
    const alarms = resourcesOfType(template, 'AWS::CloudWatch::Alarm');
    const descriptions = alarmIds.map((id) => String(alarms.get(id ?? '')?.Properties.AlarmDescription));
    expect(alarmIds.length).toBeGreaterThan(0);
    for (const id of alarmIds) expect(alarms.has(id ?? '')).toBe(true);
    expect(descriptions.every((text) => /5xx|authorizer failed|callers anonymous/.test(text))).toBe(true);
    const deployed = DEPLOYED_FUNCTIONS.find((fn) => fn.name === name);
    const apis = deployed?.route
      ? [deployed.route.api]
      : name === 'preflight'
        ? ['pets', 'messages', 'account']
        : name === 'accountNotFound'
          ? ['account']
          : ['pets', 'messages'];
    for (const api of apis) expect(descriptions).toContainEqual(expect.stringContaining(`of ${api} API requests answered 5xx`));
    if (name === 'authorizer') expect(descriptions).toContainEqual(expect.stringContaining('authorizer failed'));
  });

  it('every API integration and the Lambda authorizer invoke a live alias, never a function directly', () => {
    const aliasIds = new Set(aliases.keys());
    const functionIds = new Set(FUNCTIONS.map((name) => functionNamed(template, name)[0]));
    const targets = [
      ...[...resourcesOfType(template, 'AWS::ApiGatewayV2::Integration').values()].map(
        (integration) => integration.Properties.IntegrationUri,
      ),
      ...[...resourcesOfType(template, 'AWS::ApiGatewayV2::Authorizer').values()]
        .filter((authorizer) => authorizer.Properties.AuthorizerType === 'REQUEST')
        .map((authorizer) => authorizer.Properties.AuthorizerUri),
    ];
    expect(targets.length).toBeGreaterThan(FUNCTIONS.length);
    for (const target of targets) {
      const ids = invokedIds(target);
      expect(ids.some((id) => aliasIds.has(id))).toBe(true);
      expect(ids.filter((id) => functionIds.has(id))).toEqual([]);
    }
  });

  it('API Gateway may invoke the aliases only: every Lambda permission names one', () => {
    const aliasIds = new Set(aliases.keys());
    const functionIds = new Set(FUNCTIONS.map((name) => functionNamed(template, name)[0]));
    for (const permission of resourcesOfType(template, 'AWS::Lambda::Permission').values()) {
      const target = referencedId(permission.Properties.FunctionName) ?? '';
      if (functionIds.has(target)) throw new Error(`a permission on the bare function ${target}`);
      if (permission.Properties.Principal === 'apigateway.amazonaws.com') expect(aliasIds.has(target)).toBe(true);
    }
  });

  it('reserved concurrency stays on the writes themselves (shared by their versions), never on an alias', () => {
    for (const name of ['createPet', 'submitMessage'] as const) {
      expect(functionNamed(template, name)[1].Properties.ReservedConcurrentExecutions).toBeGreaterThan(0);
    }
    for (const { alias } of aliases.values()) expect(alias.Properties.ProvisionedConcurrencyConfig).toBeUndefined();
  });

  it('one CodeDeploy role, trusted by CodeDeploy alone, serves every deployment group', () => {
    const roles = new Set([...groups.values()].map((group) => referencedId(group.Properties.ServiceRoleArn)));
    expect(roles.size).toBe(1);
    const role = resourcesOfType(template, 'AWS::IAM::Role').get([...roles][0] ?? '');
    expect(JSON.stringify(role?.Properties.AssumeRolePolicyDocument)).toContain('codedeploy.amazonaws.com');
    expect(groups.size).toBe(FUNCTIONS.length);
  });
});

describe('dev stage', () => {
  const { template } = synth('dev');

  it('deploys at once: no alias, no version, no CodeDeploy', () => {
    for (const type of ['AWS::Lambda::Alias', 'AWS::Lambda::Version', 'AWS::CodeDeploy::Application', 'AWS::CodeDeploy::DeploymentGroup']) {
      expect(resourcesOfType(template, type).size).toBe(0);
    }
  });

  it('its integrations invoke the functions themselves', () => {
    const functionIds = new Set(FUNCTIONS.map((name) => functionNamed(template, name)[0]));
    for (const integration of resourcesOfType(template, 'AWS::ApiGatewayV2::Integration').values()) {
      expect(invokedIds(integration.Properties.IntegrationUri).some((id) => functionIds.has(id))).toBe(true);
    }
  });
});
