import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';
import type { FormSubmit } from '../lib/form';
import { ErrorAlert } from './error-alert';

interface TypedConfirmModalProps<Values extends Record<string, unknown>, Output> {
  opened: boolean;
  /** Called after the form is cleared (reset the mutation here if the page shows its state). */
  onClose: () => void;
  title: string;
  /** What will happen, and any extra fields bound to `form` (shown above the confirmation field). */
  children: ReactNode;
  /** The form (`useSchemaForm` with the request's contract schema) and its submit (`useFormSubmit`). */
  form: UseFormReturnType<Values, Output>;
  submit: FormSubmit;
  /** The form field holding the typed text — the request's own field, so the server's refusal shows on it. */
  field: keyof Values & string;
  /** Label of the confirmation field, e.g. "Channel name". */
  label: string;
  /** The text to type; the server verifies it too. */
  expected: string;
  confirmLabel: string;
  /** Further conditions for the red button besides the typed text (e.g. a new owner picked). */
  ready?: boolean;
  /**
   * false: the red button works as soon as something is typed and the server alone judges it (its refusal shows on
   * the field), for confirmations the server verifies and where a disabled button would say nothing.
   */
  requireMatch?: boolean;
}

/**
 * A destructive action confirmed by typing a name (delete account, delete channel, transfer ownership): the red
 * button stays disabled until the typed text (trimmed) is the expected one, or with `requireMatch={false}` until
 * something is typed.
 */
export function TypedConfirmModal<Values extends Record<string, unknown>, Output>({
  opened,
  onClose,
  title,
  children,
  form,
  submit,
  field,
  label,
  expected,
  confirmLabel,
  ready = true,
  requireMatch = true,
}: TypedConfirmModalProps<Values, Output>) {
  const typed = form.values[field];
  const entered = typeof typed === 'string' ? typed.trim() : '';
  const matches = requireMatch ? expected !== '' && entered === expected : entered !== '';
  const close = () => {
    form.reset();
    submit.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <form onSubmit={(event) => (matches && ready ? submit.onSubmit(event) : event.preventDefault())} noValidate>
        <Stack gap="sm">
          {children}
          <TextInput
            label={label}
            description={
              <>
                Type <b>{expected}</b> to confirm.
              </>
            }
            {...form.getInputProps(field)}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
          />
          {submit.error != null && <ErrorAlert error={submit.error} />}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" disabled={!matches || !ready} loading={form.submitting}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
