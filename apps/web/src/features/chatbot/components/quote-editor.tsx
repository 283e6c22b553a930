import { Button, Group, Stack, Text, TextInput, Textarea, SimpleGrid } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { quoteBodySchema, type Quote, type QuoteBody } from '@greenroom/contracts/api/chatbot';
import { providers } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { LEAVE_WITHOUT_ASKING, useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useCreateQuote, useDeleteQuote, useQuote, useUpdateQuote } from '../api/quotes';
import { DeleteButton, EditorPage } from './editor-page';

const today = () => new Date().toISOString().slice(0, 10);

/** `/channels/{id}/quotes/{channelQuoteId}` (and `new`). */
export function QuoteEditorPage({ channelId, quoteId, userName }: { channelId: string; quoteId: string; userName: string }) {
  const isNew = quoteId === 'new';
  const quote = useQuote(channelId, quoteId, !isNew);
  return (
    <EditorPage
      backTo={`/channels/${channelId}/quotes`}
      backLabel="Quotes"
      title={isNew ? 'New quote' : quote.data ? `Quote #${quote.data.number}` : 'Quote'}
      loading={!isNew && quote.isPending}
      error={quote.error}
      notFoundText="This quote does not exist"
    >
      {(isNew || quote.data) && (
        <QuoteForm key={quote.data?.updated_at ?? 'new'} channelId={channelId} quote={quote.data ?? null} userName={userName} />
      )}
    </EditorPage>
  );
}

function QuoteForm({ channelId, quote, userName }: { channelId: string; quote: Quote | null; userName: string }) {
  const navigate = useNavigate();
  const create = useCreateQuote(channelId);
  const update = useUpdateQuote(channelId, quote?.id ?? '');
  const remove = useDeleteQuote(channelId);
  const initial: QuoteBody = quote
    ? { text: quote.text, game: quote.game, quoted_on: quote.quoted_on, added_by: quote.added_by }
    : { text: '', game: null, quoted_on: today(), added_by: userName };
  const form = useSchemaForm(quoteBodySchema, { initialValues: initial });
  const submit = useFormSubmit(form, (body) => (quote ? update.mutateAsync(body) : create.mutateAsync(body)), {
    onSuccess: (saved) => {
      notifySuccess(`Quote #${saved.number} saved`);
      if (!quote) void navigate(`../${saved.id}`, { replace: true, relative: 'path', state: LEAVE_WITHOUT_ASKING });
    },
  });
  useUnsavedChangesGuard(form);
  const values = form.getValues();
  return (
    <form onSubmit={submit.onSubmit} aria-label="Quote" noValidate>
      <Stack gap="md">
        <Textarea label="Text" withAsterisk autosize minRows={2} maxRows={8} {...form.getInputProps('text')} />
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" verticalSpacing="md">
          <TextInput
            label="Game"
            placeholder="None"
            {...form.getInputProps('game')}
            value={values.game ?? ''}
            onChange={(e) => form.setFieldValue('game', e.currentTarget.value || null)}
          />
          <TextInput label="Date" type="date" withAsterisk {...form.getInputProps('quoted_on')} />
          <TextInput label="Added by" withAsterisk {...form.getInputProps('added_by')} />
        </SimpleGrid>
        {quote?.added_on_provider && (
          <Text size="xs" c="dimmed">
            Added from {providers[quote.added_on_provider].name} chat.
          </Text>
        )}
        {submit.error != null && <ErrorAlert error={submit.error} />}
        <Group justify="space-between">
          {quote ? (
            <DeleteButton
              what="quote"
              name={`#${quote.number}`}
              loading={remove.isPending}
              onConfirm={() =>
                remove.mutate(quote.id, {
                  onSuccess: () => {
                    notifySuccess(`Quote #${quote.number} deleted`);
                    void navigate('..', { relative: 'path', state: LEAVE_WITHOUT_ASKING });
                  },
                })
              }
            />
          ) : (
            <span />
          )}
          <Button
            type="submit"
            leftSection={<IconDeviceFloppy size={16} />}
            loading={form.submitting}
            disabled={!!quote && !form.isDirty()}
          >
            {quote ? 'Save' : 'Add quote'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
