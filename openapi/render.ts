import { buildDocument } from './document';
import { ACCOUNT_DOCUMENT, DOCUMENTS, MESSAGES_DOCUMENT, PETS_DOCUMENT } from './documents';

/** Where the generated documents are committed, relative to the project root. */
export const PETS_OPENAPI_FILE = PETS_DOCUMENT.file;
export const MESSAGES_OPENAPI_FILE = MESSAGES_DOCUMENT.file;
export const ACCOUNT_OPENAPI_FILE = ACCOUNT_DOCUMENT.file;

/** Every generated document and its exact committed text: `npm run openapi` writes them, `-- --check` compares them. */
export const GENERATED_DOCUMENTS: readonly { readonly file: string; readonly render: () => string }[] = DOCUMENTS.map((definition) => ({
  file: definition.file,
  render: () => `${JSON.stringify(buildDocument(definition), null, 2)}\n`,
}));
