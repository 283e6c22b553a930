import { Text } from '@mantine/core';
import type { TimerImportItem } from '@greenroom/contracts/api/chatbot';
import { useImportChatTimers } from '../api/chat-timers';
import { ExportImportModal } from './import-modal';

/** Import a Nightbot or StreamElements timer export on the Chat Timers page. */
export function TimerImportModal({ channelId, opened, onClose }: { channelId: string; opened: boolean; onClose: () => void }) {
  const importer = useImportChatTimers(channelId);
  return (
    <ExportImportModal<TimerImportItem>
      opened={opened}
      onClose={onClose}
      title="Import timers"
      noun={{ one: 'timer', many: 'timers' }}
      help={
        <>
          Paste the JSON of your Nightbot timers (api.nightbot.tv/1/timers) or StreamElements timers
          (api.streamelements.com/kappa/v2/bot/timers/&lt;channel&gt;).
        </>
      }
      importer={importer}
      nameHeader="Timer"
      columns={[
        { header: 'Every', cell: (i) => <Text size="sm">{i.interval_minutes !== null ? `${i.interval_minutes} min` : '—'}</Text> },
        { header: 'Chat lines', cell: (i) => <Text size="sm">{i.min_lines ?? '—'}</Text> },
        {
          header: 'When',
          cell: (i) => <Text size="sm">{i.online_only === null ? '—' : i.online_only ? 'While live' : 'Always'}</Text>,
        },
      ]}
      detailHeader="Messages and notes"
      detail={(i) =>
        i.messages.length > 0 && (
          <Text size="xs" ff="monospace" lineClamp={2}>
            {i.messages[0]}
            {i.messages.length > 1 ? ` (+${i.messages.length - 1})` : ''}
            {i.enabled === false ? ' · off' : ''}
          </Text>
        )
      }
      minWidth={680}
    />
  );
}
