/**
 * What the front door (lib/petstore-front-door.ts) and the functions behind it agree on: the origin secret's header,
 * and the variables naming it and the forwarded host's header. No aws-cdk-lib import here on purpose.
 */

/** Sent by CloudFront to the API, never by clients; no access log or function log records headers. */
export const FRONT_DOOR_SECRET_HEADER = 'x-petstore-origin-secret';
/** The authorizer's copy of the secret; without it (no front door) every request counts as come through. */
export const FRONT_DOOR_SECRET_ENV = 'PETSTORE_FRONT_DOOR_SECRET';
/**
 * CloudFront must send API Gateway its own Host, so a viewer-request function copies the host the
 * client called into this header; Location and Link are built on it (lambda/http/absolute-url.ts).
 */
export const FORWARDED_HOST_HEADER = 'x-forwarded-host';
/** Set (to FORWARDED_HOST_HEADER) only behind the front door, where the header can be trusted. */
export const PUBLIC_HOST_HEADER_ENV = 'PETSTORE_PUBLIC_HOST_HEADER';
