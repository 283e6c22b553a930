import { Button, Group, Stack, type MantineSpacing } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import type { FormEvent, ReactNode } from 'react';
import { ErrorAlert } from './error-alert';

/**
 * A settings or editor form: its fields, then the error of the last save, then the save button (on while there are
 * changes to save). `locked` disables every field and hides the button (a giveaway that has opened).
 */
export function EditorForm({
  label,
  onSubmit,
  error,
  submitting,
  canSave,
  saveLabel = 'Save',
  locked = false,
  gap = 'md',
  children,
}: {
  /** The form's accessible name. */
  label: string;
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  error: unknown;
  submitting: boolean;
  canSave: boolean;
  saveLabel?: string;
  locked?: boolean;
  gap?: MantineSpacing;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} aria-label={label} noValidate>
      <fieldset disabled={locked} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap={gap}>
          {children}
          {error != null && <ErrorAlert error={error} />}
          {!locked && (
            <Group justify="flex-end">
              <Button type="submit" leftSection={<IconDeviceFloppy size={16} />} loading={submitting} disabled={!canSave}>
                {saveLabel}
              </Button>
            </Group>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}
