/** What the portal needs on this machine: cognito-local (local/identity/cognito.ts) and the account API's JWT authorizer trusting it. */
import { startLocalCognito, type LocalCognito, type LocalCognitoOptions } from './cognito';
import { jwtAuthorizer } from '#local/gateway/jwt-authorizer';
import type { JwtAuthorizer } from '#shared/gateway-events';
import type { PortalIdentity } from '#local/gateway/portal-server';

export interface LocalAccounts {
  readonly cognito: LocalCognito;
  readonly accountAuthorizer: JwtAuthorizer;
  readonly portal: PortalIdentity;
  stop(): Promise<void>;
}

export async function startLocalAccounts(options: LocalCognitoOptions = {}): Promise<LocalAccounts> {
  const cognito = await startLocalCognito(options);
  return {
    cognito,
    accountAuthorizer: jwtAuthorizer({ issuer: cognito.issuer, audience: [cognito.clientId], jwksUrl: cognito.jwksUrl }),
    portal: { cognitoEndpoint: cognito.endpoint, userPoolId: cognito.userPoolId, clientId: cognito.clientId },
    stop: () => cognito.stop(),
  };
}
