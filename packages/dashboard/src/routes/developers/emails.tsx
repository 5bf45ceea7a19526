import * as React from 'react';
import { Link } from 'react-router';
import type { EmailListParams } from '@creator-commerce/sdk';
import { Badge } from '@/components/ui/badge';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { EmptyState, ListView } from '@/components/list-view';
import { PageHeader } from '@/components/page';
import { useEmails } from '@/hooks/api/emails';
import { formatDate } from '@/lib/format';
import { useCurrentSession } from '@/lib/session';

/** The kinds of mail, in the words a creator uses (docs/email.md). */
export const emailKinds: Record<string, string> = {
  receipt: 'Receipt',
  renewal_failed: 'Renewal failed',
  membership_ended: 'Membership ended',
  cancellation: 'Cancellation',
  refund: 'Refund',
  subscription_ending: 'Subscription ends',
  new_content: 'New in a product (marketing)',
  order_shipped: 'Order shipped',
  order_ready_for_pickup: 'Ready for pickup',
  endpoint_disabled: 'Webhook endpoint disabled',
  payout_settled: 'Payout settled',
};

const statusVariant: Record<string, 'default' | 'secondary' | 'destructive' | 'outline'> = {
  sent: 'default', queued: 'secondary', sending: 'secondary', failed: 'destructive', unsent: 'outline',
};

export function EmailStatus({ status }: { status: string }) {
  return <Badge variant={statusVariant[status] ?? 'outline'}>{status === 'unsent' ? 'not sent' : status}</Badge>;
}

const ALL = 'all';

/** Developers → Emails: the outbox, newest first, with what happened to each message. */
export function Emails() {
  const session = useCurrentSession();
  const [kind, setKind] = React.useState(ALL);
  const params: EmailListParams = kind === ALL ? {} : { kind: kind as EmailListParams['kind'] };
  const emails = useEmails(params);
  const noServer = emails.items.some((r) => r.status === 'unsent');
  return (
    <div>
      <PageHeader title="Emails" description={<>Mail sent for your brand in <strong>{session.mode}</strong> mode: receipts, notices to buyers, and notices to owners. Newest first.</>} />
      {noServer && (
        <div className="mb-4 rounded-md border bg-muted/40 p-3 text-sm" role="note">
          This server has no mail server configured (<code className="font-mono text-xs">SMTP_URL</code>), so messages are kept here
          unsent: open one to see exactly what would have gone out.
        </div>
      )}
      <div className="mb-3 grid w-fit gap-1.5">
        <Label htmlFor="email-kind-filter">Kind</Label>
        <Select value={kind} onValueChange={setKind}>
          <SelectTrigger id="email-kind-filter" className="w-56"><SelectValue /></SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All kinds</SelectItem>
            {Object.entries(emailKinds).map(([k, label]) => <SelectItem key={k} value={k}>{label}</SelectItem>)}
          </SelectContent>
        </Select>
      </div>
      <ListView
        framed
        list={emails}
        rowKey={(m) => m.id}
        empty={<EmptyState title="No emails">Receipts and notices appear here when payments, renewals and payouts happen.</EmptyState>}
        columns={[
          { header: 'Subject', cell: (m) => <>
            <Link to={`/developers/emails/${m.id}`} className="font-medium underline-offset-4 hover:underline">{m.subject}</Link>
            <span className="block text-xs text-muted-foreground">{emailKinds[m.kind] ?? m.kind}<span className="md:hidden"> · {m.to}</span></span>
          </> },
          { header: 'To', headClassName: 'hidden md:table-cell', className: 'hidden break-all md:table-cell', cell: (m) => m.to },
          { header: 'Status', cell: (m) => <EmailStatus status={m.status} /> },
          { header: 'Created', headClassName: 'hidden sm:table-cell', className: 'hidden whitespace-nowrap sm:table-cell', cell: (m) => formatDate(m.createdAt) },
        ]}
      />
    </div>
  );
}
