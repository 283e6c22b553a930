import { Button, Group, NumberInput, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { providers, timeoutProblem } from '@greenroom/contracts/providers';
import type { ModerationTarget } from '../api/ban-viewer';
import { duration } from '../../../lib/format';

const units = { seconds: 1, minutes: 60, hours: 3600 } as const;
type Unit = keyof typeof units;
const unitLabels: Record<Unit, string> = { seconds: 'Seconds', minutes: 'Minutes', hours: 'Hours' };

/**
 * Custom timeout: a whole amount of seconds, minutes or hours within the platform's range. Only the units the
 * platform takes are offered (Kick: whole minutes, so no seconds), and a duration it would not apply as given is
 * explained before anything is sent.
 */
export function TimeoutForm({
  target,
  onSubmit,
  onCancel,
}: {
  target: ModerationTarget;
  onSubmit: (seconds: number, reason?: string) => Promise<boolean>;
  onCancel: () => void;
}) {
  const info = providers[target.provider];
  const offered = (Object.keys(units) as Unit[]).filter((u) => units[u] % info.timeoutStepSeconds === 0);
  const [amount, setAmount] = useState<number | string>(5);
  const [unit, setUnit] = useState<Unit>('minutes');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const seconds = typeof amount === 'number' ? amount * units[unit] : NaN;
  const error = !Number.isFinite(seconds) || seconds <= 0 ? 'Enter a duration' : timeoutProblem(target.provider, seconds);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (error) return;
    setBusy(true);
    const ok = await onSubmit(seconds, info.banReason ? reason : undefined);
    setBusy(false);
    if (ok) onCancel();
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          Time out <b>{target.displayName}</b> on {info.name}.
        </Text>
        <Group align="flex-start" gap="xs" wrap="nowrap">
          <NumberInput
            label="Duration"
            value={amount}
            onChange={setAmount}
            min={1}
            allowDecimal={false}
            error={error}
            data-autofocus
            style={{ flex: 1 }}
          />
          <SegmentedControl
            mt={25}
            value={unit}
            onChange={(value) => setUnit(value)}
            data={offered.map((u) => ({ value: u, label: unitLabels[u] }))}
            aria-label="Unit"
          />
        </Group>
        {info.banReason && (
          <Textarea
            label="Reason (optional)"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            maxLength={info.banReasonMaxLength ?? undefined}
            autosize
            minRows={2}
          />
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" color="orange" loading={busy} disabled={Boolean(error)}>
            {Number.isFinite(seconds) && !error ? `Time out for ${duration(seconds)}` : 'Time out'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
