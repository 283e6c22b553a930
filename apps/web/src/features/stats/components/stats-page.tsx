import '@mantine/charts/styles.css';
import { AreaChart, BarChart, LineChart } from '@mantine/charts';
import {
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconChartLine, IconDownload } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useMemo, useState, type ReactNode } from 'react';
import type { StatsDto } from '@greenroom/contracts/api/stats';
import { STATS_MAX_RANGE_DAYS } from '@greenroom/contracts/api/stats';
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { PageState } from '../../../components/page-state';
import { ProviderIcon } from '../../../components/provider-icon';
import { duration, formatDateTime } from '../../../lib/format';
import { useStats } from '../api/get-stats';
import { chartData, pointsSeries, statsCsv } from '../stats-data';

type Preset = '24h' | '7d' | '30d' | 'custom';
const presets: { value: Preset; label: string; days: number }[] = [
  { value: '24h', label: '24 hours', days: 1 },
  { value: '7d', label: '7 days', days: 7 },
  { value: '30d', label: '30 days', days: 30 },
];

interface Range {
  from: string;
  to: string;
}

/** The last `days` days up to the next full minute. */
function lastDays(days: number): Range {
  const to = dayjs().add(1, 'minute').startOf('minute');
  return { from: to.subtract(days, 'day').toISOString(), to: to.toISOString() };
}

const number = (n: number | null, digits = 0) =>
  n === null ? '–' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Paper withBorder radius="md" p="sm" role="group" aria-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} data-value={value}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

function Panel({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h5">
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Paper>
  );
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function Charts({ stats }: { stats: StatsDto }) {
  const data = useMemo(() => chartData(stats), [stats]);
  const long = Date.parse(stats.to) - Date.parse(stats.from) > 2 * 86_400_000;
  const tick = (at: number) => dayjs(at).format(long ? 'MMM D' : 'HH:mm');
  const xAxisProps = {
    dataKey: 'at',
    type: 'number' as const,
    scale: 'time' as const,
    domain: [Date.parse(stats.from), Date.parse(stats.to)],
    tickFormatter: tick,
  };
  const tooltipLabel = (at: unknown) => dayjs(Number(at)).format(long ? 'LL HH:mm' : 'HH:mm:ss');
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
      <Panel title="Viewers">
        {data.viewers.length === 0 ? (
          <Text size="sm" c="dimmed" h={240}>
            No viewer counts in this range: viewers are sampled every minute while a platform is live.
          </Text>
        ) : (
          <LineChart
            h={240}
            data={data.viewers}
            dataKey="at"
            series={data.series}
            curveType="monotone"
            withDots={false}
            connectNulls={false}
            xAxisProps={xAxisProps}
            tooltipProps={{ labelFormatter: tooltipLabel }}
            withLegend
            aria-label="Viewers over time per platform"
          />
        )}
      </Panel>
      <Panel title="Chat messages per minute">
        <AreaChart
          h={240}
          data={data.chatRate}
          dataKey="at"
          series={data.series}
          type="stacked"
          curveType="monotone"
          withDots={false}
          xAxisProps={xAxisProps}
          tooltipProps={{ labelFormatter: tooltipLabel }}
          withLegend
          aria-label="Chat messages per minute per platform"
        />
      </Panel>
      <Panel title="Commands used">
        {stats.totals.commands === 0 ? (
          <Text size="sm" c="dimmed" h={240}>
            No chatbot command was used in this range.
          </Text>
        ) : (
          <BarChart
            h={240}
            data={data.commands}
            dataKey="at"
            series={data.series}
            type="stacked"
            xAxisProps={{ dataKey: 'at', tickFormatter: tick }}
            tooltipProps={{ labelFormatter: tooltipLabel }}
            withLegend
            aria-label="Commands used per platform"
          />
        )}
      </Panel>
      <Panel title="Points economy">
        {stats.points_series.length === 0 ? (
          <Text size="sm" c="dimmed" h={240}>
            No points were earned or spent in this range.
          </Text>
        ) : (
          <AreaChart
            h={240}
            data={data.points}
            dataKey="at"
            series={pointsSeries}
            curveType="monotone"
            withDots={false}
            xAxisProps={xAxisProps}
            tooltipProps={{ labelFormatter: tooltipLabel }}
            withLegend
            aria-label="Points earned, spent, won, lost and given"
          />
        )}
      </Panel>
    </SimpleGrid>
  );
}

function PlatformName({ provider }: { provider: ChannelProviderId }) {
  return (
    <Group gap={6} wrap="nowrap">
      <ProviderIcon provider={provider} size={16} aria-hidden />
      <Text size="sm">{providers[provider].name}</Text>
    </Group>
  );
}

function Details({ stats }: { stats: StatsDto }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="md">
      <Panel title="Per platform">
        <Table.ScrollContainer minWidth={320}>
          <Table fz="sm" verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Platform</Table.Th>
                <Table.Th ta="right">Peak</Table.Th>
                <Table.Th ta="right">Chat</Table.Th>
                <Table.Th ta="right">Follows</Table.Th>
                <Table.Th ta="right">Subs</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {stats.platforms.map((p) => (
                <Table.Tr key={p.channel_provider_id}>
                  <Table.Td>
                    <PlatformName provider={p.provider} />
                  </Table.Td>
                  <Table.Td ta="right">{number(p.peak_viewers)}</Table.Td>
                  <Table.Td ta="right">{number(p.messages)}</Table.Td>
                  <Table.Td ta="right">{number(p.follows)}</Table.Td>
                  <Table.Td ta="right">{number(p.subs)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Panel>
      <Panel
        title="Top chatters"
        action={
          <Text size="xs" c="dimmed">
            Whole days (UTC)
          </Text>
        }
      >
        {stats.top_chatters.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nobody chatted in this range.
          </Text>
        ) : (
          <Table fz="sm" verticalSpacing={6} aria-label="Top chatters">
            <Table.Tbody>
              {stats.top_chatters.map((c, i) => (
                <Table.Tr key={`${c.provider}:${c.provider_user_id}`}>
                  <Table.Td w={28} c="dimmed">
                    {i + 1}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <ProviderIcon provider={c.provider} size={16} />
                      <VisuallyHidden>{providers[c.provider].name}</VisuallyHidden>
                      <Text size="sm" truncate>
                        {c.display_name}
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right">{number(c.messages)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Panel>
      <Panel title="Top commands">
        {stats.top_commands.length === 0 ? (
          <Text size="sm" c="dimmed">
            No chatbot command was used in this range.
          </Text>
        ) : (
          <Table fz="sm" verticalSpacing={6} aria-label="Top commands">
            <Table.Tbody>
              {stats.top_commands.map((c, i) => (
                <Table.Tr key={c.command_id}>
                  <Table.Td w={28} c="dimmed">
                    {i + 1}
                  </Table.Td>
                  <Table.Td>
                    {c.name === null ? (
                      <Text size="sm" c="dimmed" fs="italic">
                        Deleted command
                      </Text>
                    ) : (
                      <Text size="sm" ff="monospace" truncate>
                        {c.name}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">{number(c.uses)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Panel>
      <Panel title="Points">
        <Table fz="sm" verticalSpacing={6} aria-label="Points totals">
          <Table.Tbody>
            {(
              [
                ['Earned', stats.points_totals.earned],
                ['Spent', stats.points_totals.spent],
                ['Won at games', stats.points_totals.won],
                ['Lost at games', stats.points_totals.lost],
                ['Given by viewers', stats.points_totals.given],
                ['Adjusted by staff', stats.points_totals.adjusted],
              ] as const
            ).map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Td>{label}</Table.Td>
                <Table.Td ta="right">{number(value)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Panel>
      <Panel title="Streams">
        {stats.streams.length === 0 ? (
          <Text size="sm" c="dimmed">
            No stream in this range.
          </Text>
        ) : (
          <Stack gap={6}>
            {stats.streams.slice(0, 12).map((s) => (
              <Group key={s.id} justify="space-between" wrap="nowrap" gap="xs">
                <Group gap={6} wrap="nowrap" miw={0}>
                  <ProviderIcon provider={s.provider} size={16} />
                  <VisuallyHidden>{providers[s.provider].name}</VisuallyHidden>
                  <Text size="sm" truncate>
                    {formatDateTime(s.started_at)}
                  </Text>
                </Group>
                <Text size="sm" c="dimmed" ff="monospace">
                  {s.ended_at ? duration((Date.parse(s.ended_at) - Date.parse(s.started_at)) / 1000) : 'Live'}
                </Text>
              </Group>
            ))}
          </Stack>
        )}
      </Panel>
    </SimpleGrid>
  );
}

/** Viewers, chat and events over a date range or one stream, per platform, from the rollups; CSV export. */
export function StatsPage({ channelId, channelName }: { channelId: string; channelName: string }) {
  const [preset, setPreset] = useState<Preset>('24h');
  const [range, setRange] = useState<Range>(() => lastDays(1));
  const [custom, setCustom] = useState({ from: dayjs().subtract(7, 'day').format('YYYY-MM-DD'), to: dayjs().format('YYYY-MM-DD') });
  const [streamId, setStreamId] = useState<string | null>(null);
  const stats = useStats(channelId, range);
  const streams = stats.data?.streams ?? [];

  const customProblem = (() => {
    const from = dayjs(custom.from);
    const to = dayjs(custom.to).add(1, 'day');
    if (!from.isValid() || !to.isValid()) return 'Pick both dates.';
    if (!to.isAfter(from)) return 'The range must end after it starts.';
    if (to.diff(from, 'day') > STATS_MAX_RANGE_DAYS) return `The range can be at most ${STATS_MAX_RANGE_DAYS} days.`;
    return null;
  })();
  const applyCustom = (next: { from: string; to: string }) => {
    setCustom(next);
    const from = dayjs(next.from);
    const to = dayjs(next.to).add(1, 'day');
    if (from.isValid() && to.isValid() && to.isAfter(from) && to.diff(from, 'day') <= STATS_MAX_RANGE_DAYS) {
      setRange({ from: from.toISOString(), to: to.toISOString() });
    }
  };

  const body = (() => {
    if (stats.isPending) {
      return (
        <Stack gap="md" aria-busy="true" aria-label="Loading stats">
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            {Array.from({ length: 12 }, (_, i) => (
              <Skeleton key={i} h={74} radius="md" />
            ))}
          </SimpleGrid>
          <Skeleton h={300} radius="md" />
        </Stack>
      );
    }
    if (stats.isError) return <ErrorAlert error={stats.error} />;
    const s = stats.data;
    if (s.series.length === 0 && s.streams.length === 0 && s.points_series.length === 0) {
      return (
        <PageState
          icon={<IconChartLine size={28} />}
          title="No stats for this range yet"
          description="Stats are collected while your platforms are connected: viewer counts every minute while you are live, chat, follows, subscriptions, moderation, commands and points as they happen."
        />
      );
    }
    return (
      <Stack gap="md" style={{ opacity: stats.isPlaceholderData ? 0.6 : 1 }}>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <Figure label="Peak viewers" value={number(s.totals.peak_viewers)} hint="every platform together" />
          <Figure label="Average viewers" value={number(s.totals.average_viewers)} />
          <Figure label="Time live" value={duration(s.totals.minutes_live * 60)} />
          <Figure label="Chat messages" value={number(s.totals.messages)} />
          <Figure label="Unique chatters" value={number(s.totals.unique_chatters)} hint="whole days (UTC)" />
          <Figure label="New followers" value={number(s.totals.follows)} />
          <Figure label="New subscribers" value={number(s.totals.subs)} hint="gifts count each sub" />
          <Figure label="Moderation actions" value={number(s.totals.moderation)} />
          <Figure label="Commands used" value={number(s.totals.commands)} />
          <Figure label="Points earned" value={number(s.points_totals.earned)} />
          <Figure label="Points spent" value={number(s.points_totals.spent)} hint="commands and tickets, less refunds" />
          <Figure label="Points given" value={number(s.points_totals.given)} hint="viewer to viewer" />
        </SimpleGrid>
        <Charts stats={s} />
        <Details stats={s} />
      </Stack>
    );
  })();

  return (
    <Stack gap="md" p={{ base: 'md', sm: 'lg' }} maw={1400}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Title order={1} size="h2">
          Stats
        </Title>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconDownload size={14} />}
          disabled={!stats.data || stats.data.series.length === 0}
          onClick={() => stats.data && download(`${channelName} stats ${dayjs(range.from).format('YYYY-MM-DD')}.csv`, statsCsv(stats.data))}
        >
          Export CSV
        </Button>
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SegmentedControl
          aria-label="Date range"
          value={streamId ? 'stream' : preset}
          onChange={(value) => {
            setStreamId(null);
            const next = value as Preset;
            setPreset(next);
            const p = presets.find((x) => x.value === next);
            if (p) setRange(lastDays(p.days));
            else applyCustom(custom);
          }}
          data={[...presets.map((p) => ({ value: p.value, label: p.label })), { value: 'custom', label: 'Custom' }]}
        />
        {preset === 'custom' && !streamId && (
          <Group gap="xs" align="flex-start">
            <TextInput
              type="date"
              label="From"
              size="xs"
              value={custom.from}
              onChange={(e) => applyCustom({ ...custom, from: e.currentTarget.value })}
              error={customProblem}
            />
            <TextInput
              type="date"
              label="To"
              size="xs"
              value={custom.to}
              onChange={(e) => applyCustom({ ...custom, to: e.currentTarget.value })}
            />
          </Group>
        )}
        <Select
          size="xs"
          label="One stream"
          placeholder={streams.length ? 'Pick a stream' : 'No stream in this range'}
          disabled={streams.length === 0 && !streamId}
          clearable
          value={streamId}
          data={streams.map((s) => ({
            value: s.id,
            label: `${providers[s.provider].name} · ${formatDateTime(s.started_at)}${s.ended_at ? '' : ' (live)'}`,
          }))}
          onChange={(id) => {
            setStreamId(id);
            const s = streams.find((x) => x.id === id);
            if (s) {
              const end = s.ended_at ? dayjs(s.ended_at).add(1, 'minute').startOf('minute') : dayjs().add(1, 'minute').startOf('minute');
              setRange({ from: dayjs(s.started_at).startOf('minute').toISOString(), to: end.toISOString() });
            } else {
              const p = presets.find((x) => x.value === preset);
              setRange(p ? lastDays(p.days) : range);
            }
          }}
          w={260}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      <Text size="xs" c="dimmed">
        {formatDateTime(range.from)} – {formatDateTime(range.to)}
      </Text>
      {body}
    </Stack>
  );
}
