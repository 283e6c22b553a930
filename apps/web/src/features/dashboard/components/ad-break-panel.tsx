import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconAd2 } from '@tabler/icons-react';
import { useState } from 'react';
import { commercialLengths, type CommercialLength } from '@greenroom/contracts/api/ads';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { providers } from '@greenroom/contracts/providers';
import { ProviderIcon } from '../../../components/provider-icon';
import { duration } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useNow } from '../../../lib/use-now';
import { useStartCommercial } from '../api/start-commercial';

/** "1:30" for 90 seconds. */
const mmss = (seconds: number) => duration(seconds).replace(/^0:0?/, '');

const lengthOptions = commercialLengths.map((n) => ({ value: String(n), label: `${mmss(n)} (${n} s)` }));

function AdBreakRow({ channelId, connection }: { channelId: string; connection: ChannelProvider }) {
  const [length, setLength] = useState<CommercialLength>(60);
  const [nextAt, setNextAt] = useState<number | null>(null);
  const start = useStartCommercial(channelId, connection.id);
  const now = useNow(1000);
  const name = providers[connection.provider].name;
  const wait = nextAt === null ? 0 : Math.ceil((nextAt - now) / 1000);
  const blocked = !connection.is_live
    ? `Ads run only while you are live on ${name}.`
    : wait > 0
      ? `Next ad possible in ${mmss(wait)}.`
      : null;
  return (
    <Stack gap={4} role="group" aria-label={`${name} ad break`}>
      <Group gap="xs" wrap="wrap" align="flex-end">
        <Group gap={6} wrap="nowrap" miw={140}>
          <ProviderIcon provider={connection.provider} size={16} />
          <Text size="sm" fw={600} truncate>
            {connection.provider_channel_name}
          </Text>
        </Group>
        <Select
          size="xs"
          w={130}
          label="Length"
          data={lengthOptions}
          value={String(length)}
          allowDeselect={false}
          onChange={(v) => v && setLength(Number(v) as CommercialLength)}
        />
        <Button
          size="xs"
          leftSection={<IconAd2 size={14} />}
          loading={start.isPending}
          disabled={!connection.is_live || wait > 0}
          onClick={() =>
            start.mutate(length, {
              onSuccess: (result) => {
                setNextAt(Date.now() + result.retry_after_seconds * 1000);
                notifySuccess(`${name} ad running for ${mmss(result.length_seconds)}`);
              },
            })
          }
        >
          Run ad
        </Button>
      </Group>
      {blocked && (
        <Text size="xs" c="dimmed" role="status">
          {blocked}
        </Text>
      )}
    </Stack>
  );
}

/** "Run an ad" on each connection whose platform has ad breaks (Twitch), while live, with the wait before the next. */
export function AdBreakPanel({ channelId, connections }: { channelId: string; connections: ChannelProvider[] }) {
  const withAds = connections.filter((c) => providers[c.provider].commercial);
  if (withAds.length === 0)
    return (
      <Text size="sm" c="dimmed">
        Connect Twitch to run ads from here (Twitch partners and affiliates).
      </Text>
    );
  return (
    <Stack gap="sm">
      {withAds.map((c) => (
        <AdBreakRow key={c.id} channelId={channelId} connection={c} />
      ))}
    </Stack>
  );
}
