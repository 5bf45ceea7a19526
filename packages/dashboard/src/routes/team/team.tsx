import * as React from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { UserPlus } from 'lucide-react';
import { errorMessage, fieldErrorOf, type Role } from '@/api';
import { teamKey, useInvite, useRemoveTeamMember, useTeam } from '@/hooks/api/team';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Confirm } from '@/components/confirm';
import { CopyButton } from '@/components/copy-button';
import { Field, FormError } from '@/components/form';
import { EmptyState, ListView } from '@/components/list-view';
import { PageHeader } from '@/components/page';
import { toast } from '@/components/ui/toast';
import { formatDate } from '@/lib/format';
import { useCurrentSession } from '@/lib/session';

const roleSentences: Record<Role, string> = {
  owner: 'Everything: catalog, people, money, developer settings and the team.',
  developer: 'Developer settings only: API keys, webhooks and events.',
};


export function Team() {
  const session = useCurrentSession();
  const queryClient = useQueryClient();
  const team = useTeam();
  const remove = useRemoveTeamMember({
    onSuccess: () => {
      toast({ title: 'Removed from the team', description: 'Their sessions for this brand have ended.' });
      return queryClient.invalidateQueries({ queryKey: teamKey });
    },
    onError: (err) => toast({ title: 'Could not remove', description: errorMessage(err), variant: 'destructive' }),
  });
  const list = team.data?.items ?? [];
  return (
    <div>
      <PageHeader
        title="Team"
        description={`People who can sign in to ${session.brand.name}. Owners can do everything; developers see only the developer settings.`}
        actions={<InviteDialog />}
      />
      <ListView
        framed
        list={{ items: list, isLoading: team.isPending, error: team.error }}
        rowKey={(m) => m.id}
        empty={<EmptyState title="Just you so far" action={<InviteDialog />}>Invite a developer to manage API keys and webhooks without access to your money.</EmptyState>}
        columns={[
          { header: 'Name', className: 'font-medium', cell: (m) => <>{m.name}{m.id === session.user.id && <span className="ml-2 text-xs text-muted-foreground">(you)</span>}</> },
          { header: 'Email', cell: (m) => m.email },
          { header: 'Role', cell: (m) => <Badge variant={m.role === 'owner' ? 'default' : 'secondary'} className="capitalize">{m.role}</Badge> },
          { header: 'Joined', cell: (m) => formatDate(m.joinedAt) },
          { header: <span className="sr-only">Actions</span>, className: 'text-right', cell: (m) => m.id !== session.user.id && (
            <Confirm
              trigger={<Button variant="outline" size="sm" className="text-destructive">Remove</Button>}
              title={`Remove ${m.name}?`}
              description={`They lose access to ${session.brand.name} at once. You can invite them again later.`}
              action="Remove"
              onConfirm={() => remove.mutate(m.id)}
            />
          ) },
        ]}
      />
    </div>
  );
}

/** Makes a one-time invite link the owner copies and sends however they like (no mail server needed). */
function InviteDialog() {
  const [open, setOpen] = React.useState(false);
  const [role, setRole] = React.useState<Role>('developer');
  const [email, setEmail] = React.useState('');
  const invite = useInvite();
  return (
    <Dialog open={open} onOpenChange={(o) => { setOpen(o); if (!o) invite.reset(); }}>
      <DialogTrigger asChild><Button><UserPlus aria-hidden /> Invite</Button></DialogTrigger>
      <DialogContent>
        {invite.data ? (
          <>
            <DialogHeader>
              <DialogTitle>Invite link</DialogTitle>
              <DialogDescription>
                {invite.data.emailedTo ? `We mailed it to ${invite.data.emailedTo}; you can also send it yourself.` : 'Send it to the person you invite.'} It works once, for a {role}.
              </DialogDescription>
            </DialogHeader>
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
              <code data-testid="invite-link" className="min-w-0 flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-xs break-all select-all">{invite.data.link}</code>
              <CopyButton value={invite.data.link} />
            </div>
            <DialogFooter><Button onClick={() => setOpen(false)}>Done</Button></DialogFooter>
          </>
        ) : (
          <form className="grid gap-4" onSubmit={(e) => { e.preventDefault(); invite.mutate({ role, ...(email.trim() ? { email: email.trim() } : {}) }); }}>
            <DialogHeader>
              <DialogTitle>Invite someone</DialogTitle>
              <DialogDescription>You get a one-time link to send them; give their address and we mail it too.</DialogDescription>
            </DialogHeader>
            <FormError error={invite.error} />
            <div className="grid gap-1.5">
              <Label htmlFor="invite-role">Role</Label>
              <Select value={role} onValueChange={(v) => setRole(v as Role)}>
                <SelectTrigger id="invite-role" className="w-full"><SelectValue /></SelectTrigger>
                <SelectContent>
                  <SelectItem value="developer">Developer</SelectItem>
                  <SelectItem value="owner">Owner</SelectItem>
                </SelectContent>
              </Select>
              <p className="text-xs text-muted-foreground">{roleSentences[role]}</p>
            </div>
            <Field label="Their email (optional)" name="email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} error={fieldErrorOf(invite.error, 'email')} />
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>Cancel</Button>
              <Button type="submit" disabled={invite.isPending}>Create link</Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
