/** zod issues as the one-line, field-naming `message` of a 400 (the wording is contract; zod/mini has no locale). */
import type { core } from 'zod/mini';

export type InputLocation = 'body' | 'query' | 'path';

const MAX_ISSUES_REPORTED = 3;

function label(location: InputLocation, path: readonly PropertyKey[]): string {
  const name = path.map(String).join('.');
  if (location === 'body') return name ? `field '${name}'` : 'request body';
  return `${location === 'query' ? 'query' : 'path'} parameter '${name}'`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = Object.hasOwn(value, key) ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  }
  return value;
}

const TYPE_NAMES: Record<string, string> = {
  int: 'an integer',
  number: 'a number',
  string: 'a string',
  object: 'a JSON object',
  array: 'an array',
  boolean: 'a boolean',
};

function describe(issue: core.$ZodIssue, location: InputLocation, input: unknown): string {
  const where = label(location, issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys
        .map((key) => {
          if (location === 'body' && issue.path.length === 0 && key === 'id') {
            return "field 'id' is assigned by the service and must not be sent";
          }
          return location === 'body' ? `unknown ${label('body', [...issue.path, key])}` : `unknown ${label(location, [key])}`;
        })
        .join('; ');
    case 'invalid_type':
      if (location === 'body' && issue.path.length === 0) return 'request body must be a JSON object';
      if (valueAt(input, issue.path) === undefined) return `${where} is required`;
      return `${where} must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'too_small':
      if (issue.origin === 'string') {
        return issue.minimum === 1 ? `${where} must not be empty` : `${where} must have at least ${issue.minimum} characters`;
      }
      return `${where} must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `${where} must have at most ${issue.maximum} characters`;
      if (issue.origin === 'int' && issue.maximum === Number.MAX_SAFE_INTEGER) {
        return `${where} must be a safe integer (at most ${Number.MAX_SAFE_INTEGER})`;
      }
      return `${where} must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `${where} must be one of: ${issue.values.map(String).join(', ')}`;
    default:
      // Checks that carry their own wording (regex, refine) land here.
      return `${where} ${issue.message}`;
  }
}

export function describeIssues(issues: readonly core.$ZodIssue[], location: InputLocation, input: unknown): string {
  return issues
    .slice(0, MAX_ISSUES_REPORTED)
    .map((issue) => describe(issue, location, input))
    .join('; ');
}
