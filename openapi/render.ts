import { buildOpenApiDocument } from './document';

/** Where the generated document is committed, relative to the project root. */
export const OPENAPI_FILE = 'docs/openapi.json';

/** The exact text of docs/openapi.json: the drift test compares the committed file with this. */
export const renderOpenApiDocument = (): string => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
