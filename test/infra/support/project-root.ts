import { resolve } from 'node:path';

/** The directory holding package-lock.json and cdk.json; shared/routes.ts entries are relative to it. */
export const PROJECT_ROOT = resolve(__dirname, '../../..');
