/**
 * RFC 9110 media types, as a Content-Type header carries them: `type/subtype *( OWS ";" OWS [ name=value ] )`,
 * each value a token or a quoted string. Strict on syntax: a header that is not one is not read leniently.
 */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED_STRING = '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]|\\\\[\\t \\x21-\\x7e\\x80-\\xff])*"';
const PARAMETER = `(${TOKEN})=(${TOKEN}|${QUOTED_STRING})`;
const MEDIA_TYPE = new RegExp(`^(${TOKEN}/${TOKEN})((?:[ \\t]*;[ \\t]*(?:${PARAMETER})?)*)$`);
const MEDIA_TYPE_PARAMETER = new RegExp(PARAMETER, 'g');

export interface MediaType {
  /** `type/subtype`, lower-cased (media types are case-insensitive). */
  readonly essence: string;
  /** Names lower-cased, values unquoted. */
  readonly parameters: readonly (readonly [string, string])[];
}

/** The media type of a Content-Type value; undefined when the value is not one (RFC 9110 §8.3.1). */
export function parseMediaType(header: string): MediaType | undefined {
  const match = MEDIA_TYPE.exec(header.trim());
  if (!match?.[1]) return undefined;
  const parameters = [...(match[2] ?? '').matchAll(MEDIA_TYPE_PARAMETER)].map(([, name = '', value = '']): [string, string] => [
    name.toLowerCase(),
    value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value,
  ]);
  return { essence: match[1].toLowerCase(), parameters };
}
