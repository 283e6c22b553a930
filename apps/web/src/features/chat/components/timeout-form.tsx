import { Button, Group, NumberInput, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { useMemo } from 'react';
import { z } from 'zod';
import { banBodySchema } from '@greenroom/contracts/api/moderation';
import { providers, timeoutProblem, type ChannelProviderId } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { duration } from '../../../lib/format';
import type { ModerationTarget } from '../api/ban-viewer';

const units = { seconds: 1, minutes: 60, hours: 3600 } as const;
type Unit = keyof typeof units;
const unitLabels: Record<Unit, string> = { seconds: 'Seconds', minutes: 'Minutes', hours: 'Hours' };

/**
 * An amount and a unit instead of the body's `duration_seconds`, within the platform's range and in the unit it
 * takes (Kick: whole minutes); the body's reason.
 */
function timeoutFormSchema(provider: ChannelProviderId) {
  return z
    .object({
      amount: z.number('Enter a duration').min(0, 'Enter a duration'),
      unit: z.enum(['seconds', 'minutes', 'hours']),
      reason: banBodySchema.shape.reason.unwrap(),
    })
    .superRefine(({ amount, unit }, ctx) => {
      const seconds = amount * units[unit];
      const problem = seconds <= 0 ? 'Enter a duration' : timeoutProblem(provider, seconds);
      if (problem) ctx.addIssue({ code: 'custom', path: ['amount'], message: problem });
    });
}

const secondsOf = (amount: unknown, unit: Unit) => (typeof amount === 'number' ? amount * units[unit] : NaN);

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
  /** Times out; a failure is thrown and shown here (on its field when the server names one). */
  onSubmit: (seconds: number, reason?: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  const info = providers[target.provider];
  const offered = (Object.keys(units) as Unit[]).filter((u) => units[u] % info.timeoutStepSeconds === 0);
  const schema = useMemo(() => timeoutFormSchema(target.provider), [target.provider]);
  const form = useSchemaForm(schema, { initialValues: { amount: 5, unit: 'minutes', reason: '' } });
  const submit = useFormSubmit(form, ({ amount, unit, reason }) => onSubmit(secondsOf(amount, unit), info.banReason ? reason : undefined), {
    onSuccess: onCancel,
    fieldMap: { duration_seconds: 'amount' },
  });
  const seconds = secondsOf(form.values.amount, form.values.unit);
  const valid = form.isValid();

  return (
    <form onSubmit={submit.onSubmit} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          Time out <b>{target.displayName}</b> on {info.name}.
        </Text>
        <Group align="flex-start" gap="xs" wrap="nowrap">
          <NumberInput label="Duration" {...form.getInputProps('amount')} min={1} allowDecimal={false} data-autofocus style={{ flex: 1 }} />
          <SegmentedControl
            mt={25}
            {...form.getInputProps('unit')}
            onChange={(value) => {
              form.setFieldValue('unit', value as Unit);
              form.validateField('amount');
            }}
            data={offered.map((u) => ({ value: u, label: unitLabels[u] }))}
            aria-label="Unit"
          />
        </Group>
        {info.banReason && (
          <Textarea
            label="Reason (optional)"
            {...form.getInputProps('reason')}
            maxLength={info.banReasonMaxLength ?? undefined}
            autosize
            minRows={2}
          />
        )}
        {submit.error != null && <ErrorAlert error={submit.error} />}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" color="orange" loading={form.submitting} disabled={!valid}>
            {valid ? `Time out for ${duration(seconds)}` : 'Time out'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
