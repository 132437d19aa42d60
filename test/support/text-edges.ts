/** Characters text rules tell apart, shared by the tests that hold the rules and the document to each other. */

/** What JS `\s` (and so `trim`) calls whitespace, Unicode spaces included. */
export const WHITESPACE = [
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u2007',
  '\u200a',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
] as const;
