/**
 * Tells a program, once, that it uses a deprecated operation and when it goes away, with the date read from the
 * answer's `Sunset` header (RFC 8594). Through Node's warnings where there are some (`--no-deprecation` silences
 * them, `--throw-deprecation` makes them throw), else the console.
 */

interface WarningEmitter {
  emitWarning(warning: string, options: { type: string; code: string }): void;
}

const warned = new Set<string>();

function nodeProcess(): WarningEmitter | undefined {
  const candidate: unknown = Reflect.get(globalThis, 'process');
  return typeof candidate === 'object' && candidate !== null && typeof Reflect.get(candidate, 'emitWarning') === 'function'
    ? (candidate as WarningEmitter)
    : undefined;
}

/** `2030-12-05` from `Thu, 05 Dec 2030 00:00:00 GMT`; the header as it is when it is no date. */
function sunsetDate(sunset: string): string {
  const at = Date.parse(sunset);
  return Number.isNaN(at) ? sunset : new Date(at).toISOString().slice(0, 10);
}

/**
 * @param what the deprecated call, e.g. `PetStoreClient.getPet()`
 * @param sunset the answer's `Sunset` header; nothing is said until an answer carries one
 * @param instead what to use instead
 */
export function warnDeprecatedOnce(what: string, sunset: string | null, instead: string): void {
  if (sunset === null || warned.has(what)) return;
  warned.add(what);
  const message = `${what} is deprecated: the service removes it on ${sunsetDate(sunset)} (Sunset: ${sunset}). ${instead}`;
  const node = nodeProcess();
  if (node) node.emitWarning(message, { type: 'DeprecationWarning', code: 'PETSTORE_DEPRECATED_OPERATION' });
  else console.warn(`DeprecationWarning: ${message}`);
}
