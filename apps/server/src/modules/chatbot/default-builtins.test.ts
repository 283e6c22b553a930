import { describe, expect, it } from 'vitest';
import { listWithin } from './default-builtins';

describe('listWithin', () => {
  it('keeps the list within the limit and says how many are left', () => {
    const names = Array.from({ length: 50 }, (_, i) => `!command${i}`);
    const line = listWithin('Commands: ', names, 200);
    expect([...line].length).toBeLessThanOrEqual(200);
    expect(line).toMatch(/, and \d+ more$/);
    expect(listWithin('Commands: ', ['!a', '!b'], 200)).toBe('Commands: !a, !b');
    expect(listWithin('Commands: ', [], 200)).toBe('Commands: ');
  });
});
