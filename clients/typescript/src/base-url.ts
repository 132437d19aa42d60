/**
 * Checks the base URLs a client is given, so that a mix-up fails when the client is made rather than as a 404
 * on the first call. Each API has its own: the pets API's ends with `/v1` (the interface version), the messages
 * and account APIs' do not.
 */

/** `url` without a trailing slash, or a TypeError naming the option. */
function parseBaseUrl(option: string, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`${option} must be an absolute http(s) URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new TypeError(`${option} must be an http(s) URL, got ${JSON.stringify(url)}`);
  if (parsed.search !== '' || parsed.hash !== '' || parsed.username !== '' || parsed.password !== '')
    throw new TypeError(`${option} must have no query, fragment or credentials, got ${JSON.stringify(url)}`);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

const endsWithVersion = (url: string): boolean => url.endsWith('/v1');

/** The stack output `PetsBaseUrl`, e.g. `https://abc123.execute-api.us-east-1.amazonaws.com/v1`. */
export function petsBaseUrl(url: string): string {
  const base = parseBaseUrl('petsBaseUrl', url);
  if (!endsWithVersion(base))
    throw new TypeError(`petsBaseUrl must end with /v1 (the stack output PetsBaseUrl), got ${JSON.stringify(url)}`);
  return base;
}

/** The stack output `MessagesBaseUrl`: the messages API's own address, without `/v1`. */
export function messagesBaseUrl(url: string): string {
  const base = parseBaseUrl('messagesBaseUrl', url);
  if (endsWithVersion(base))
    throw new TypeError(
      `messagesBaseUrl is the messages API's own base URL, without /v1 (the stack output MessagesBaseUrl), got ${JSON.stringify(url)}`,
    );
  return base;
}

/** The stack output `AccountBaseUrl`: the account API's address, to which the client adds `/account/…`. */
export function accountBaseUrl(url: string): string {
  const base = parseBaseUrl('accountBaseUrl', url);
  if (base.endsWith('/account'))
    throw new TypeError(
      `accountBaseUrl is the API's address, without /account (the stack output AccountBaseUrl), got ${JSON.stringify(url)}`,
    );
  return base;
}
