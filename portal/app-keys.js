/** Names shared by the portal's pages (sessionStorage: this tab only). */
export const SESSION = 'petstore.session';
/** A new key handed to the API reference page ("Use it in the API reference"). */
export const TRY_KEY = 'petstore.tryKey';
