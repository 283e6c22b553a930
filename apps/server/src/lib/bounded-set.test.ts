import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedSet } from './bounded-set';

describe('BoundedSet', () => {
  it('holds exactly the last `capacity` keys added, as a list that forgets its oldest would', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 60 }), (capacity, adds) => {
        const set = new BoundedSet(capacity);
        const model: string[] = [];
        for (const n of adds) {
          const key = String(n);
          const fresh = !model.includes(key);
          if (fresh) {
            model.push(key);
            if (model.length > capacity) model.shift();
          }
          expect(set.add(key)).toBe(fresh);
          expect(set.size).toBe(model.length);
          for (let k = 0; k <= 9; k++) expect(set.has(String(k))).toBe(model.includes(String(k)));
        }
      }),
    );
  });
});
