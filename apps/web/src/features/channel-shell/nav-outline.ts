import {
  IconActivity,
  IconAdjustments,
  IconCards,
  IconChartBar,
  IconCoins,
  IconEye,
  IconFilter,
  IconGift,
  IconHome,
  IconListNumbers,
  IconMessages,
  IconMusic,
  IconPlugConnected,
  IconQuote,
  IconRobot,
  IconSettings,
  IconSlideshow,
  IconTerminal2,
  IconClock,
  IconUsers,
  IconChartPie,
} from '@tabler/icons-react';
import type { NavOutlineNode } from '../../components/nav-tree';

/** Every item of the channel side navigation, in order. */
export type ChannelNavKey =
  | 'dashboard'
  | 'platforms'
  | 'chat'
  | 'activity-feed'
  | 'stats'
  | 'viewer-watch'
  | 'chatbot'
  | 'chat-commands'
  | 'chat-timers'
  | 'chat-filters'
  | 'quotes'
  | 'gambling-settings'
  | 'gambling-points'
  | 'gambling-slots'
  | 'gambling-roulette'
  | 'giveaways'
  | 'viewer-queue'
  | 'song-requests'
  | 'stream-widgets'
  | 'user-access'
  | 'channel-settings';

/** The channel navigation outline. Items show only when a page is registered for them. */
export const channelNavOutline: NavOutlineNode<ChannelNavKey>[] = [
  { key: 'dashboard', label: 'Dashboard', icon: IconHome },
  { key: 'platforms', label: 'Platforms', icon: IconPlugConnected },
  { key: 'chat', label: 'Chat', icon: IconMessages },
  { key: 'activity-feed', label: 'Activity Feed', icon: IconActivity },
  { key: 'stats', label: 'Stats', icon: IconChartBar },
  { key: 'viewer-watch', label: 'Viewer Watch', icon: IconEye },
  {
    key: 'chatbot',
    label: 'Chatbot',
    icon: IconRobot,
    children: [
      { key: 'chat-commands', label: 'Chat Commands', icon: IconTerminal2 },
      { key: 'chat-timers', label: 'Chat Timers', icon: IconClock },
      { key: 'chat-filters', label: 'Chat Filters', icon: IconFilter },
      { key: 'quotes', label: 'Quotes', icon: IconQuote },
      {
        key: 'gambling-settings',
        label: 'Gambling Settings',
        icon: IconCoins,
        children: [
          { key: 'gambling-points', label: 'Points', icon: IconChartPie },
          { key: 'gambling-slots', label: 'Slots', icon: IconCards },
          { key: 'gambling-roulette', label: 'Roulette Settings', icon: IconAdjustments },
        ],
      },
      { key: 'giveaways', label: 'Giveaways', icon: IconGift },
      { key: 'viewer-queue', label: 'Viewer Queue', icon: IconListNumbers },
      { key: 'song-requests', label: 'Song Requests', icon: IconMusic },
    ],
  },
  { key: 'stream-widgets', label: 'Stream Widgets', icon: IconSlideshow },
  { key: 'user-access', label: 'User Access', icon: IconUsers },
  { key: 'channel-settings', label: 'Channel Settings', icon: IconSettings },
];
