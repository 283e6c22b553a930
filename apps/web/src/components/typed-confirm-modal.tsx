import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ErrorAlert } from './error-alert';

interface TypedConfirmModalProps {
  opened: boolean;
  /** Called after the typed text is cleared (also reset the mutation here). */
  onClose: () => void;
  title: string;
  /** What will happen, and any extra fields (shown above the confirmation field). */
  children: ReactNode;
  /** Label of the confirmation field, e.g. "Channel name". */
  label: string;
  /** The text to type; the server verifies it too. */
  expected: string;
  confirmLabel: string;
  /** Further conditions for the red button besides the typed text (e.g. a new owner picked). */
  ready?: boolean;
  /**
   * false: the red button works as soon as something is typed and the server alone judges it (its answer is
   * shown), for confirmations the server verifies and where a disabled button would say nothing.
   */
  requireMatch?: boolean;
  pending: boolean;
  error: unknown;
  onConfirm: (typed: string) => void;
}

/** A destructive action confirmed by typing a name (delete account, delete channel, transfer ownership). */
export function TypedConfirmModal({
  opened,
  onClose,
  title,
  children,
  label,
  expected,
  confirmLabel,
  ready = true,
  requireMatch = true,
  pending,
  error,
  onConfirm,
}: TypedConfirmModalProps) {
  const [typed, setTyped] = useState('');
  const matches = requireMatch ? expected !== '' && typed.trim() === expected : typed.trim() !== '';
  const close = () => {
    setTyped('');
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (matches && ready) onConfirm(typed.trim());
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <form onSubmit={submit}>
        <Stack gap="sm">
          {children}
          <TextInput
            label={label}
            description={
              <>
                Type <b>{expected}</b> to confirm.
              </>
            }
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
          />
          {error != null && <ErrorAlert error={error} />}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" disabled={!matches || !ready} loading={pending}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
