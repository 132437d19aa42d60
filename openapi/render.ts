import { buildAccountOpenApiDocument } from './account-document';
import { buildOpenApiDocument } from './document';

/** Where the generated document is committed, relative to the project root. */
export const OPENAPI_FILE = 'docs/openapi.json';

/** The exact text of docs/openapi.json: the drift test compares the committed file with this. */
export const renderOpenApiDocument = (): string => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;

/** The account API's document (the developer portal), committed next to it. */
export const ACCOUNT_OPENAPI_FILE = 'docs/account-openapi.json';

export const renderAccountOpenApiDocument = (): string => `${JSON.stringify(buildAccountOpenApiDocument(), null, 2)}\n`;

/** Every generated document: `npm run openapi` writes them, `-- --check` compares them. */
export const GENERATED_DOCUMENTS: readonly { readonly file: string; readonly render: () => string }[] = [
  { file: OPENAPI_FILE, render: renderOpenApiDocument },
  { file: ACCOUNT_OPENAPI_FILE, render: renderAccountOpenApiDocument },
];
