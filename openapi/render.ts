import { buildDocument, type DocumentDefinition } from './document';
import { ACCOUNT_DOCUMENT, DOCUMENTS, MESSAGES_DOCUMENT, PETS_DOCUMENT } from './documents';

/** The exact text of a committed document: `npm run openapi -- --check` and the drift test compare with it. */
export const renderDocument = (definition: DocumentDefinition): string => `${JSON.stringify(buildDocument(definition), null, 2)}\n`;

/** Where the generated documents are committed, relative to the project root. */
export const PETS_OPENAPI_FILE = PETS_DOCUMENT.file;
export const MESSAGES_OPENAPI_FILE = MESSAGES_DOCUMENT.file;
export const ACCOUNT_OPENAPI_FILE = ACCOUNT_DOCUMENT.file;

/** Every generated document: `npm run openapi` writes them, `-- --check` compares them. */
export const GENERATED_DOCUMENTS: readonly { readonly file: string; readonly render: () => string }[] = DOCUMENTS.map((definition) => ({
  file: definition.file,
  render: () => renderDocument(definition),
}));
