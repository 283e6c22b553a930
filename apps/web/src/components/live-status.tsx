import { Badge } from '@mantine/core';
import type { LiveState } from '../lib/live-socket';

const labels: Record<LiveState, { label: string; color: string }> = {
  connecting: { label: 'Connecting', color: 'yellow' },
  open: { label: 'Live', color: 'green' },
  closed: { label: 'Disconnected — reconnecting', color: 'red' },
  ended: { label: 'Closed', color: 'gray' },
};

/** The state of a live connection (connecting / open / closed / ended), announced politely to screen readers. */
export function LiveStatus({ state }: { state: LiveState }) {
  const { label, color } = labels[state];
  return (
    <Badge color={color} variant="dot" size="md" tt="none" role="status" aria-live="polite" data-state={state}>
      {label}
    </Badge>
  );
}
