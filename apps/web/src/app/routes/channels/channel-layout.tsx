import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Outlet, useParams } from 'react-router';
import { ErrorAlert } from '../../../components/error-alert';
import { FullHeightLoader } from '../../../components/full-height-loader';
import { buildNavTree } from '../../../components/nav-tree';
import { isApiError } from '../../../lib/api-client';
import { TitleScope } from '../../../lib/document-title';
import { LocalPlatformsNotice } from '../../../features/auth/components/local-platforms-notice';
import { useChannel } from '../../../api/get-channel';
import { ChannelNotFound } from '../../../features/channel-shell/components/channel-not-found';
import { ChannelShell } from '../../../features/channel-shell/components/channel-shell';
import { channelNavOutline } from '../../../features/channel-shell/nav-outline';
import { UserMenu } from '../../../features/user/components/user-menu';
import { channelNavPages } from '../../channel-pages';

// The picker is code the first paint does not need: it loads the first time it is opened.
const ChannelPickerModal = lazy(() =>
  import('../../../features/channels/components/channel-picker-modal').then((m) => ({ default: m.ChannelPickerModal })),
);

/** `/channels/:channelId`: the channel shell around the registered channel pages. */
export function Component() {
  const { channelId = '' } = useParams();
  const channel = useChannel(channelId);
  const [pickerOpened, picker] = useDisclosure(false);
  const [pickerUsed, setPickerUsed] = useState(false);
  const navItems = useMemo(() => (channel.data ? buildNavTree(channelNavOutline, channelNavPages(channel.data)) : []), [channel.data]);

  let content;
  if (channel.isPending) content = <FullHeightLoader label="Loading channel" />;
  else if (channel.isError) {
    content = isApiError(channel.error, 404) ? <ChannelNotFound /> : <ErrorAlert error={channel.error} m="md" />;
  } else content = <Outlet context={channel.data} />;

  return (
    <TitleScope title={channel.data?.display_name}>
      <ChannelShell
        channelName={channel.data?.display_name ?? (channel.isError ? 'Pick a channel' : undefined)}
        onOpenPicker={() => {
          setPickerUsed(true);
          picker.open();
        }}
        navItems={navItems}
        navLoading={channel.isPending}
        headerRight={
          <>
            <LocalPlatformsNotice />
            <UserMenu />
          </>
        }
      >
        {content}
      </ChannelShell>
      {pickerUsed && (
        <Suspense fallback={null}>
          <ChannelPickerModal opened={pickerOpened} onClose={picker.close} currentChannelId={channel.data?.id} />
        </Suspense>
      )}
    </TitleScope>
  );
}
