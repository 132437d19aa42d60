import { repeatedMemberName } from '#http/middleware/unique-member-names';

test.each([
  ['{"a":1,"a":2}', 'a'],
  ['{"a":1,"b":{"c":1,"c":2}}', 'c'],
  ['[{"a":1},{"b":1,"b":2}]', 'b'],
  ['{"a":1,"\\u0061":2}', 'a'],
  ['{"x":"a,\\"b\\":{","x":1}', 'x'],
])('%s repeats %p', (text, name) => {
  expect(repeatedMemberName(text)).toBe(name);
});

test.each([
  '{"a":1,"b":2}',
  '[{"a":1},{"a":2}]',
  '{"a":{"a":{"a":1}}}',
  '{"a":"a","b":["a","a"]}',
  '{"a":"\\"a\\":1,"}',
  '{"a":',
  '"unterminated',
  '',
])('%s repeats nothing', (text) => {
  expect(repeatedMemberName(text)).toBeUndefined();
});
