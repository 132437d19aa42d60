import { resolve } from 'node:path';

/** The directory holding package-lock.json and cdk.json; lib/routes.ts entries are relative to it. */
export const PROJECT_ROOT = resolve(__dirname, '../../..');
