import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { z } from 'zod';
import { banBodySchema } from '@greenroom/contracts/api/moderation';
import { providers } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import type { ModerationTarget } from '../api/ban-viewer';

const banFormSchema = z.object({ reason: banBodySchema.shape.reason.unwrap() });

/** Confirms a permanent ban, with a reason where the platform takes one. */
export function BanForm({
  target,
  onSubmit,
  onCancel,
}: {
  target: ModerationTarget;
  /** Bans; a failure is thrown and shown here (on the reason field when the server names it). */
  onSubmit: (reason?: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  const info = providers[target.provider];
  const form = useSchemaForm(banFormSchema, { initialValues: { reason: '' } });
  const submit = useFormSubmit(form, ({ reason }) => onSubmit(info.banReason ? reason : undefined), { onSuccess: onCancel });
  const maxLength = info.banReasonMaxLength ?? undefined;
  const reason = form.values.reason;
  return (
    <form onSubmit={submit.onSubmit} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          Ban <b>{target.displayName}</b> from your {info.name} chat. They can be unbanned later.
        </Text>
        {info.banReason && (
          <Textarea
            label="Reason (optional)"
            {...form.getInputProps('reason')}
            maxLength={maxLength}
            description={maxLength ? `${reason.length}/${maxLength}` : undefined}
            autosize
            minRows={2}
            data-autofocus
          />
        )}
        {submit.error != null && <ErrorAlert error={submit.error} />}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" color="red" loading={form.submitting} data-autofocus={info.banReason ? undefined : true}>
            Ban
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
