/**
 * Part 3's budgets: at most these DynamoDB calls and billed capacity units per request (bench/dynamodb-usage.ts
 * measures them). docs/performance.md's table states the same rows; test/unit/docs-references.test.ts compares.
 */
export const DYNAMODB_BUDGETS = {
  createPet: { calls: 1, units: 2 },
  'createPet with Idempotency-Key': { calls: 2, units: 3 },
  'createPet replayed (same key and body)': { calls: 4, units: 4 },
  getPet: { calls: 1, units: 1 },
  'listPets ?status=sold&limit=20': { calls: 2, units: 1 },
  'listPets ?limit=20 (unfiltered)': { calls: 1, units: 1 },
  submitMessage: { calls: 1, units: 1 },
  'authorizer, made-up key': { calls: 0, units: 0 },
  'authorizer, key not cached': { calls: 1, units: 1 },
  'authorizer, key not cached, first use in the hour': { calls: 2, units: 3 },
  'listAccountKeys, long history': { calls: 1, units: 3 },
  'createAccountKey, long history': { calls: 3, units: 4 },
  'revokeAccountKey, long history': { calls: 3, units: 7 },
} as const satisfies Record<string, { readonly calls: number; readonly units: number }>;
