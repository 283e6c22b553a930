import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { winnerStatusLabels, type Giveaway, type GiveawayWinner, type WinnerStatus } from '@greenroom/contracts/api/giveaways';
import { providers } from '@greenroom/contracts/providers';
import { ProviderIcon } from '../../../components/provider-icon';
import { duration, formatTime } from '../../../lib/format';

const winnerColors: Record<WinnerStatus, string> = { pending: 'yellow', claimed: 'green', expired: 'red', rerolled: 'gray' };

/** Seconds left until `deadline`, ticking every second. */
export function useSecondsLeft(deadline: string | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!deadline) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [deadline]);
  if (!deadline) return null;
  return Math.max(0, Math.ceil((Date.parse(deadline) - now) / 1000));
}

function ClaimTimer({ winner }: { winner: GiveawayWinner }) {
  const left = useSecondsLeft(winner.status === 'pending' ? winner.claim_deadline : null);
  if (left === null) return null;
  return (
    <Text size="sm" ff="monospace" aria-label="Time left to claim">
      {duration(left)}
    </Text>
  );
}

/** The drawn winners: claim status and timer, what they wrote in chat, and a re-roll. */
export function GiveawayWinners({
  giveaway,
  onReroll,
  rerolling,
}: {
  giveaway: Giveaway;
  onReroll?: (winnerId: string) => void;
  rerolling?: boolean;
}) {
  return (
    <Stack gap="sm">
      {giveaway.winner_list.map((w) => (
        <Paper key={w.id} withBorder radius="md" p="sm" opacity={w.status === 'rerolled' ? 0.6 : 1} aria-label={`Winner ${w.display_name}`}>
          <Stack gap={6}>
            <Group justify="space-between" wrap="nowrap">
              <Group gap="xs" wrap="nowrap">
                <Text fw={700}>#{w.place}</Text>
                <ProviderIcon provider={w.provider} size={16} aria-label={providers[w.provider].name} />
                <Text fw={600}>{w.display_name}</Text>
                <Badge color={winnerColors[w.status]} variant="light">
                  {winnerStatusLabels[w.status]}
                </Badge>
              </Group>
              <Group gap="xs" wrap="nowrap">
                <ClaimTimer winner={w} />
                {onReroll && w.status !== 'rerolled' && w.status !== 'claimed' && (
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={<IconRefresh size={14} />}
                    loading={rerolling}
                    onClick={() => onReroll(w.id)}
                  >
                    Re-roll
                  </Button>
                )}
              </Group>
            </Group>
            {w.messages.length > 0 ? (
              <Stack gap={2} aria-label={`Chat of ${w.display_name}`}>
                {w.messages.map((m, i) => (
                  <Text key={i} size="sm">
                    <Text span size="xs" c="dimmed" ff="monospace">
                      {formatTime(m.at)}
                    </Text>{' '}
                    {m.text}
                  </Text>
                ))}
              </Stack>
            ) : (
              w.status === 'pending' && (
                <Text size="xs" c="dimmed">
                  Waiting for {w.display_name} to write in chat.
                </Text>
              )
            )}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
