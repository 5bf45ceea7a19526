import { Link, useSearchParams } from 'react-router';
import { useResetPassword } from '@/hooks/api/account';
import { Button } from '@/components/ui/button';
import { Field, FormError, fieldError, formValues } from '@/components/form';
import { AuthCard } from './auth-card';

/** Opened from the one-time link `npm run cli -- user reset-password` prints. */
export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = useResetPassword();
  if (!token) {
    return (
      <AuthCard title="Reset your password" description="This page needs the one-time link from whoever runs this service (npm run cli -- user reset-password --email …).">
        <Button asChild variant="outline"><Link to="/signin">Back to sign in</Link></Button>
      </AuthCard>
    );
  }
  if (reset.isSuccess) {
    return (
      <AuthCard title="Password changed" description="Your new password works now, and every other session of yours has been signed out.">
        <Button asChild><Link to="/signin">Sign in</Link></Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password" description="The link works once. Signing in elsewhere ends when you save.">
      <form
        className="grid gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          reset.mutate({ token, newPassword: formValues(e.currentTarget).newPassword });
        }}
      >
        <FormError error={reset.error} fields={['newPassword']} />
        <Field label="New password" name="newPassword" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." error={fieldError(reset.error, 'newPassword')} />
        <Button type="submit" disabled={reset.isPending}>Save password</Button>
      </form>
    </AuthCard>
  );
}
