import { NumberInput, Paper, SimpleGrid, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { formatChance, type GameOdds } from '@greenroom/contracts/api/games';

/** A number field of a game form: an empty field stays empty (the schema says what is missing). */
export function numberProps<V>(form: UseFormReturnType<V, unknown>, path: string) {
  return {
    ...form.getInputProps(path),
    onChange: (v: number | string) => form.setFieldValue(path as never, v === '' ? '' : Number(v)),
  };
}

/** Minimum and maximum bet, user and global cooldowns. */
export function BetAndCooldownFields<V>({ form }: { form: UseFormReturnType<V, unknown> }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" verticalSpacing="md">
      <NumberInput
        label="Minimum bet"
        min={1}
        allowNegative={false}
        allowDecimal={false}
        thousandSeparator=","
        {...numberProps(form, 'min_bet')}
      />
      <NumberInput
        label="Maximum bet"
        min={1}
        allowNegative={false}
        allowDecimal={false}
        thousandSeparator=","
        {...numberProps(form, 'max_bet')}
      />
      <NumberInput
        label="User cooldown (seconds)"
        min={0}
        allowNegative={false}
        allowDecimal={false}
        {...numberProps(form, 'user_cooldown_seconds')}
      />
      <NumberInput
        label="Global cooldown (seconds)"
        min={0}
        allowNegative={false}
        allowDecimal={false}
        {...numberProps(form, 'global_cooldown_seconds')}
      />
    </SimpleGrid>
  );
}

export function MessageField<V>({ form, path, label }: { form: UseFormReturnType<V, unknown>; path: string; label: string }) {
  return <Textarea label={label} autosize minRows={1} maxRows={4} withAsterisk {...form.getInputProps(path)} />;
}

/** The odds and expected return computed from the settings as typed — what `!odds` tells viewers once saved. */
export function OddsPanel({ odds }: { odds: GameOdds | null }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Odds">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Odds
        </Title>
        {odds === null ? (
          <Text size="sm" c="dimmed">
            Fix the settings to see the odds.
          </Text>
        ) : (
          <>
            <SimpleGrid cols={2}>
              <div>
                <Text size="xs" c="dimmed">
                  Win chance
                </Text>
                <Text fw={700} size="lg" aria-label="Win chance">
                  {formatChance(odds.win_chance)}
                </Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  Expected return
                </Text>
                <Text fw={700} size="lg" c={odds.expected_return > 1 ? 'red.4' : undefined} aria-label="Expected return">
                  {formatChance(odds.expected_return)}
                </Text>
              </div>
            </SimpleGrid>
            <Text size="xs" c={odds.expected_return > 1 ? 'red.4' : 'dimmed'}>
              {odds.expected_return > 1
                ? 'Above 100%: viewers win points on average, and the channel hands them out.'
                : `Viewers get back ${formatChance(odds.expected_return)} of what they bet, on average.`}
            </Text>
            {odds.outcomes.length > 0 && (
              <Table fz="sm" verticalSpacing={2} aria-label="Outcomes">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Outcome</Table.Th>
                    <Table.Th ta="right">Chance</Table.Th>
                    <Table.Th ta="right">Pays</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {odds.outcomes.map((o) => (
                    <Table.Tr key={o.label}>
                      <Table.Td>{o.label}</Table.Td>
                      <Table.Td ta="right">{formatChance(o.chance)}</Table.Td>
                      <Table.Td ta="right">{o.multiplier}×</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}

export const messageVariables = (extra: string) =>
  `Variables: {user}, {bet}, {payout}, {balance}, {pointsname}${extra}. Viewers bet 100, 50%, 5k, 1m or all.`;
