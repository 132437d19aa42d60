import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError } from '#contract/errors';

/** The first member name an object of `text` repeats, if any; malformed text ends the scan (JSON.parse refuses it). */
export function repeatedMemberName(text: string): string | undefined {
  // One entry per open container: the names seen so far for an object, undefined for an array.
  const open: (Set<string> | undefined)[] = [];
  let atName = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (end >= text.length) return undefined;
      const names = open.at(-1);
      if (atName && names) {
        let name: string;
        try {
          name = JSON.parse(text.slice(index, end + 1)) as string;
        } catch {
          return undefined;
        }
        if (names.has(name)) return name;
        names.add(name);
        atName = false;
      }
      index = end;
    } else if (char === '{') {
      open.push(new Set());
      atName = true;
    } else if (char === '[') {
      open.push(undefined);
      atName = false;
    } else if (char === '}' || char === ']') {
      open.pop();
      atName = false;
    } else if (char === ',') {
      atName = open.at(-1) !== undefined;
    } else if (char === ':') {
      atName = false;
    }
  }
  return undefined;
}

/** JSON.parse silently keeps the last of two equal names; I-JSON (RFC 7493) forbids them: 400. */
export const uniqueMemberNames = (): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: ({ event }) => {
    const repeated = typeof event.body === 'string' ? repeatedMemberName(event.body) : undefined;
    if (repeated !== undefined) {
      throw new ApiError(
        400,
        'invalid_json',
        `request body repeats the member name ${JSON.stringify(repeated)} in one object; send each name once`,
      );
    }
  },
});
