/**
 * The developer portal under /portal: the files the stack uploads (portal/, shared/portal-files.ts) with the same
 * Content-Security-Policy, `config.json` with this machine's values, and /favicon.ico (browsers ask the root).
 */
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSWORD_POLICY, PORTAL_CONFIG_FILE, PORTAL_DIRECTORY, PORTAL_PATH, type PortalConfig } from '#shared/accounts';
import { PETS_BASE_PATH } from '#shared/routes';
import { CONTENT_TYPES, PORTAL_EXTRA_FILES, portalSecurityPolicy } from '#shared/portal-files';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type PortalIdentity = Pick<PortalConfig, 'cognitoEndpoint' | 'userPoolId' | 'clientId'>;

/** The APIs are on the page's origin, so its calls stay same-origin. */
const localPortalConfig = (identity: PortalIdentity, origin: string): PortalConfig => ({
  stage: 'local',
  local: true,
  region: 'local',
  ...identity,
  accountBaseUrl: origin,
  petsBaseUrl: `${origin}${PETS_BASE_PATH}`,
  messagesBaseUrl: origin,
  passwordPolicy: PASSWORD_POLICY,
});

const portalConnectOrigins = (config: PortalConfig): string[] => [
  ...new Set([config.cognitoEndpoint, config.accountBaseUrl, config.petsBaseUrl, config.messagesBaseUrl].map((url) => new URL(url).origin)),
];

const FAVICON = '/favicon.ico';
// shared/portal-files.ts has no type for icons; S3 serves them as image/vnd.microsoft.icon.
const TYPES: Readonly<Record<string, string>> = { ...CONTENT_TYPES, ico: 'image/vnd.microsoft.icon' };

/** Only files of portal/ or listed ones: no path reaches anything else. */
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

/** A GET or HEAD for the portal answered, resolving to the status; `undefined` for any other request. */
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
