import { useSearchParams } from 'react-router';
import { SignInSuccess } from '../../features/auth/components/sign-in-success';

/** `/sign-in/success?next=…` (public). */
export function Component() {
  const [params] = useSearchParams();
  return <SignInSuccess next={params.get('next')} />;
}
