import { IconBuildingBroadcastTower, IconRobot, IconTemplate } from '@tabler/icons-react';
import type { NavOutlineNode } from '../../components/nav-tree';

/** Admin navigation items, in order. */
export type AdminNavKey = 'channels' | 'system-provider-bots' | 'command-templates';

export const adminNavOutline: NavOutlineNode<AdminNavKey>[] = [
  { key: 'channels', label: 'Channels', icon: IconBuildingBroadcastTower },
  { key: 'system-provider-bots', label: 'System Provider Bots', icon: IconRobot },
  { key: 'command-templates', label: 'Command Templates', icon: IconTemplate },
];
