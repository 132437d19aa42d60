/**
 * The developer portal under /portal of the local server: the static files of portal/ and those of
 * shared/portal-files.ts, plus `config.json` with this machine's values (cognito-local, the local APIs) —
 * the same files the stack uploads to the portal bucket, with the same Content-Security-Policy. Like
 * CloudFront in front of the bucket, it answers GET and HEAD without a key, and /favicon.ico too: the
 * portal shares this origin with the APIs, and browsers ask the origin's root for an icon.
 */
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSWORD_POLICY, PORTAL_CONFIG_FILE, PORTAL_DIRECTORY, PORTAL_PATH, type PortalConfig } from '#shared/accounts';
import { PETS_BASE_PATH } from '#shared/routes';
import { CONTENT_TYPES, PORTAL_EXTRA_FILES, portalSecurityPolicy } from '#shared/portal-files';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What the local portal needs to know of the identity provider (cognito-local). */
export type PortalIdentity = Pick<PortalConfig, 'cognitoEndpoint' | 'userPoolId' | 'clientId'>;

/** config.json on this machine; the APIs are on the origin the page was loaded from, so its calls stay same-origin. */
export const localPortalConfig = (identity: PortalIdentity, origin: string): PortalConfig => ({
  stage: 'local',
  local: true,
  region: 'local',
  ...identity,
  accountBaseUrl: origin,
  petsBaseUrl: `${origin}${PETS_BASE_PATH}`,
  messagesBaseUrl: origin,
  passwordPolicy: PASSWORD_POLICY,
});

/** The connections a page may open: the portal's own origin, Cognito and the three APIs, nothing else. */
export const portalConnectOrigins = (config: PortalConfig): string[] => [
  ...new Set([config.cognitoEndpoint, config.accountBaseUrl, config.petsBaseUrl, config.messagesBaseUrl].map((url) => new URL(url).origin)),
];

const FAVICON = '/favicon.ico';
// shared/portal-files.ts has no type for icons; S3 serves them as image/vnd.microsoft.icon.
const TYPES: Readonly<Record<string, string>> = { ...CONTENT_TYPES, ico: 'image/vnd.microsoft.icon' };

/** Path under /portal → file: only files that exist in portal/ or are listed, so no path can reach anything else. */
const FILES: ReadonlyMap<string, string> = new Map([
  ...readdirSync(join(PROJECT_ROOT, PORTAL_DIRECTORY)).map((name) => [name, join(PROJECT_ROOT, PORTAL_DIRECTORY, name)] as const),
  ...Object.entries(PORTAL_EXTRA_FILES).map(([key, file]) => [key, join(PROJECT_ROOT, file)] as const),
]);

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string | Buffer;
}

const notFound: Answer = { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'not found' };

async function answerFor(path: string, config: PortalConfig): Promise<Answer> {
  if (path === FAVICON) return answerFor(`${PORTAL_PATH}${FAVICON}`, config);
  if (path === PORTAL_PATH) return { status: 308, headers: { location: `${PORTAL_PATH}/` }, body: '' };
  const name = path.slice(PORTAL_PATH.length + 1) || 'index.html';
  if (name === PORTAL_CONFIG_FILE)
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(config, null, 2) };
  const file = FILES.get(name);
  if (!file) return notFound;
  const type = TYPES[extname(name).slice(1)] ?? 'application/octet-stream';
  return { status: 200, headers: { 'content-type': type }, body: await readFile(file) };
}

/**
 * Answers a GET or HEAD under /portal (or for /favicon.ico) and resolves to the status sent; `undefined` when the request is not
 * for the portal (or no portal is configured), so it goes on to the gateway emulation.
 */
export function servePortal(
  request: IncomingMessage,
  path: string,
  response: ServerResponse,
  identity: PortalIdentity | undefined,
): Promise<number> | undefined {
  const forPortal = path === PORTAL_PATH || path.startsWith(`${PORTAL_PATH}/`) || path === FAVICON;
  if (!identity || (request.method !== 'GET' && request.method !== 'HEAD') || !forPortal) return undefined;
  const config = localPortalConfig(identity, `http://${request.headers.host ?? `127.0.0.1:${request.socket.localPort ?? ''}`}`);
  const policy = portalSecurityPolicy(portalConnectOrigins(config));
  return answerFor(path, config).then(
    ({ status, headers, body }) => {
      response.writeHead(status, {
        ...headers,
        'content-length': String(Buffer.byteLength(body)),
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'content-security-policy': policy,
      });
      response.end(request.method === 'HEAD' ? undefined : body);
      return status;
    },
    () => {
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('the portal could not be served');
      return 500;
    },
  );
}
