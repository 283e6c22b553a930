import { NavLink, Stack } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';

/** One node of a fixed navigation outline (its order and grouping are fixed by the product). */
export interface NavOutlineNode<K extends string> {
  key: K;
  label: string;
  icon: Icon;
  children?: NavOutlineNode<K>[];
}

/** A page that exists: where its nav item links to, and an optional badge. */
export interface NavPageEntry {
  to: string;
  /** Active only on this exact path (an index page); otherwise also on sub-paths. */
  exact?: boolean;
  /** Other exact paths where the item counts as active (e.g. `/admin` for the admin index page). */
  activePaths?: string[];
  badge?: ReactNode;
}

export interface NavTreeItem {
  key: string;
  label: string;
  icon: Icon;
  to?: string;
  exact?: boolean;
  activePaths?: string[];
  badge?: ReactNode;
  children?: NavTreeItem[];
}

/**
 * The outline filtered to the pages that exist: a leaf is shown only when `pages` has it, a group only when one
 * of its children is shown. Items never link to a page that does not exist.
 */
export function buildNavTree<K extends string>(outline: NavOutlineNode<K>[], pages: Partial<Record<K, NavPageEntry>>): NavTreeItem[] {
  const items: NavTreeItem[] = [];
  for (const node of outline) {
    if (node.children) {
      const children = buildNavTree(node.children, pages);
      if (children.length > 0) items.push({ key: node.key, label: node.label, icon: node.icon, children });
      continue;
    }
    const page = pages[node.key];
    if (page)
      items.push({
        key: node.key,
        label: node.label,
        icon: node.icon,
        to: page.to,
        exact: page.exact,
        activePaths: page.activePaths,
        badge: page.badge,
      });
  }
  return items;
}

export function isNavActive(pathname: string, to: string, exact = false): boolean {
  const clean = (value: string) => (value.length > 1 ? value.replace(/\/+$/, '') : value);
  const path = clean(pathname);
  const target = clean(to);
  return exact ? path === target : path === target || path.startsWith(`${target}/`);
}

function itemActive(item: NavTreeItem, pathname: string): boolean {
  if (!item.to) return false;
  return isNavActive(pathname, item.to, item.exact) || (item.activePaths ?? []).some((path) => isNavActive(pathname, path, true));
}

function containsActive(item: NavTreeItem, pathname: string): boolean {
  if (itemActive(item, pathname)) return true;
  return item.children?.some((child) => containsActive(child, pathname)) ?? false;
}

function NavTreeNode({ item, pathname }: { item: NavTreeItem; pathname: string }) {
  const Icon = item.icon;
  const icon = <Icon size={18} stroke={1.6} aria-hidden />;
  if (item.children) {
    return (
      <NavLink label={item.label} leftSection={icon} defaultOpened={containsActive(item, pathname)} childrenOffset={22}>
        {item.children.map((child) => (
          <NavTreeNode key={child.key} item={child} pathname={pathname} />
        ))}
      </NavLink>
    );
  }
  const active = itemActive(item, pathname);
  return (
    <NavLink
      component={Link}
      to={item.to ?? '#'}
      label={item.label}
      leftSection={icon}
      rightSection={item.badge}
      active={active}
      aria-current={active ? 'page' : undefined}
      variant="light"
    />
  );
}

/** Renders a navigation tree; the item of the current location is highlighted and its group opened. */
export function NavTree({ items, label }: { items: NavTreeItem[]; label: string }) {
  const { pathname } = useLocation();
  return (
    <Stack component="nav" aria-label={label} gap={2}>
      {items.map((item) => (
        <NavTreeNode key={item.key} item={item} pathname={pathname} />
      ))}
    </Stack>
  );
}
