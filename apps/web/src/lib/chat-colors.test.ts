import { describe, expect, it } from 'vitest';
import { authorColor, colorFromName } from './chat-colors';

describe('author colours', () => {
  it('derives a stable colour from the name when the platform gives none', () => {
    expect(authorColor('Alice', null)).toBe(colorFromName('alice'));
    expect(colorFromName('Alice')).toBe(colorFromName('ALICE'));
    expect(colorFromName('Alice')).toMatch(/^hsl\(\d+ 70% 68%\)$/);
  });

  it('keeps readable colours and lightens dark ones', () => {
    expect(authorColor('a', '#FF7F50')).toBe('#FF7F50');
    expect(authorColor('a', '#0000FF')).toMatch(/^rgb\(/);
    expect(authorColor('a', '#000000')).not.toBe('#000000');
    expect(authorColor('a', 'red; background:url(x)')).toBe(colorFromName('a'));
  });
});
