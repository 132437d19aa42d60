/**
 * What prod's route throttles let through in all, summed from the template (docs/capacity.md states it): requests/s
 * and Lambda invocations/s, a route behind the Lambda authorizer costing two invocations per request, one behind
 * the account API's JWT authorizer or none costing one.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { referencedId, resourcesOfType, synth } from '../support/synth';

interface Throttle {
  readonly ThrottlingRateLimit: number;
}

function prodSums(): { requests: number; invocations: number } {
  const { template } = synth('prod');
  const stages = [...resourcesOfType(template, 'AWS::ApiGatewayV2::Stage').values()];
  let requests = 0;
  let invocations = 0;
  for (const route of resourcesOfType(template, 'AWS::ApiGatewayV2::Route').values()) {
    const stage = stages.find((candidate) => referencedId(candidate.Properties.ApiId) === referencedId(route.Properties.ApiId));
    const settings = stage?.Properties as { DefaultRouteSettings: Throttle; RouteSettings?: Record<string, Throttle> };
    const { ThrottlingRateLimit: rate } = settings.RouteSettings?.[route.Properties.RouteKey as string] ?? settings.DefaultRouteSettings;
    requests += rate;
    invocations += rate * (route.Properties.AuthorizationType === 'CUSTOM' ? 2 : 1);
  }
  return { requests, invocations };
}

/** docs/capacity.md's sentence: "prod's route throttles add up to **N requests/s and M Lambda invocations/s**". */
function documented(): number[] {
  const text = readFileSync(resolve(__dirname, '../../../docs/capacity.md'), 'utf8');
  const figures = /add up to \*\*([\d,]+) requests\/s and ([\d,]+) Lambda invocations\/s\*\*/.exec(text);
  if (!figures) throw new Error("docs/capacity.md does not state what prod's route throttles add up to");
  return figures.slice(1).map((figure) => Number(figure.replaceAll(',', '')));
}

it("docs/capacity.md states what prod's route throttles add up to, every API's routes included, as the template has them", () => {
  const { requests, invocations } = prodSums();
  expect(documented()).toEqual([requests, invocations]);
});
