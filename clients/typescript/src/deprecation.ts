/**
 * Tells a program once that it uses a deprecated operation and when it goes away, the date read from the answer's
 * `Sunset` header (RFC 8594): through Node's warnings where there are some (`--no-deprecation` silences them,
 * `--throw-deprecation` makes them throw), else the console.
 */
const warned = new Set<string>();

interface WarningEmitter {
  emitWarning(warning: string, options: { type: string; code: string }): void;
}

function nodeProcess(): WarningEmitter | undefined {
  const candidate: unknown = Reflect.get(globalThis, 'process');
  return typeof candidate === 'object' && candidate !== null && typeof Reflect.get(candidate, 'emitWarning') === 'function'
    ? (candidate as WarningEmitter)
    : undefined;
}

/** Says nothing until an answer carries `sunset`; names it as a date (`2030-12-05`) when it is one. */
export function warnDeprecatedOnce(what: string, sunset: string | null, instead: string): void {
  if (sunset === null || warned.has(what)) return;
  warned.add(what);
  const at = Date.parse(sunset);
  const date = Number.isNaN(at) ? sunset : new Date(at).toISOString().slice(0, 10);
  const message = `${what} is deprecated: the service removes it on ${date} (Sunset: ${sunset}). ${instead}`;
  const node = nodeProcess();
  if (node) node.emitWarning(message, { type: 'DeprecationWarning', code: 'PETSTORE_DEPRECATED_OPERATION' });
  else console.warn(`DeprecationWarning: ${message}`);
}
