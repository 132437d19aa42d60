/**
 * The API reference of the local server, readable without a key: `GET /v1/openapi.json` (the OpenAPI
 * document) and `GET /docs` (Swagger UI rendering it). Swagger UI is served from node_modules — no
 * CDN: this must work offline — and the page's Content-Security-Policy keeps every script local.
 * Local only: the deployed APIs serve neither (docs/openapi.json is the published document).
 */
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildOpenApiDocument } from '../openapi/document';
import type { OpenApiDocument, Server } from '../openapi/types';
import { PETS_BASE_PATH } from '../lib/routes';

export const OPENAPI_DOCUMENT_PATH = `${PETS_BASE_PATH}/openapi.json`;
export const API_REFERENCE_PATH = '/docs';
const ASSETS_PATH = `${API_REFERENCE_PATH}/assets/`;

const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const SWAGGER_UI_ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Pet Store API reference</title>
  <link rel="icon" type="image/png" href="${ASSETS_PATH}favicon-32x32.png">
  <link rel="stylesheet" href="${ASSETS_PATH}swagger-ui.css">
</head>
<body>
  <div id="api-reference"></div>
  <script src="${ASSETS_PATH}swagger-ui-bundle.js"></script>
  <script src="${ASSETS_PATH}start.js"></script>
</body>
</html>
`;

// validatorUrl: null — by default Swagger UI sends the document to validator.swagger.io for a badge.
const START_SCRIPT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_DOCUMENT_PATH)},
  dom_id: '#api-reference',
  deepLinking: true,
  displayOperationId: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

/** Scripts, styles and images from this server only; "Try it out" may call any server of the document. */
const PAGE_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src *";

const isLocal = (server: Server): boolean => server.url.startsWith('http://127.0.0.1:');

/**
 * The document as this server serves it: its own address first (so "Try it out" calls it) with the
 * port it really listens on. Everything else is exactly docs/openapi.json.
 */
export function documentForLocalServer(document: OpenApiDocument, port: number): OpenApiDocument {
  // The local server's variables (`port`, `messagesPort`) default to the port it really listens on.
  const withPort = (server: Server): Server =>
    isLocal(server) && server.variables
      ? {
          ...server,
          variables: Object.fromEntries(
            Object.entries(server.variables).map(([name, variable]) => [name, { ...variable, default: String(port) }]),
          ),
        }
      : server;
  const localFirst = (servers: readonly Server[]): Server[] =>
    [...servers.filter(isLocal), ...servers.filter((server) => !isLocal(server))].map(withPort);
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => [
          method,
          operation.servers ? { ...operation, servers: localFirst(operation.servers) } : operation,
        ]),
      ),
    ]),
  );
  return { ...document, servers: localFirst(document.servers), paths };
}

const documentTexts = new Map<number, string>();
const assetCache = new Map<string, Buffer>();

interface Answer {
  readonly status: number;
  readonly type: string;
  readonly body: string | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
}

async function answerFor(path: string, port: number): Promise<Answer | undefined> {
  if (path === OPENAPI_DOCUMENT_PATH) {
    let text = documentTexts.get(port);
    if (text === undefined) {
      text = JSON.stringify(documentForLocalServer(buildOpenApiDocument(), port), null, 2);
      documentTexts.set(port, text);
    }
    return { status: 200, type: 'application/json', body: text };
  }
  if (path === API_REFERENCE_PATH || path === `${API_REFERENCE_PATH}/`) {
    return { status: 200, type: 'text/html; charset=utf-8', body: PAGE, headers: { 'content-security-policy': PAGE_SECURITY_POLICY } };
  }
  if (!path.startsWith(ASSETS_PATH)) return undefined;
  const name = path.slice(ASSETS_PATH.length);
  if (name === 'start.js') return { status: 200, type: 'text/javascript; charset=utf-8', body: START_SCRIPT };
  const type = SWAGGER_UI_ASSETS[name];
  if (!type) return { status: 404, type: 'text/plain; charset=utf-8', body: 'not found' };
  let content = assetCache.get(name);
  if (!content) {
    content = await readFile(join(SWAGGER_UI_DIR, name));
    assetCache.set(name, content);
  }
  return { status: 200, type, body: content };
}

const isReferencePath = (path: string): boolean =>
  path === OPENAPI_DOCUMENT_PATH || path === API_REFERENCE_PATH || path.startsWith(`${API_REFERENCE_PATH}/`);

/**
 * Answers a GET for the reference pages and resolves to the status sent; `undefined` when the request
 * is not for them (it then goes to the gateway emulation like any API call).
 */
export function serveApiReference(method: string, path: string, port: number, response: ServerResponse): Promise<number> | undefined {
  if (method !== 'GET' || !isReferencePath(path)) return undefined;
  return answerFor(path, port).then(
    (answer) => {
      const { status, type, body, headers } = answer ?? { status: 404, type: 'text/plain; charset=utf-8', body: 'not found' };
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', ...headers });
      response.end(body);
      return status;
    },
    () => {
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('the API reference could not be served');
      return 500;
    },
  );
}
