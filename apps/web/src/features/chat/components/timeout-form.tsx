import { Button, Group, NumberInput, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { providers } from '@greenroom/contracts/providers';
import type { ModerationTarget } from '../api/ban-viewer';
import { duration } from '../../../lib/format';

const units = { seconds: 1, minutes: 60, hours: 3600 } as const;
type Unit = keyof typeof units;

/** Custom timeout: an amount in seconds, minutes or hours, bounded by the platform's longest timeout. */
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
  const max = info.maxTimeoutSeconds ?? 1_209_600;
  const [amount, setAmount] = useState<number | string>(5);
  const [unit, setUnit] = useState<Unit>('minutes');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const seconds = typeof amount === 'number' ? Math.round(amount * units[unit]) : NaN;
  const error =
    !Number.isFinite(seconds) || seconds < 1 ? 'Enter a duration' : seconds > max ? `${info.name} allows at most ${duration(max)}` : null;

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
            data={[
              { value: 'seconds', label: 'Seconds' },
              { value: 'minutes', label: 'Minutes' },
              { value: 'hours', label: 'Hours' },
            ]}
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
