import { createHash, timingSafeEqual } from 'node:crypto';
import { FRONT_DOOR_SECRET_ENV, FRONT_DOOR_SECRET_HEADER } from '#shared/origin-headers';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * Whether a request came through the stage's front door (`-c frontDoor=true`): CloudFront adds the
 * origin secret as a header, a request sent to the execute-api endpoint directly lacks it. Always
 * true when the stage has no front door (no secret in the environment). Compared in constant time, as
 * digests so that unequal lengths say nothing either. The secret is never logged.
 */
export function cameThroughFrontDoor(
  headers: Readonly<Record<string, string | undefined>> | undefined,
  secret: string | undefined = process.env[FRONT_DOOR_SECRET_ENV],
): boolean {
  if (secret === undefined || secret === '') return true;
  const presented = headers?.[FRONT_DOOR_SECRET_HEADER];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(secret));
}
