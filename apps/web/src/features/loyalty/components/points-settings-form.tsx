import { Group, NumberInput, SimpleGrid, Switch, TagsInput, TextInput, Title } from '@mantine/core';
import { IGNORED_LOGINS_MAX, pointSettingsSchema, type PointSettings } from '@greenroom/contracts/api/points';
import { EditorForm } from '../../../components/editor-form';
import { useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { useFormSubmit, useSchemaForm, type SchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useSavePointSettings } from '../api/points';

type Form = SchemaForm<typeof pointSettingsSchema>;
type NumberKey = {
  [K in keyof PointSettings]: PointSettings[K] extends number ? K : never;
}[keyof PointSettings];

function PointsField({
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

/** The channel's earning rules, the points name and the gambling loss cap. */
export function PointsSettingsForm({ channelId, settings }: { channelId: string; settings: PointSettings }) {
  const save = useSavePointSettings(channelId);
  const form = useSchemaForm(pointSettingsSchema, { initialValues: settings });
  const submit = useFormSubmit(form, (body) => save.mutateAsync(body), {
    onSuccess: (saved) => {
      form.setInitialValues(saved);
      form.setValues(saved);
      notifySuccess('Points settings saved');
    },
  });
  useUnsavedChangesGuard(form);
  return (
    <EditorForm
      label="Points settings"
      onSubmit={submit.onSubmit}
      error={submit.error}
      submitting={form.submitting}
      canSave={form.isDirty()}
      gap="lg"
    >
      <Group gap="md" align="flex-end">
        <Switch label="Viewers earn points" {...form.getInputProps('enabled', { type: 'checkbox' })} />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" verticalSpacing="md">
        <TextInput label="Points name" description="What chat calls them, e.g. coins" withAsterisk {...form.getInputProps('points_name')} />
        <PointsField
          form={form}
          name="sub_multiplier"
          label="Sub multiplier"
          description="Watch and message points of subs and members"
          step={0.1}
        />
        <PointsField
          form={form}
          name="gamble_loss_cap"
          label="Loss cap per stream"
          description="Most a viewer may lose at slots and roulette; 0: none"
        />
      </SimpleGrid>
      <Title order={3} size="h5">
        Watching and chatting
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" verticalSpacing="md">
        <PointsField form={form} name="watch_points_per_minute" label="Points per minute watched" description="While the stream is live" />
        <PointsField form={form} name="payout_interval_minutes" label="Payout every (minutes)" />
        <PointsField
          form={form}
          name="active_chatter_bonus"
          label="Active chatter bonus"
          description="Per payout, for viewers who chatted"
        />
        <PointsField form={form} name="message_points" label="Points per message" />
        <PointsField form={form} name="message_points_cap_per_minute" label="Message points cap per minute" />
      </SimpleGrid>
      <Title order={3} size="h5">
        Events
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 4 }} spacing="md" verticalSpacing="md">
        <PointsField form={form} name="follow_points" label="Follow" />
        <PointsField form={form} name="sub_points" label="Sub" />
        <PointsField form={form} name="resub_points" label="Resub" />
        <PointsField form={form} name="gift_points" label="Per gifted sub" />
        <PointsField form={form} name="raid_points" label="Raid" />
        <PointsField form={form} name="cheer_points" label="Per 100 bits" />
        <PointsField form={form} name="superchat_points" label="Per Super Chat tier" />
        <PointsField form={form} name="kicks_points" label="Per 100 Kicks" />
        <PointsField form={form} name="tiktok_gift_points" label="Per 100 TikTok diamonds" />
      </SimpleGrid>
      <TagsInput
        label="Bot accounts that earn nothing"
        description="Known bots, the channel's bot and banned viewers never earn; add other logins here"
        placeholder="Type a login and press Enter"
        maxTags={IGNORED_LOGINS_MAX}
        {...form.getInputProps('ignored_logins')}
      />
    </EditorForm>
  );
}
