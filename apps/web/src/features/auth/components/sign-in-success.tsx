import { Navigate } from 'react-router';
import { hasAccessToken } from '../../../lib/auth-token';
import { safeNext } from './sign-in';

/** `/sign-in/success?next=…`: the sign-in is complete; continue to `next` (or /). */
export function SignInSuccess({ next }: { next: string | null }) {
  const target = safeNext(next) ?? '/';
  if (!hasAccessToken()) return <Navigate to={target === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(target)}`} replace />;
  return <Navigate to={target} replace />;
}
