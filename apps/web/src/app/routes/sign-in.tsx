import { useQuery } from '@tanstack/react-query';
import { Navigate, useSearchParams } from 'react-router';
import { FullHeightLoader } from '../../components/full-height-loader';
import { hasAccessToken } from '../../lib/auth-token';
import { SignIn, safeNext } from '../../features/auth/components/sign-in';
import { getUserQueryOptions } from '../../features/user/api/get-user';

/**
 * `/sign-in?next=…` (public). Someone already signed in is forwarded to `next` (or /) instead of being asked to
 * sign in again; a session that turns out to be over shows the sign-in buttons.
 */
export function Component() {
  const [params] = useSearchParams();
  const next = params.get('next');
  const signedIn = hasAccessToken();
  const user = useQuery({ ...getUserQueryOptions(), enabled: signedIn });
  if (signedIn && user.isSuccess) return <Navigate to={safeNext(next) ?? '/'} replace />;
  if (signedIn && user.isPending) return <FullHeightLoader label="Checking your session" />;
  return <SignIn next={next} />;
}
