import { Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { memo } from 'react';
import type { ChatGap } from '@greenroom/contracts/api/events';
import { providers } from '@greenroom/contracts/providers';
import { duration, formatTime } from '../../../lib/format';
import classes from './chat-message-row.module.css';

/** What a gap line says: the platform, how long its chat was interrupted (h:mm:ss) or how many messages were lost, and when. */
export function gapText(gap: ChatGap): string {
  const name = providers[gap.provider].name;
  const span = `${formatTime(gap.started_at)}–${formatTime(gap.ended_at)}`;
  if (gap.reason === 'lost') {
    const n = gap.lost.toLocaleString('en-US');
    return `${n} ${name} message${gap.lost === 1 ? '' : 's'} could not be saved and are missing here (${span})`;
  }
  const seconds = (Date.parse(gap.ended_at) - Date.parse(gap.started_at)) / 1000;
  const length = seconds < 1 ? 'less than a second' : duration(seconds);
  return `${name} chat was interrupted for ${length} (${span}): messages sent meanwhile are missing`;
}

/** A line in the chat marking a break in one platform's chat. */
export const ChatGapRow = memo(function ChatGapRow({ gap }: { gap: ChatGap }) {
  return (
    <div className={classes.row} data-gap={gap.reason} role="note">
      <Text size="xs" c="yellow.4" className={classes.gap}>
        <IconAlertTriangle size={14} aria-hidden /> {gapText(gap)}
      </Text>
    </div>
  );
});
