import { usePointSettings } from '../api/points';
import { PageFrame, Section } from '../../../components/page-frame';
import { PointsSettingsForm } from './points-settings-form';
import { Leaderboard } from './leaderboard';

/** `/channels/{id}/gambling/point-settings` (Editor): earning rules, the leaderboard and each viewer's ledger. */
export function PointsPage({ channelId }: { channelId: string }) {
  const settings = usePointSettings(channelId);
  return (
    <PageFrame
      title="Points"
      description="One wallet per viewer across platforms. Viewers use !points, !points @user, !give @user N, !top and !link; Mods !addpoints and !removepoints."
      loading={settings.isPending}
      error={settings.error}
    >
      {settings.data && (
        <>
          <Section title="Settings">
            <PointsSettingsForm channelId={channelId} settings={settings.data} />
          </Section>
          <Section title="Leaderboard" description="Select a viewer to see the ledger, adjust the balance or unlink accounts.">
            <Leaderboard channelId={channelId} pointsName={settings.data.points_name} />
          </Section>
        </>
      )}
    </PageFrame>
  );
}
