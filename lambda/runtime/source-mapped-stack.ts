/**
 * Rewrites bundle positions in a stack trace into TypeScript ones from the map shipped with the bundle, only when an
 * error is logged: --enable-source-maps would parse every map at cold start (`npm run bench`, part 1).
 */
import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { fileURLToPath } from 'node:url';

/** A frame's `file:line:column`, for a `.js`, `.cjs` or `.mjs` file given as a path or file URL. */
const FRAME_LOCATION = /((?:file:\/\/)?\/[^\s():]+\.[cm]?js):(\d+):(\d+)/g;

/** One read per file and process; `undefined` remembers a file without a map (tests, the local server). */
const maps = new Map<string, SourceMap | undefined>();

function readMap(file: string): SourceMap | undefined {
  try {
    // esbuild names the map after the bundle (`index.js` → `index.js.map`).
    return new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as SourceMapPayload);
  } catch {
    return undefined;
  }
}

function mapOf(file: string): SourceMap | undefined {
  if (!maps.has(file)) maps.set(file, readMap(file));
  return maps.get(file);
}

/** esbuild's sources are relative to `cdk.out/<asset>/`: without the leading `../`, from the project root. */
const fromProjectRoot = (source: string): string => source.replace(/^(?:\.\.?\/)+/, '');

export function sourceMappedStack(stack: string): string {
  return stack.replace(FRAME_LOCATION, (location, file: string, line: string, column: string) => {
    const path = file.startsWith('file://') ? fileURLToPath(file) : file;
    const origin = mapOf(path)?.findOrigin(Number(line), Number(column));
    if (!origin || !('fileName' in origin)) return location;
    return `${fromProjectRoot(origin.fileName)}:${origin.lineNumber}:${origin.columnNumber}`;
  });
}
