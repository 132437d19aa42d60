import { createHash, timingSafeEqual } from 'node:crypto';
import { FRONT_DOOR_SECRET_ENV, FRONT_DOOR_SECRET_HEADER } from '#shared/origin-headers';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * Whether a request came through the stage's front door (CloudFront adds the origin secret); true without one.
 * Compared as digests in constant time, so not even the length leaks.
 */
export function cameThroughFrontDoor(
  headers: Readonly<Record<string, string | undefined>> | undefined,
  secret: string | undefined = process.env[FRONT_DOOR_SECRET_ENV],
): boolean {
  if (secret === undefined || secret === '') return true;
  const presented = headers?.[FRONT_DOOR_SECRET_HEADER];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(secret));
}
