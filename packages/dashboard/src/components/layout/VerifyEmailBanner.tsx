import { errorMessage } from '@/api';
import { useResendVerification } from '@/hooks/api/account';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { useCurrentSession } from '@/lib/session';

/**
 * Until the user follows the link mailed on sign-up: what waits for it, and a way to get a new
 * link (the server sends at most one a minute and says so).
 */
export function VerifyEmailBanner() {
  const session = useCurrentSession();
  const resend = useResendVerification({
    onSuccess: (sent) => toast({ title: 'Link sent', description: `A new confirmation link is on its way to ${sent.emailedTo}.` }),
    onError: (err) => toast({ title: 'Could not send a new link', description: errorMessage(err), variant: 'destructive' }),
  });
  if (session.emailVerified !== false) return null;
  return (
    <div role="status" className="mb-6 flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 sm:flex-row sm:items-center sm:justify-between">
      <p>
        <strong>Confirm your email address.</strong> We sent a link to {session.user.email}. Until you follow it, we mail
        you no payout or webhook notices and you can invite your team only by sharing links yourself.
      </p>
      <Button variant="outline" size="sm" className="shrink-0" disabled={resend.isPending} onClick={() => resend.mutate()}>
        Send a new link
      </Button>
    </div>
  );
}
