import { AdminDeleteUserCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DependencyUnavailableError } from '#contract/domain-errors';

/** The user pool, as the account API needs it: removing a user's sign-in. */
export interface AccountDirectory {
  /** Deletes the user; a user already gone counts as deleted (a retried account deletion). */
  deleteUser(username: string): Promise<void>;
}

export class CognitoAccountDirectory implements AccountDirectory {
  constructor(
    private readonly cognito: CognitoIdentityProviderClient,
    private readonly userPoolId: string,
  ) {}

  async deleteUser(username: string): Promise<void> {
    try {
      await this.cognito.send(new AdminDeleteUserCommand({ UserPoolId: this.userPoolId, Username: username }));
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (name === 'UserNotFoundException') return;
      // Cognito's request-rate quota is a client fault to the SDK; to our caller it is "retry later".
      if (name === 'TooManyRequestsException' || name === 'LimitExceededException')
        throw new DependencyUnavailableError('the user pool', { cause: error });
      throw error;
    }
  }
}
