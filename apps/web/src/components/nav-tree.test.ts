import { IconHome } from '@tabler/icons-react';
import { describe, expect, it } from 'vitest';
import { buildNavTree, isNavActive, type NavOutlineNode } from './nav-tree';

type Key = 'a' | 'b' | 'group' | 'c' | 'sub' | 'd';
const outline: NavOutlineNode<Key>[] = [
  { key: 'a', label: 'A', icon: IconHome },
  { key: 'b', label: 'B', icon: IconHome },
  {
    key: 'group',
    label: 'Group',
    icon: IconHome,
    children: [
      { key: 'c', label: 'C', icon: IconHome },
      { key: 'sub', label: 'Sub', icon: IconHome, children: [{ key: 'd', label: 'D', icon: IconHome }] },
    ],
  },
];

describe('buildNavTree', () => {
  it('shows only items whose page exists, keeping the outline order', () => {
    const items = buildNavTree(outline, { b: { to: '/b' }, a: { to: '/a', exact: true } });
    expect(items.map((i) => i.key)).toEqual(['a', 'b']);
    expect(items[0]).toMatchObject({ to: '/a', exact: true });
  });

  it('hides a group with no page and shows it with any nested page', () => {
    expect(buildNavTree(outline, { c: undefined })).toEqual([]);
    const items = buildNavTree(outline, { d: { to: '/d' } });
    expect(items.map((i) => i.key)).toEqual(['group']);
    expect(items[0]!.children!.map((i) => i.key)).toEqual(['sub']);
    expect(items[0]!.children![0]!.children!.map((i) => i.key)).toEqual(['d']);
  });
});

describe('isNavActive', () => {
  it('matches the path and its sub-paths by segment', () => {
    expect(isNavActive('/channels/x/chat-commands/5', '/channels/x/chat-commands')).toBe(true);
    expect(isNavActive('/channels/x/chat-commands', '/channels/x/chat')).toBe(false);
    expect(isNavActive('/channels/x/', '/channels/x', true)).toBe(true);
    expect(isNavActive('/channels/x/chat', '/channels/x', true)).toBe(false);
  });
});
