import { Box, Button, Center, Group, Loader, Modal, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCheck, IconPlus, IconSearch } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ErrorAlert } from '../../../components/error-alert';
import { flattenPages } from '../../../lib/paginated-cache';
import { useChannels } from '../../../api/get-channels';
import classes from './channel-picker-modal.module.css';

/** Height of the picker's list. */
export const CHANNEL_PICKER_HEIGHT = 400;
const ROW_HEIGHT = 44;

/** "Pick a channel" modal: search, "Create", a headerless 400 px list that loads more at the bottom. */
export function ChannelPickerModal({
  opened,
  onClose,
  currentChannelId,
}: {
  opened: boolean;
  onClose: () => void;
  currentChannelId?: string;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Pick a channel" size="md" centered>
      {opened && <ChannelPicker onClose={onClose} currentChannelId={currentChannelId} />}
    </Modal>
  );
}

function ChannelPicker({ onClose, currentChannelId }: { onClose: () => void; currentChannelId?: string }) {
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [name] = useDebouncedValue(search.trim(), 250);
  const list = useChannels({ name });
  const rows = flattenPages(list.data);
  const scrollRef = useRef<HTMLDivElement>(null);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  // More rows load when the list is scrolled to the bottom.
  useEffect(() => {
    if (lastIndex >= rows.length - 1 && rows.length > 0 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [lastIndex, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const pick = (channelId: string) => {
    onClose();
    void navigate(`/channels/${channelId}`);
  };

  return (
    <Box>
      <Group gap="sm" mb="sm" wrap="nowrap">
        <TextInput
          aria-label="Search channels"
          placeholder="Search..."
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          style={{ flex: 1 }}
          type="search"
          data-autofocus
        />
        <Button
          leftSection={<IconPlus size={16} aria-hidden />}
          variant="light"
          onClick={() => {
            onClose();
            void navigate('/create-channel');
          }}
        >
          Create
        </Button>
      </Group>
      {list.isError && <ErrorAlert error={list.error} mb="sm" />}
      <div
        ref={scrollRef}
        className={classes.list}
        style={{ height: CHANNEL_PICKER_HEIGHT }}
        role="list"
        aria-label="Channels"
        aria-busy={list.isFetching}
      >
        {list.isPending ? (
          <Center h="100%">
            <Loader size="sm" aria-label="Loading channels" />
          </Center>
        ) : rows.length === 0 ? (
          <Center h="100%">
            <Text c="dimmed" size="sm">
              No channels
            </Text>
          </Center>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const channel = rows[item.index];
              if (!channel) return null;
              const current = channel.id === currentChannelId;
              return (
                <div
                  key={channel.id}
                  role="listitem"
                  className={classes.rowWrap}
                  style={{ height: item.size, transform: `translateY(${item.start}px)` }}
                >
                  <UnstyledButton
                    className={classes.row}
                    data-active={current || undefined}
                    aria-current={current ? 'page' : undefined}
                    onClick={() => pick(channel.id)}
                  >
                    <Text size="sm" truncate>
                      {channel.display_name}
                    </Text>
                    {current && <IconCheck size={16} aria-hidden />}
                  </UnstyledButton>
                </div>
              );
            })}
          </div>
        )}
      </div>
      {isFetchingNextPage && (
        <Center mt={6}>
          <Loader size="xs" aria-label="Loading more channels" />
        </Center>
      )}
    </Box>
  );
}
