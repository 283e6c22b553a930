import { Checkbox, Group, NumberInput, Radio, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useNavigate } from 'react-router';
import { audienceLevels, accessLevelLabels } from '@greenroom/contracts/access';
import { giveawayBodySchema, giveawayEntryModeLabels, type Giveaway, type GiveawayBody } from '@greenroom/contracts/api/giveaways';
import { channelProviderIds, providers } from '@greenroom/contracts/providers';
import { EditorForm } from '../../../components/editor-form';
import { LEAVE_WITHOUT_ASKING, useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { useFormSubmit, useSchemaForm, type SchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useCreateGiveaway, useUpdateGiveaway } from '../api/giveaways';

type Form = SchemaForm<typeof giveawayBodySchema>;
type NumberKey = 'ticket_cost' | 'max_tickets' | 'sub_luck' | 'winners' | 'duration_seconds' | 'claim_seconds';

const chatPlatforms = channelProviderIds.filter((p) => providers[p].chatRead);

function NumberField({
  form,
  name,
  label,
  description,
  step,
}: {
  form: Form;
  name: NumberKey;
  label: string;
  description?: string;
  step?: number;
}) {
  return (
    <NumberInput
      label={label}
      description={description}
      min={0}
      step={step ?? 1}
      decimalScale={step && step < 1 ? 1 : 0}
      thousandSeparator=","
      allowNegative={false}
      {...form.getInputProps(name)}
      onChange={(v) => form.setFieldValue(name, v === '' ? ('' as unknown as number) : Number(v))}
    />
  );
}

const toBody = (g: Giveaway): GiveawayBody => ({
  title: g.title,
  entry_mode: g.entry_mode,
  keyword: g.keyword,
  ticket_cost: g.ticket_cost,
  max_tickets: g.max_tickets,
  min_level: g.min_level,
  platforms: g.platforms,
  sub_luck: g.sub_luck,
  winners: g.winners,
  duration_seconds: g.duration_seconds,
  claim_seconds: g.claim_seconds,
});

/** A giveaway's rules: editable until it opens. */
export function GiveawayForm({ channelId, giveaway, pointsName }: { channelId: string; giveaway: Giveaway | null; pointsName: string }) {
  const navigate = useNavigate();
  const create = useCreateGiveaway(channelId);
  const update = useUpdateGiveaway(channelId, giveaway?.id ?? '');
  const form = useSchemaForm(giveawayBodySchema, {
    initialValues: giveaway ? toBody(giveaway) : giveawayBodySchema.parse({ title: 'Giveaway' }),
  });
  const submit = useFormSubmit(form, (body) => (giveaway ? update.mutateAsync(body) : create.mutateAsync(body)), {
    onSuccess: (saved) => {
      notifySuccess(`${saved.title} saved`);
      if (!giveaway) void navigate(`../${saved.id}`, { replace: true, relative: 'path', state: LEAVE_WITHOUT_ASKING });
    },
  });
  useUnsavedChangesGuard(form);
  const values = form.getValues();
  const locked = giveaway !== null && giveaway.status !== 'draft';
  return (
    <EditorForm
      label="Giveaway"
      onSubmit={submit.onSubmit}
      error={submit.error}
      submitting={form.submitting}
      canSave={!giveaway || form.isDirty()}
      saveLabel={giveaway ? 'Save' : 'Create giveaway'}
      locked={locked}
    >
      <TextInput label="Title" withAsterisk {...form.getInputProps('title')} />
      <Radio.Group label="Entry" {...form.getInputProps('entry_mode')}>
        <Group gap="lg" mt={6}>
          {(['keyword', 'tickets'] as const).map((m) => (
            <Radio key={m} value={m} label={giveawayEntryModeLabels[m]} />
          ))}
        </Group>
      </Radio.Group>
      <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md" verticalSpacing="md">
        <TextInput
          label="Keyword"
          description={values.entry_mode === 'tickets' ? 'Viewers type it with a count, e.g. !enter 5' : 'What viewers type to enter'}
          withAsterisk
          {...form.getInputProps('keyword')}
        />
        {values.entry_mode === 'tickets' && (
          <>
            <NumberField form={form} name="ticket_cost" label="Ticket cost" description={`In ${pointsName}; refunded if cancelled`} />
            <NumberField form={form} name="max_tickets" label="Most tickets per viewer" />
          </>
        )}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md" verticalSpacing="md">
        <Select
          label="Who may enter"
          allowDeselect={false}
          data={audienceLevels.map((l) => ({ value: String(l), label: `${accessLevelLabels[l]} and above` }))}
          {...form.getInputProps('min_level')}
          value={String(values.min_level)}
          onChange={(v) => v !== null && form.setFieldValue('min_level', Number(v) as GiveawayBody['min_level'])}
        />
        <NumberField
          form={form}
          name="sub_luck"
          label="Subscriber luck"
          description="Subs' and members' entries weigh this many times"
          step={0.1}
        />
        <NumberField form={form} name="winners" label="Winners" />
        <NumberField
          form={form}
          name="duration_seconds"
          label="Timer (seconds)"
          description="Entries close by themselves; 0: close by hand"
        />
        <NumberField
          form={form}
          name="claim_seconds"
          label="Claim time (seconds)"
          description="A winner must write in chat within it; 0: no claim"
        />
      </SimpleGrid>
      <Checkbox.Group
        label="Platforms"
        description="None ticked: every platform"
        {...form.getInputProps('platforms')}
        value={values.platforms ?? []}
      >
        <Group gap="md" mt={6}>
          {chatPlatforms.map((p) => (
            <Checkbox key={p} value={p} label={providers[p].name} />
          ))}
        </Group>
      </Checkbox.Group>
    </EditorForm>
  );
}
