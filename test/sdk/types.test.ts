/**
 * The SDK's types, as a user's compiler sees them under the strictest options: a client program compiles, each
 * known mistake in types/must-not-compile.ts fails (an `@ts-expect-error` that no longer errors fails the
 * compilation), and `getPet` is reported deprecated, as editors strike it through.
 */
import { join, resolve } from 'node:path';
import ts from 'typescript';

const TYPES_DIR = resolve(__dirname, 'types');

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  // The files import the SDK's sources (`.ts`), as the repository's own code does.
  allowImportingTsExtensions: true,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
  skipLibCheck: true,
};

const where = (diagnostic: ts.Diagnostic): string => {
  const line =
    diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
  return `${diagnostic.file?.fileName ?? ''}:${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
};

function compile(file: string): string[] {
  const program = ts.createProgram([join(TYPES_DIR, file)], OPTIONS);
  return ts.getPreEmitDiagnostics(program).map(where);
}

/** A language service over one file: what an editor shows. */
function editorOf(file: string): { fileName: string; text: string; service: ts.LanguageService } {
  const fileName = join(TYPES_DIR, file);
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => OPTIONS,
    getScriptFileNames: () => [fileName],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => {
      const text = ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => TYPES_DIR,
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: (name) => ts.sys.fileExists(name),
    readFile: (name) => ts.sys.readFile(name),
  };
  return { fileName, text: ts.sys.readFile(fileName) ?? '', service: ts.createLanguageService(host) };
}

test('a client program using every operation, the iterator and narrowed errors compiles under strict options', () => {
  expect(compile('usage.ts')).toEqual([]);
}, 60_000);

test('the known mistakes do not compile: each @ts-expect-error meets its error', () => {
  expect(compile('must-not-compile.ts')).toEqual([]);
}, 60_000);

test('getPet is reported deprecated where it is called, and its documentation says until when and what instead', () => {
  const { fileName, text, service } = editorOf('usage.ts');
  try {
    const deprecated = service
      .getSuggestionDiagnostics(fileName)
      .filter((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').endsWith("of 'client.getPet' is deprecated."))
      .map((diagnostic) => text.slice(0, diagnostic.start).split('\n').length);
    const getPetCalls = text.split('\n').flatMap((line, index) => (line.includes('client.getPet(') ? [index + 1] : []));
    expect(getPetCalls).toHaveLength(2);
    expect(deprecated).toEqual(getPetCalls);
    const hover = service.getQuickInfoAtPosition(fileName, text.lastIndexOf('getPet(1)'));
    const tag = hover?.tags?.find((candidate) => candidate.name === 'deprecated');
    expect(ts.displayPartsToString(tag?.text)).toMatch(/5 December 2030.*listPets/s);
  } finally {
    service.dispose();
  }
}, 60_000);
