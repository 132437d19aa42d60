/**
 * Checks the base URLs a client is given, so that a mix-up fails when the client is made rather than as a 404
 * on the first call: the pets API's ends with `/v1` (the interface version), the messages and account APIs' do not.
 */

/** `url` without a trailing slash, or a TypeError naming the option. */
function baseUrl(option: string, url: string, misplaced: (base: string) => boolean, rule: string): string {
  const got = `got ${JSON.stringify(url)}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`${option} must be an absolute http(s) URL, ${got}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new TypeError(`${option} must be an http(s) URL, ${got}`);
  if (parsed.search !== '' || parsed.hash !== '' || parsed.username !== '' || parsed.password !== '')
    throw new TypeError(`${option} must have no query, fragment or credentials, ${got}`);
  const base = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  if (misplaced(base)) throw new TypeError(`${option} ${rule}, ${got}`);
  return base;
}

export const petsBaseUrl = (url: string): string =>
  baseUrl('petsBaseUrl', url, (base) => !base.endsWith('/v1'), 'must end with /v1 (the stack output PetsBaseUrl)');

export const messagesBaseUrl = (url: string): string =>
  baseUrl(
    'messagesBaseUrl',
    url,
    (base) => base.endsWith('/v1'),
    "is the messages API's own base URL, without /v1 (the stack output MessagesBaseUrl)",
  );

export const accountBaseUrl = (url: string): string =>
  baseUrl(
    'accountBaseUrl',
    url,
    (base) => base.endsWith('/account'),
    "is the API's address, without /account (the stack output AccountBaseUrl)",
  );
