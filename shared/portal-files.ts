/**
 * The portal site's files from elsewhere in the project and its pages' security policy: the stack uploads them
 * (lib/petstore-portal.ts), `npm start` serves them (local/gateway/portal-server.ts).
 */

/** Bucket key (and path under /portal) → file relative to the project root. No CDN: nothing is loaded from the internet. */
export const PORTAL_EXTRA_FILES: Readonly<Record<string, string>> = {
  // Swagger UI renders the API reference (the same pinned package as the local /docs page).
  'vendor/swagger-ui-bundle.js': 'node_modules/swagger-ui-dist/swagger-ui-bundle.js',
  'vendor/swagger-ui.css': 'node_modules/swagger-ui-dist/swagger-ui.css',
  // The committed OpenAPI documents; the reference page puts this stage's base URLs into them (config.json).
  'openapi/pets.json': 'docs/openapi/pets.json',
  'openapi/messages.json': 'docs/openapi/messages.json',
  'openapi/account.json': 'docs/openapi/account.json',
};

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
  svg: 'image/svg+xml',
};

/** Everything from the site itself but calls to Cognito and the APIs; Swagger UI sets inline styles (never scripts). */
export const portalSecurityPolicy = (connectSources: readonly string[]): string =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self' ${connectSources.join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
  ].join('; ');
