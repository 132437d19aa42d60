import { readStageOptions } from '#shared/stage-options';

describe('every number a stage option takes has an upper bound, refused as an option error', () => {
  it('canaryTrafficMinutes over 13 is refused: the pre-traffic check’s 2 minutes and the canary’s traffic end within Lambda’s 15', () => {
    expect(readStageOptions('staging', { canaryTrafficMinutes: '13' }).options.canaryTrafficMinutes).toBe(13);
    expect(() => readStageOptions('staging', { canaryTrafficMinutes: '14' })).toThrow(
      'canaryTrafficMinutes: "14" is not a whole number of at least 1 minutes (the pre-traffic check must end within Lambda’s 15), at most 13 (-c)',
    );
  });

  it('a percentage over 100, a retention CloudWatch Logs does not offer, a rate over API Gateway’s account throttle', () => {
    expect(() => readStageOptions('dev', { alarmServerErrorRatePercent: 101 })).toThrow(
      /alarmServerErrorRatePercent: 101 is .* at most 100 \(-c\)/,
    );
    expect(() => readStageOptions('dev', { logRetentionDays: '8' })).toThrow(
      /logRetentionDays: "8" is not a retention CloudWatch Logs offers/,
    );
    expect(readStageOptions('dev', { logRetentionDays: '3653' }).options.logRetentionDays).toBe(3653);
    expect(() => readStageOptions('dev', { petsRateLimit: '10001' })).toThrow(/petsRateLimit: "10001" is .* at most 10,000 \(-c\)/);
  });
});
