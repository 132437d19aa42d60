/**
 * Checks the base URLs a client is given, so that a mix-up fails when the client is made rather than as a 404
 * on the first call: the pets API's ends with `/v1` (the interface version), the messages and account APIs' do not.
 */
const MISPLACED = {
  petsBaseUrl: [(base: string) => !base.endsWith('/v1'), 'must end with /v1 (the stack output PetsBaseUrl)'],
  messagesBaseUrl: [
    (base: string) => base.endsWith('/v1'),
    "is the messages API's own base URL, without /v1 (the stack output MessagesBaseUrl)",
  ],
  accountBaseUrl: [(base: string) => base.endsWith('/account'), "is the API's address, without /account (the stack output AccountBaseUrl)"],
} as const;

/** `url` without a trailing slash, or a TypeError naming the option. */
export function baseUrl(option: keyof typeof MISPLACED, url: string): string {
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
  const [misplaced, rule] = MISPLACED[option];
  if (misplaced(base)) throw new TypeError(`${option} ${rule}, ${got}`);
  return base;
}
