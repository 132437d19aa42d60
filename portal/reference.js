/**
 * Swagger UI (shipped with the portal, no CDN) on the OpenAPI documents, with this stage's base URLs as their only
 * servers; it asks the portal page that opened it for the key just created or the access token.
 */
const config = await (await fetch('config.json', { cache: 'no-store' })).json();
const BASE_URLS = { pets: config.petsBaseUrl, messages: config.messagesBaseUrl, account: config.accountBaseUrl };
const requested = new URLSearchParams(location.search).get('api');
const api = requested in BASE_URLS ? requested : 'pets';
const forAccount = api === 'account';
const spec = await (await fetch(`openapi/${api}.json`)).json();

// The documents list every stage's addresses as templates; here only this stage's, filled in.
spec.servers = [{ url: BASE_URLS[api], description: `This stage (${config.stage})` }];
// The prose names npm start's default port; this page knows the one it is served from.
if (config.local) spec.info.description = spec.info.description.replaceAll('http://127.0.0.1:3000', location.origin);
// Keeps the headings in order: Swagger UI's title is an h1, its sections h3.
spec.info.description = `## About this API\n\n${spec.info.description}`;

// The portal page that opened this one, if it is still there (and on this origin).
const portal = (() => {
  try {
    return window.opener?.petstorePortal;
  } catch {
    return undefined;
  }
})();
const freshAccessToken = () => portal?.accessToken().catch(() => undefined) ?? Promise.resolve(undefined);
const credential = forAccount ? await freshAccessToken() : portal?.apiKey();
document.querySelector('#try-note').textContent = credential
  ? forAccount
    ? 'Signed in: "Try it out" uses your access token.'
    : 'The key you just created is filled in: "Try it out" uses it.'
  : forAccount
    ? 'Sign in on the portal, then open this page from there, to try these calls.'
    : 'Create a key on the portal and follow its "Use it in the API reference" link, or paste a key under "Authorize", to try these calls.';

// validatorUrl: null — by default Swagger UI sends the document to validator.swagger.io for a badge.
const ui = SwaggerUIBundle({
  spec,
  dom_id: '#api-reference',
  // Off: its links sit inside each operation's toggle button, a control inside a control to a screen reader.
  deepLinking: false,
  // Its colours for JSON numbers and strings are too faint on its dark code background.
  syntaxHighlight: { activated: false },
  displayOperationId: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  // Access tokens last minutes: each call takes the portal's current one, renewed there when due.
  requestInterceptor: async (request) => {
    const token = forAccount && credential ? await freshAccessToken() : undefined;
    if (token) request.headers.Authorization = `Bearer ${token}`;
    return request;
  },
  onComplete: () => {
    if (credential) ui.preauthorizeApiKey(forAccount ? 'accessToken' : 'bearerAuth', credential);
  },
});
window.ui = ui;

// What Swagger UI renders without a name, named whenever it renders (axe-core: every part in a landmark, every select labelled).
const reference = document.querySelector('#api-reference');
const name = (element, label, role) => {
  if (role) element.setAttribute('role', role);
  if (!element.hasAttribute('aria-label')) element.setAttribute('aria-label', label);
};
new window.MutationObserver(() => {
  for (const [selector, label] of [
    ['.information-container', 'About this API'],
    ['.scheme-container', 'Server and authorization'],
  ])
    for (const part of reference.querySelectorAll(selector)) name(part, label, 'region');
  for (const select of reference.querySelectorAll('select'))
    name(select, select.id === 'servers' ? 'Server' : (select.closest('tr')?.dataset.paramName ?? 'Example'));
  for (const table of reference.querySelectorAll('table[role=region]')) name(table, `Answers: ${table.id}`);
}).observe(reference, { childList: true, subtree: true });
