/**
 * The API reference inside the portal: Swagger UI (shipped with the portal, no CDN) on the committed
 * OpenAPI documents, with this stage's base URLs from config.json as their only servers, so "Try it
 * out" calls this stage. A key just created in the portal (this tab only) is filled in already.
 */
import { SESSION, TRY_KEY } from './app-keys.js';

const config = await (await fetch('config.json', { cache: 'no-store' })).json();
const forAccount = new URLSearchParams(location.search).get('api') === 'account';
const spec = await (await fetch(forAccount ? 'openapi/account.json' : 'openapi/pets.json')).json();

// The documents list every stage's addresses as templates; here only this stage's, filled in.
if (forAccount) spec.servers = [{ url: config.accountBaseUrl, description: `This stage (${config.stage})` }];
else {
  spec.servers = [{ url: config.petsBaseUrl, description: `This stage (${config.stage})` }];
  // Operations with servers of their own are on the messages API (POST /messages).
  for (const item of Object.values(spec.paths))
    for (const operation of Object.values(item))
      if (operation.servers) operation.servers = [{ url: config.messagesBaseUrl, description: `This stage (${config.stage})` }];
}

const session = JSON.parse(sessionStorage.getItem(SESSION) ?? 'null');
const credential = forAccount ? session?.accessToken : sessionStorage.getItem(TRY_KEY);
document.querySelector('#try-note').textContent = credential
  ? forAccount
    ? 'Signed in: "Try it out" uses your access token.'
    : 'The key you just created is filled in: "Try it out" uses it.'
  : forAccount
    ? 'Sign in on the portal first to try these calls.'
    : 'Create a key on the portal, or paste one under "Authorize", to try these calls.';

// validatorUrl: null — by default Swagger UI sends the document to validator.swagger.io for a badge.
const ui = SwaggerUIBundle({
  spec,
  dom_id: '#api-reference',
  deepLinking: true,
  displayOperationId: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  onComplete: () => {
    if (credential) ui.preauthorizeApiKey(forAccount ? 'accessToken' : 'bearerAuth', credential);
  },
});
window.ui = ui;
