import { useSearchParams } from 'react-router';
import { SignIn } from '../../features/auth/components/sign-in';

/** `/sign-in?next=…` (public). */
export function Component() {
  const [params] = useSearchParams();
  return <SignIn next={params.get('next')} />;
}
