import { useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { useVerifyEmail } from '@/hooks/api/account';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/form';
import { sessionKey } from '@/lib/session';
import { AuthCard } from './auth-card';

/**
 * Opened from the link mailed on sign-up. Confirming takes a click, not just the visit: mail
 * scanners open links in mail, and must not confirm an address for its owner.
 */
export function VerifyEmail() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const queryClient = useQueryClient();
  const confirm = useVerifyEmail({
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKey }),
  });
  if (!token) {
    return (
      <AuthCard title="Confirm your email address" description="This page needs the link from the mail we sent when you signed up. Signed in, you can ask for a new one.">
        <Button asChild variant="outline"><Link to="/">Open the dashboard</Link></Button>
      </AuthCard>
    );
  }
  if (confirm.isSuccess) {
    return (
      <AuthCard title="Address confirmed" description={`Thank you: ${confirm.data.user.email} is confirmed. Payout and webhook notices reach you now, and you can invite your team by mail.`}>
        <Button asChild><Link to="/">Open the dashboard</Link></Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Confirm your email address" description="One click shows this address is yours. The link works once.">
      <div className="grid gap-4">
        <FormError error={confirm.error} fields={[]} />
        <Button type="button" disabled={confirm.isPending} onClick={() => confirm.mutate({ token })}>Confirm my address</Button>
      </div>
    </AuthCard>
  );
}
