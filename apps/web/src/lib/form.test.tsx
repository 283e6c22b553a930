import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { NumberInput, TextInput } from '@mantine/core';
import { z } from 'zod';
import { installMatchMedia, renderWithMantine } from '../test/mantine';
import { ApiError } from './api-client';
import { errorMessage } from './error-message';
import { formFieldErrors, serverFieldErrors, useFormSubmit, useSchemaForm } from './form';

beforeAll(installMatchMedia);
afterEach(cleanup);

const refused = (status: number, fields?: Record<string, string>, message = 'Refused') =>
  new ApiError(status, 'validation_error', message, { type: 'validation_error', message, ...(fields && { fields }) });

describe('serverFieldErrors', () => {
  it('reads `fields` of refusals (400, 409, 422 answers)', () => {
    expect(serverFieldErrors(refused(400, { name: 'Invalid' }))).toEqual({ name: 'Invalid' });
    expect(serverFieldErrors(refused(409, { name: 'Taken' }))).toEqual({ name: 'Taken' });
    expect(serverFieldErrors(refused(422, { 'items.0.text': 'Too long' }))).toEqual({ 'items.0.text': 'Too long' });
  });

  it('is null for server failures, answers without fields and errors that are not API errors', () => {
    expect(serverFieldErrors(refused(500, { name: 'Taken' }))).toBeNull();
    expect(serverFieldErrors(refused(0, { name: 'Taken' }))).toBeNull();
    expect(serverFieldErrors(refused(400))).toBeNull();
    expect(serverFieldErrors(refused(400, {}))).toBeNull();
    expect(serverFieldErrors(new ApiError(400, 'http_error', '400 Bad Request', '<html>'))).toBeNull();
    expect(serverFieldErrors(new Error('boom'))).toBeNull();
  });
});

describe('formFieldErrors', () => {
  const values = { name: '', items: [{ text: '' }], amount: 5 };

  it('keeps the errors of fields the form has, nested paths included', () => {
    expect(formFieldErrors(refused(400, { name: 'Taken', 'items.0.text': 'Too long', other: 'x' }), values)).toEqual({
      name: 'Taken',
      'items.0.text': 'Too long',
    });
  });

  it('renames server paths through the field map', () => {
    expect(formFieldErrors(refused(400, { duration_seconds: 'Too long' }), values, { duration_seconds: 'amount' })).toEqual({
      amount: 'Too long',
    });
  });
});

const schema = z.object({ display_name: z.string().trim().min(1, 'Enter a name').max(10, 'At most 10 characters') });

function NameForm({ save, onSuccess }: { save: (body: { display_name: string }) => Promise<unknown>; onSuccess?: () => void }) {
  const form = useSchemaForm(schema, { initialValues: { display_name: '' } });
  const submit = useFormSubmit(form, save, { onSuccess });
  return (
    <form onSubmit={submit.onSubmit} aria-label="Name form" noValidate>
      <TextInput label="Name" {...form.getInputProps('display_name')} />
      {submit.error != null && <div role="alert">{errorMessage(submit.error)}</div>}
      <button type="submit">Save</button>
      <output aria-label="state">
        {form.isDirty() ? 'dirty' : 'clean'} {form.submitting ? 'saving' : 'idle'}
      </output>
    </form>
  );
}

const input = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Name' });
const type = (value: string) => fireEvent.change(input(), { target: { value } });
const submitForm = () => fireEvent.submit(screen.getByRole('form', { name: 'Name form' }));

describe('useSchemaForm + useFormSubmit', () => {
  it('checks the contract schema before saving and shows its message on the field', async () => {
    const save = vi.fn(async () => ({}));
    renderWithMantine(<NameForm save={save} />);
    submitForm();
    expect(await screen.findByText('Enter a name')).toBeTruthy();
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect(save).not.toHaveBeenCalled();
    type('x'.repeat(11));
    expect(await screen.findByText('At most 10 characters')).toBeTruthy();
  });

  it('saves the schema output (trimmed) and the saved form is not dirty any more', async () => {
    const save = vi.fn(async () => ({ id: '1' }));
    const onSuccess = vi.fn();
    renderWithMantine(<NameForm save={save} onSuccess={onSuccess} />);
    type('  Demo ');
    expect(screen.getByLabelText('state').textContent).toBe('dirty idle');
    submitForm();
    await waitFor(() => expect(onSuccess).toHaveBeenCalledOnce());
    expect(save).toHaveBeenCalledWith({ display_name: 'Demo' });
    await waitFor(() => expect(screen.getByLabelText('state').textContent).toBe('clean idle'));
  });

  it("puts the server's field errors on their fields, with no alert", async () => {
    renderWithMantine(<NameForm save={() => Promise.reject(refused(400, { display_name: 'This name is taken' }, 'Invalid body'))} />);
    type('Demo');
    submitForm();
    expect(await screen.findByText('This name is taken')).toBeTruthy();
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText('state').textContent).toBe('dirty idle');
    // Editing the field replaces the server's verdict with the schema's.
    type('Demo 2');
    await waitFor(() => expect(screen.queryByText('This name is taken')).toBeNull());
  });

  it('shows a failure without fields, or with fields the form does not have, in the alert', async () => {
    const failures = [new ApiError(409, 'conflict', 'Already exists'), refused(400, { unknown_field: 'Nope' }, 'Invalid body field')];
    for (const failure of failures) {
      renderWithMantine(<NameForm save={() => Promise.reject(failure)} />);
      type('Demo');
      submitForm();
      expect((await screen.findByRole('alert')).textContent).toContain(failure.message);
      cleanup();
    }
  });

  it('ignores a second submit while saving', async () => {
    let finish: (value: unknown) => void = () => {};
    const save = vi.fn(() => new Promise((resolve) => (finish = resolve)));
    renderWithMantine(<NameForm save={save} />);
    type('Demo');
    submitForm();
    await waitFor(() => expect(screen.getByLabelText('state').textContent).toContain('saving'));
    submitForm();
    finish({});
    await waitFor(() => expect(screen.getByLabelText('state').textContent).toBe('clean idle'));
    expect(save).toHaveBeenCalledOnce();
  });
});

describe('field map and form-wide rules', () => {
  const timeoutSchema = z
    .object({ amount: z.number().int().min(1, 'Enter a duration'), unit: z.enum(['s', 'm']) })
    .refine((v) => v.amount < 100 || v.unit === 's', { message: 'Pick seconds for long durations' });

  function TimeoutForm({ save }: { save: (body: { amount: number; unit: 's' | 'm' }) => Promise<unknown> }) {
    const form = useSchemaForm(timeoutSchema, { initialValues: { amount: 5, unit: 'm' } });
    const submit = useFormSubmit(form, save, { fieldMap: { duration_seconds: 'amount' } });
    return (
      <form onSubmit={submit.onSubmit} aria-label="Name form" noValidate>
        <NumberInput label="Duration" {...form.getInputProps('amount')} />
        {submit.error != null && <div role="alert">{errorMessage(submit.error)}</div>}
      </form>
    );
  }

  it("shows the server's `duration_seconds` on the form's amount field", async () => {
    renderWithMantine(<TimeoutForm save={() => Promise.reject(refused(400, { duration_seconds: 'At most 14 days' }))} />);
    submitForm();
    expect(await screen.findByText('At most 14 days')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a rule about the whole form in the alert', async () => {
    const save = vi.fn(async () => ({}));
    renderWithMantine(<TimeoutForm save={save} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Duration' }), { target: { value: '120' } });
    submitForm();
    expect((await screen.findByRole('alert')).textContent).toContain('Pick seconds for long durations');
    expect(save).not.toHaveBeenCalled();
  });
});
