import { Link } from 'react-router';
import { useRequestPasswordReset } from '@/hooks/api/account';
import { Button } from '@/components/ui/button';
import { Field, FormError, fieldError, formValues } from '@/components/form';
import { AuthCard } from './auth-card';

/**
 * "Forgot your password?": asks for a reset link by mail. The answer is the same whether or not
 * an account has the address; without a mail server the link waits in the outbox, where whoever
 * runs the service finds it (or makes one with the CLI).
 */
export function ForgotPassword() {
  const ask = useRequestPasswordReset();
  return (
    <AuthCard
      title="Forgot your password?"
      description="We mail you a link to set a new one."
      footer={<Link className="font-medium text-foreground underline-offset-4 hover:underline" to={{ pathname: '/signin' }}>Back to sign in</Link>}
    >
      {ask.isSuccess ? (
        <div role="status" className="rounded-md border bg-muted/40 p-3 text-sm">
          If an account has that address, a link to set a new password is on its way. It works once, for 24 hours.
        </div>
      ) : (
        <form className="grid gap-4" onSubmit={(e) => { e.preventDefault(); ask.mutate({ email: formValues(e.currentTarget).email }); }}>
          <FormError error={ask.error} fields={['email']} />
          <Field label="Email" name="email" type="email" autoComplete="email" required error={fieldError(ask.error, 'email')} />
          <Button type="submit" disabled={ask.isPending}>{ask.isPending ? 'Sending…' : 'Send me a link'}</Button>
          <p className="text-xs text-muted-foreground">
            No mail arriving? This service may have no mail server: whoever runs it can make you a link with <code>npm run cli -- user reset-password</code>.
          </p>
        </form>
      )}
    </AuthCard>
  );
}
