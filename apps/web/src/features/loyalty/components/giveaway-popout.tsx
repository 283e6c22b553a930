import { Badge, Center, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { giveawayStatusLabels, type Giveaway } from '@greenroom/contracts/api/giveaways';
import { ErrorAlert } from '../../../components/error-alert';
import { FullHeightLoader } from '../../../components/full-height-loader';
import { duration } from '../../../lib/format';
import { useGiveaway, useGiveawayEntries, useLiveGiveaways } from '../api/giveaways';
import { GiveawayWinners, useSecondsLeft } from './giveaway-winners';
import classes from './giveaway-popout.module.css';

const SPIN_MS = 3500;

/**
 * The draw as a capture source for OBS: while entries are open, the count and the timer; at the draw, the entrants'
 * names run past and slow down onto each winner; then the winners with their claim timers and chat lines.
 */
export function GiveawayPopout({ channelId, giveawayId }: { channelId: string; giveawayId: string }) {
  const giveaway = useGiveaway(channelId, giveawayId);
  useLiveGiveaways(channelId);
  if (giveaway.error) return <ErrorAlert error={giveaway.error} m="md" />;
  if (!giveaway.data) return <FullHeightLoader />;
  return <Draw channelId={channelId} giveaway={giveaway.data} />;
}

function Draw({ channelId, giveaway: g }: { channelId: string; giveaway: Giveaway }) {
  const entries = useGiveawayEntries(channelId, g.id);
  // The spin shows names from the first page of entries (the most tickets first).
  const names = (entries.data?.pages ?? []).flatMap((p) => p.records.map((e) => e.display_name));
  const winners = g.winner_list.filter((w) => w.status !== 'rerolled');
  const latest = winners.map((w) => w.id).join();
  const seen = useRef(latest);
  const current = useRef({ names, winners });
  current.current = { names, winners };
  const [spinning, setSpinning] = useState<string | null>(null);
  const [shown, setShown] = useState('');
  const left = useSecondsLeft(g.status === 'open' ? g.closes_at : null);

  // A new winner (the draw or a re-roll) while the popout is open: spin onto the name.
  useEffect(() => {
    if (latest === seen.current) return;
    seen.current = latest;
    const { names, winners } = current.current;
    const target = winners.at(-1)?.display_name;
    if (!target || names.length === 0) return;
    setSpinning(target);
    const started = performance.now();
    let timer: ReturnType<typeof setTimeout>;
    const step = () => {
      const t = (performance.now() - started) / SPIN_MS;
      if (t >= 1) {
        setShown(target);
        setSpinning(null);
        return;
      }
      setShown(names[Math.floor(Math.random() * names.length)]!);
      // Slows down as it reaches the winner.
      timer = setTimeout(step, 40 + 360 * t * t);
    };
    step();
    return () => clearTimeout(timer);
  }, [latest]);

  return (
    <Center mih="100vh" p="md" className={classes.stage}>
      <Stack align="center" gap="md" w="100%" maw={640}>
        <Title order={1} ta="center" className={classes.title}>
          {g.title}
        </Title>
        {spinning ? (
          <Text className={classes.spin} aria-live="off">
            {shown}
          </Text>
        ) : g.status === 'drawn' ? (
          <Stack w="100%" gap="xs" aria-live="polite">
            <Text ta="center" size="lg" c="dimmed">
              {winners.length === 1 ? 'The winner is' : 'The winners are'}
            </Text>
            <GiveawayWinners giveaway={{ ...g, winner_list: winners }} />
          </Stack>
        ) : (
          <Stack align="center" gap={4}>
            <Badge size="lg" variant="light">
              {giveawayStatusLabels[g.status]}
            </Badge>
            {g.status === 'open' && (
              <Text size="xl" fw={700} ta="center">
                Type {g.keyword} in chat to enter
              </Text>
            )}
            <Text size="lg" c="dimmed">
              {g.entry_count.toLocaleString('en-US')} {g.entry_count === 1 ? 'entry' : 'entries'}
              {left !== null && ` · ${duration(left)} left`}
            </Text>
          </Stack>
        )}
      </Stack>
    </Center>
  );
}
