import { ApiError } from '#contract/errors';
import { CURSOR_PATTERN } from '#contract/schemas/list-pets-query';
import { decodeCursor, encodeCursor } from '#http/page-cursor';

describe('page cursors', () => {
  test('round-trip the position and the filter', () => {
    expect(decodeCursor(encodeCursor({ lastId: 123, status: 'sold' }), 'sold')).toEqual({ lastId: 123, status: 'sold' });
    expect(decodeCursor(encodeCursor({ lastId: 9 }), undefined)).toEqual({ lastId: 9 });
  });

  test('are URL-safe text, in the pattern the OpenAPI document shows', () => {
    expect(CURSOR_PATTERN.source).toBe('^[A-Za-z0-9_-]+$');
    expect(encodeCursor({ lastId: Number.MAX_SAFE_INTEGER, status: 'available' })).toMatch(CURSOR_PATTERN);
  });

  test('refuse text outside that pattern with the same message the query schema gives', () => {
    expect(() => decodeCursor('a.b', undefined)).toThrow("query parameter 'cursor' is not a cursor issued by this API for this filter");
  });

  test.each([
    ['another filter', encodeCursor({ lastId: 1, status: 'sold' }), 'pending'],
    ['a filtered cursor on the unfiltered list', encodeCursor({ lastId: 1, status: 'sold' }), undefined],
    ['padding added', `${encodeCursor({ lastId: 1 })}=`, undefined],
    ['a non-integer id', Buffer.from('{"v":1,"id":1.5}').toString('base64url'), undefined],
    ['a negative id', Buffer.from('{"v":1,"id":-1}').toString('base64url'), undefined],
    ['not JSON', Buffer.from('hello').toString('base64url'), undefined],
    ['JSON with other spacing', Buffer.from('{"v":1, "id":1}').toString('base64url'), undefined],
  ] as const)('refuse %s with a 400 invalid_request', (_label, text, status) => {
    expect(() => decodeCursor(text, status)).toThrow(ApiError);
    try {
      decodeCursor(text, status);
    } catch (error) {
      expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
    }
  });
});
