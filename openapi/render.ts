import { buildDocument, type DocumentDefinition } from './document';
import { ACCOUNT_DOCUMENT, DOCUMENTS, SERVICE_DOCUMENT } from './documents';

/** The exact text of a committed document: `npm run openapi -- --check` and the drift test compare with it. */
export const renderDocument = (definition: DocumentDefinition): string => `${JSON.stringify(buildDocument(definition), null, 2)}\n`;

/** Where the generated documents are committed, relative to the project root. */
export const OPENAPI_FILE = SERVICE_DOCUMENT.file;
export const ACCOUNT_OPENAPI_FILE = ACCOUNT_DOCUMENT.file;

/** Every generated document: `npm run openapi` writes them, `-- --check` compares them. */
export const GENERATED_DOCUMENTS: readonly { readonly file: string; readonly render: () => string }[] = DOCUMENTS.map((definition) => ({
  file: definition.file,
  render: () => renderDocument(definition),
}));
