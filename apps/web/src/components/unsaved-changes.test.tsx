import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { TextInput } from '@mantine/core';
import { createMemoryRouter, Link, Outlet, RouterProvider, useNavigate } from 'react-router';
import { z } from 'zod';
import { useFormSubmit, useSchemaForm } from '../lib/form';
import { installMatchMedia, renderWithMantine } from '../test/mantine';
import { LEAVE_WITHOUT_ASKING, UnsavedChangesGuard, useUnsavedChangesGuard } from './unsaved-changes';

beforeAll(installMatchMedia);
afterEach(cleanup);

const schema = z.object({ title: z.string().trim().min(1) });

function Editor() {
  const navigate = useNavigate();
  const form = useSchemaForm(schema, { initialValues: { title: 'Old' } });
  const submit = useFormSubmit(form, async () => ({}));
  useUnsavedChangesGuard(form);
  return (
    <form onSubmit={submit.onSubmit} aria-label="Editor">
      <TextInput label="Title" {...form.getInputProps('title')} />
      <button type="submit">Save</button>
      <Link to="/other">Other page</Link>
      <Link to="/editor?tab=2">Same page</Link>
      <button type="button" onClick={() => void navigate('/other', { state: LEAVE_WITHOUT_ASKING })}>
        Leave without asking
      </button>
    </form>
  );
}

function renderApp() {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <UnsavedChangesGuard>
            <Outlet />
          </UnsavedChangesGuard>
        ),
        children: [
          { path: 'editor', element: <Editor /> },
          { path: 'other', element: <h1>Other page</h1> },
        ],
      },
    ],
    { initialEntries: ['/editor'] },
  );
  renderWithMantine(<RouterProvider router={router} />);
  return router;
}

const edit = () => fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'New' } });
const beforeUnloadPrevented = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

describe('unsaved changes guard', () => {
  it('leaves a page without changes at once', async () => {
    const router = renderApp();
    fireEvent.click(screen.getByRole('link', { name: 'Other page' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/other'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks before leaving with unsaved changes: Stay keeps the page and the changes', async () => {
    const router = renderApp();
    edit();
    fireEvent.click(screen.getByRole('link', { name: 'Other page' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    expect(router.state.location.pathname).toBe('/editor');
    fireEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    expect(router.state.location.pathname).toBe('/editor');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Title' }).value).toBe('New');
  });

  it('asks before leaving with unsaved changes: Discard leaves', async () => {
    const router = renderApp();
    edit();
    fireEvent.click(screen.getByRole('link', { name: 'Other page' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/other'));
  });

  it('does not ask for a change of query on the same page, nor for a navigation marked to leave without asking', async () => {
    const router = renderApp();
    edit();
    fireEvent.click(screen.getByRole('link', { name: 'Same page' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=2'));
    fireEvent.click(screen.getByRole('button', { name: 'Leave without asking' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/other'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('does not ask once the changes are saved', async () => {
    const router = renderApp();
    edit();
    fireEvent.submit(screen.getByRole('form', { name: 'Editor' }));
    await waitFor(() => expect(beforeUnloadPrevented()).toBe(false));
    await act(() => router.navigate('/other'));
    expect(router.state.location.pathname).toBe('/other');
  });

  it('asks the browser to confirm a reload or closing the tab only while there are changes', () => {
    renderApp();
    expect(beforeUnloadPrevented()).toBe(false);
    edit();
    expect(beforeUnloadPrevented()).toBe(true);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Old' } });
    expect(beforeUnloadPrevented()).toBe(false);
  });
});
