import { Button, Group, NumberInput, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { useMemo } from 'react';
import { z } from 'zod';
import { banBodySchema } from '@greenroom/contracts/api/moderation';
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { duration } from '../../../lib/format';
import type { ModerationTarget } from '../api/ban-viewer';

const units = { seconds: 1, minutes: 60, hours: 3600 } as const;
type Unit = keyof typeof units;
const DEFAULT_MAX_TIMEOUT_SECONDS = 1_209_600;

/** An amount and a unit instead of the body's `duration_seconds` (bounded by the platform's longest timeout); the body's reason. */
function timeoutFormSchema(provider: ChannelProviderId) {
  const info = providers[provider];
  const max = info.maxTimeoutSeconds ?? DEFAULT_MAX_TIMEOUT_SECONDS;
  return z
    .object({
      amount: z.number('Enter a duration').min(0, 'Enter a duration'),
      unit: z.enum(['seconds', 'minutes', 'hours']),
      reason: banBodySchema.shape.reason.unwrap(),
    })
    .superRefine(({ amount, unit }, ctx) => {
      const seconds = Math.round(amount * units[unit]);
      if (seconds < 1) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Enter a duration' });
      else if (seconds > max) ctx.addIssue({ code: 'custom', path: ['amount'], message: `${info.name} allows at most ${duration(max)}` });
    });
}

const secondsOf = (amount: unknown, unit: Unit) => (typeof amount === 'number' ? Math.round(amount * units[unit]) : NaN);

/** Custom timeout: an amount in seconds, minutes or hours, bounded by the platform's longest timeout. */
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
