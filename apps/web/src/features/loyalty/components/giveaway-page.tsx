import { Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowLeft, IconExternalLink, IconMoodEmpty, IconTrash } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { giveawayStatusLabels, type Giveaway } from '@greenroom/contracts/api/giveaways';
import { providers } from '@greenroom/contracts/providers';
import { PageState } from '../../../components/page-state';
import { ProviderIcon } from '../../../components/provider-icon';
import { LEAVE_WITHOUT_ASKING } from '../../../components/unsaved-changes';
import { isApiError } from '../../../lib/api-client';
import { duration, formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteGiveaway, useGiveaway, useGiveawayAction, useGiveawayEntries, useLiveGiveaways, useRerollWinner } from '../api/giveaways';
import { usePointSettings } from '../api/points';
import { GiveawayForm } from './giveaway-form';
import { GiveawayWinners, useSecondsLeft } from './giveaway-winners';
import { giveawayStatusColors } from './giveaways-page';
import { LoadingPanel, PageFrame, Section } from '../../../components/page-frame';

/** `/channels/{id}/giveaways/{giveawayId}` (and `new`): the rules, open / close / draw / cancel, entries and winners. */
export function GiveawayPage({ channelId, giveawayId }: { channelId: string; giveawayId: string }) {
  const isNew = giveawayId === 'new';
  const giveaway = useGiveaway(channelId, giveawayId, !isNew);
  const settings = usePointSettings(channelId);
  useLiveGiveaways(channelId);
  const back = (
    <Anchor component={Link} to={`/channels/${channelId}/giveaways`} size="sm" c="dimmed">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        Giveaways
      </Group>
    </Anchor>
  );
  if (isApiError(giveaway.error, 404)) {
    return (
      <Stack gap="md" p={{ base: 'md', sm: 'lg' }}>
        {back}
        <PageState
          order={1}
          icon={<IconMoodEmpty size={28} />}
          title="This giveaway does not exist"
          description="It may have been deleted."
        />
      </Stack>
    );
  }
  const g = giveaway.data;
  const pointsName = settings.data?.points_name ?? 'points';
  return (
    <Stack gap={0}>
      <Stack px={{ base: 'md', sm: 'lg' }} pt={{ base: 'md', sm: 'lg' }} gap={0}>
        {back}
      </Stack>
      <PageFrame
        title={
          isNew ? (
            'New giveaway'
          ) : g ? (
            <Group gap="sm" component="span">
              {g.title}
              <Badge color={giveawayStatusColors[g.status]} variant="light" size="lg">
                {giveawayStatusLabels[g.status]}
              </Badge>
            </Group>
          ) : (
            'Giveaway'
          )
        }
        description={g ? <GiveawaySummary giveaway={g} /> : 'Set the rules, then open it when you are ready.'}
        actions={g && <GiveawayControls channelId={channelId} giveaway={g} />}
        loading={!isNew && giveaway.isPending}
        error={giveaway.error}
      >
        {(isNew || g) && (
          <SimpleGrid cols={{ base: 1, lg: g && g.status !== 'draft' ? 2 : 1 }} spacing="md" verticalSpacing="md">
            {g && g.status !== 'draft' && <LivePanel channelId={channelId} giveaway={g} />}
            <Section
              title="Rules"
              description={g && g.status !== 'draft' ? 'The rules cannot change once the giveaway has opened.' : undefined}
            >
              <GiveawayForm key={g?.id ?? 'new'} channelId={channelId} giveaway={g ?? null} pointsName={pointsName} />
            </Section>
          </SimpleGrid>
        )}
      </PageFrame>
    </Stack>
  );
}

function GiveawaySummary({ giveaway: g }: { giveaway: Giveaway }) {
  const left = useSecondsLeft(g.status === 'open' ? g.closes_at : null);
  return (
    <>
      {g.entry_mode === 'tickets' ? `Viewers type ${g.keyword} and a number of tickets` : `Viewers type ${g.keyword}`} ·{' '}
      {g.entry_count.toLocaleString('en-US')} {g.entry_count === 1 ? 'entry' : 'entries'}
      {g.entry_mode === 'tickets' && ` · ${g.ticket_count.toLocaleString('en-US')} tickets`}
      {left !== null && ` · closes in ${duration(left)}`}
      {g.drawn_at && ` · drawn ${formatDateTime(g.drawn_at)}`}
    </>
  );
}

function GiveawayControls({ channelId, giveaway: g }: { channelId: string; giveaway: Giveaway }) {
  const action = useGiveawayAction(channelId, g.id);
  const remove = useDeleteGiveaway(channelId);
  const navigate = useNavigate();
  const popout = () =>
    window.open(`/popout/channels/${channelId}/giveaways/${g.id}`, `giveaway-${g.id}`, 'width=720,height=480,noopener=no');
  const busy = action.isPending ? action.variables : null;
  return (
    <>
      <Button variant="default" leftSection={<IconExternalLink size={16} />} onClick={popout}>
        Popout
      </Button>
      {g.status === 'draft' && (
        <Button
          color="green"
          loading={busy === 'open'}
          onClick={() => action.mutate('open', { onSuccess: () => notifySuccess(`${g.title} is open`) })}
        >
          Open
        </Button>
      )}
      {g.status === 'open' && (
        <Button color="yellow" loading={busy === 'close'} onClick={() => action.mutate('close')}>
          Close entries
        </Button>
      )}
      {(g.status === 'open' || g.status === 'closed') && (
        <Button loading={busy === 'draw'} disabled={g.entry_count === 0} onClick={() => action.mutate('draw')}>
          Draw {g.winners === 1 ? 'the winner' : `${g.winners} winners`}
        </Button>
      )}
      {(g.status === 'open' || g.status === 'closed') && (
        <Button
          color="red"
          variant="light"
          loading={busy === 'cancel'}
          onClick={() =>
            modals.openConfirmModal({
              title: `Cancel ${g.title}?`,
              children: <Text size="sm">Entries close and every ticket bought is refunded.</Text>,
              labels: { confirm: 'Cancel giveaway', cancel: 'Keep it' },
              confirmProps: { color: 'red' },
              onConfirm: () => action.mutate('cancel', { onSuccess: () => notifySuccess(`${g.title} cancelled`) }),
            })
          }
        >
          Cancel
        </Button>
      )}
      {(g.status === 'draft' || g.status === 'drawn' || g.status === 'cancelled') && (
        <Button
          color="red"
          variant="subtle"
          leftSection={<IconTrash size={16} />}
          loading={remove.isPending}
          onClick={() =>
            modals.openConfirmModal({
              title: `Delete ${g.title}?`,
              children: <Text size="sm">It leaves the history for good.</Text>,
              labels: { confirm: 'Delete', cancel: 'Cancel' },
              confirmProps: { color: 'red' },
              onConfirm: () =>
                remove.mutate(g.id, {
                  onSuccess: () => {
                    notifySuccess(`${g.title} deleted`);
                    void navigate(`/channels/${channelId}/giveaways`, { state: LEAVE_WITHOUT_ASKING });
                  },
                }),
            })
          }
        >
          Delete
        </Button>
      )}
    </>
  );
}

function LivePanel({ channelId, giveaway: g }: { channelId: string; giveaway: Giveaway }) {
  const entries = useGiveawayEntries(channelId, g.id);
  const reroll = useRerollWinner(channelId, g.id);
  const pages = entries.data?.pages ?? [];
  const records = pages.flatMap((p) => p.records);
  const total = pages[0]?.total ?? 0;
  const totalWeight = pages[0]?.total_weight ?? 0;
  return (
    <Stack gap="md">
      {g.winner_list.length > 0 && (
        <Section title="Winners">
          <GiveawayWinners giveaway={g} onReroll={(id) => reroll.mutate(id)} rerolling={reroll.isPending} />
        </Section>
      )}
      <Section title="Entries">
        {entries.isPending ? (
          <LoadingPanel rows={2} />
        ) : records.length === 0 ? (
          <Text size="sm" c="dimmed">
            {g.status === 'open' ? `No entries yet. Viewers type ${g.keyword} in chat.` : 'Nobody entered.'}
          </Text>
        ) : (
          <Paper withBorder radius="md" mah={420} style={{ overflow: 'auto' }}>
            <Table verticalSpacing={4} fz="sm" aria-label="Entries" stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Viewer</Table.Th>
                  {g.entry_mode === 'tickets' && <Table.Th ta="right">Tickets</Table.Th>}
                  <Table.Th ta="right">Chance</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {records.map((e) => {
                  return (
                    <Table.Tr key={e.wallet_id}>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap">
                          <ProviderIcon provider={e.provider} size={14} aria-label={providers[e.provider].name} />
                          <Text size="sm">{e.display_name}</Text>
                          {e.subscriber && (
                            <Badge size="xs" variant="light">
                              Sub
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      {g.entry_mode === 'tickets' && <Table.Td ta="right">{e.tickets.toLocaleString('en-US')}</Table.Td>}
                      <Table.Td ta="right">{totalWeight > 0 ? `${((e.weight / totalWeight) * 100).toFixed(1)} %` : '—'}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Paper>
        )}
        {total > records.length && (
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              Showing {records.length.toLocaleString('en-US')} of {total.toLocaleString('en-US')} entries.
            </Text>
            {entries.hasNextPage && (
              <Button variant="subtle" size="xs" loading={entries.isFetchingNextPage} onClick={() => void entries.fetchNextPage()}>
                Show more
              </Button>
            )}
          </Group>
        )}
      </Section>
    </Stack>
  );
}
