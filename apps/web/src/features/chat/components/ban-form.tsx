import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { providers } from '@greenroom/contracts/providers';
import type { ModerationTarget } from '../api/ban-viewer';

/** Confirms a permanent ban, with a reason where the platform takes one. */
export function BanForm({
  target,
  onSubmit,
  onCancel,
}: {
  target: ModerationTarget;
  onSubmit: (reason?: string) => Promise<boolean>;
  onCancel: () => void;
}) {
  const info = providers[target.provider];
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const ok = await onSubmit(info.banReason ? reason : undefined);
    setBusy(false);
    if (ok) onCancel();
  };
  const maxLength = info.banReasonMaxLength ?? undefined;
  return (
    <form onSubmit={(event) => void submit(event)}>
      <Stack gap="sm">
        <Text size="sm">
          Ban <b>{target.displayName}</b> from your {info.name} chat. They can be unbanned later.
        </Text>
        {info.banReason && (
          <Textarea
            label="Reason (optional)"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            maxLength={maxLength}
            description={maxLength ? `${reason.length}/${maxLength}` : undefined}
            autosize
            minRows={2}
            data-autofocus
          />
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" color="red" loading={busy} data-autofocus={info.banReason ? undefined : true}>
            Ban
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
