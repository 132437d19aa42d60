/**
 * local/identity/cognito.ts builds cognito-local from its internal modules and wraps some of its targets: this fails when an
 * installed cognito-local no longer has those parts with the shape used there, which an upgrade would break silently.
 */
import { CognitoError, InvalidParameterError } from 'cognito-local/lib/errors';
import { DefaultConfig } from 'cognito-local/lib/server/config';
import { Router } from 'cognito-local/lib/server/Router';
import { createServer } from 'cognito-local/lib/server/server';
import { DateClock } from 'cognito-local/lib/services/clock';
import { CognitoServiceFactoryImpl, CognitoServiceImpl } from 'cognito-local/lib/services/cognitoService';
import { StormDBDataStoreFactory } from 'cognito-local/lib/services/dataStore/stormDb';
import { MessageDeliveryService } from 'cognito-local/lib/services/messageDelivery/messageDelivery';
import { MessagesService } from 'cognito-local/lib/services/messages';
import { otp } from 'cognito-local/lib/services/otp';
import { JwtTokenGenerator } from 'cognito-local/lib/services/tokenGenerator';
import { attributeValue, UserPoolServiceFactoryImpl, UserPoolServiceImpl } from 'cognito-local/lib/services/userPoolService';
import { Targets } from 'cognito-local/lib/targets/targets';
import pino from 'pino';

test('every part local/identity/cognito.ts assembles the emulator from is there', () => {
  const parts = [CognitoError, InvalidParameterError, Router, createServer, DateClock, CognitoServiceFactoryImpl];
  for (const part of [...parts, StormDBDataStoreFactory, MessageDeliveryService, JwtTokenGenerator, UserPoolServiceFactoryImpl])
    expect(part).toBeInstanceOf(Function);
  expect(DefaultConfig.UserPoolDefaults).toBeInstanceOf(Object);
  expect(otp()).toMatch(/^\d{6}$/);
  expect(attributeValue('email', [{ Name: 'email', Value: 'a@example.com' }])).toBe('a@example.com');
});

test('the wrapped targets are its own, and the methods they call take the arguments given', () => {
  for (const target of ['SignUp', 'ConfirmForgotPassword', 'AdminSetUserPassword', 'ChangePassword', 'ForgotPassword'])
    expect(Targets).toHaveProperty(target);
  expect(CognitoServiceFactoryImpl.prototype).toHaveProperty(['create', 'length'], 2);
  expect(CognitoServiceImpl.prototype).toHaveProperty(['getUserPoolForClientId', 'length'], 2);
  expect(UserPoolServiceImpl.prototype).toHaveProperty(['getUserByUsername', 'length'], 2);
  expect(UserPoolServiceImpl.prototype).toHaveProperty(['saveUser', 'length'], 2);
});

test('a delivered message carries its code as `__code`, which the portal reads in place of an email', async () => {
  const sent: unknown[] = [];
  const sender = { sendEmail: (...args: unknown[]) => Promise.resolve(void sent.push(args[3])), sendSms: () => Promise.resolve() };
  const triggers = { enabled: () => false } as unknown as ConstructorParameters<typeof MessagesService>[0];
  const user = { Username: 'u', Attributes: [], Enabled: true, UserStatus: 'UNCONFIRMED' } as unknown as Parameters<
    MessagesService['deliver']
  >[4];
  const details = { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: 'a@example.com' } as const;
  const ctx = { logger: pino({ level: 'silent' }) };
  await new MessagesService(triggers, new MessageDeliveryService(sender)).deliver(
    ctx,
    'ResendCode',
    'c',
    'p',
    user,
    '123456',
    undefined,
    details,
  );
  expect(sent).toEqual([expect.objectContaining({ __code: '123456' })]);
});
