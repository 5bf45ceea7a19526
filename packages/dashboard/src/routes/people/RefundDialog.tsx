import { useEffect, useState, type FormEvent } from 'react';
import type { Transaction } from '@creator-commerce/sdk';
import { errorMessage } from '@/api';
import { useRefund } from '@/hooks/api/transactions';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/toast';
import { money } from './format.ts';

/** What is left to give back: paid less refunds succeeded or under way (docs/refunds.md). */
export function refundable(t: Transaction): number {
  const held = t.refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amount, 0);
  return Math.round((t.amount - held) * 1000) / 1000;
}

/**
 * The Refund action of a transaction: the amount (all that is left unless changed), a reason,
 * whether the access it bought ends (on by default for a refund of all that is left, as the API
 * does), then a confirmation that names the amount before any money moves.
 */
export function RefundDialog({ transaction, onClose, onDone }: { transaction: Transaction | null; onClose: () => void; onDone: () => void }) {
  const left = transaction ? refundable(transaction) : 0;
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [revoke, setRevoke] = useState<boolean | null>(null);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    setAmount(transaction ? String(left) : '');
    setReason('');
    setRevoke(null);
    setConfirming(false);
  }, [transaction?.txref]);

  const value = Number(amount);
  const full = value === left;
  const revokeAccess = revoke ?? full;
  const problem = !amount.trim() || !Number.isFinite(value) || value <= 0 ? 'Enter an amount above zero.'
    : value > left ? `At most ${money(left, transaction?.currency)} is left to refund.` : null;

  const refund = useRefund({
    onSuccess: (t) => {
      const pending = t.refunds.at(-1)?.status === 'pending';
      toast({ title: pending ? `Refund of ${money(value, t.currency)} is being processed` : `${money(value, t.currency)} refunded to ${t.customer.name}` });
      onDone();
      onClose();
    },
    onError: (err) => { toast({ title: 'Could not refund', description: errorMessage(err), variant: 'destructive' }); setConfirming(false); },
  });

  const review = (e: FormEvent) => {
    e.preventDefault();
    if (!problem) setConfirming(true);
  };

  return (
    <Dialog open={!!transaction} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        {transaction && !confirming && (
          <form onSubmit={review} className="space-y-4">
            <DialogHeader>
              <DialogTitle>Refund {transaction.customer.name}</DialogTitle>
              <DialogDescription>
                Paid {money(transaction.amount, transaction.currency)}
                {transaction.refundedAmount > 0 && `, ${money(transaction.refundedAmount, transaction.currency)} already refunded`}.
                The money goes back through the payment provider that took it.
              </DialogDescription>
            </DialogHeader>
            <div className="space-y-1.5">
              <Label htmlFor="refund-amount">Amount ({transaction.currency})</Label>
              <Input id="refund-amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)}
                aria-invalid={!!problem} aria-describedby="refund-amount-hint" />
              <p id="refund-amount-hint" className={`text-xs ${problem && amount ? 'text-destructive' : 'text-muted-foreground'}`}>
                {problem && amount ? problem : `Up to ${money(left, transaction.currency)}. Less than that is a partial refund.`}
              </p>
            </div>
            <div className="space-y-1.5">
              <Label htmlFor="refund-reason">Reason (optional)</Label>
              <Textarea id="refund-reason" rows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} placeholder="Bought twice by mistake" />
            </div>
            <div className="flex items-start gap-2">
              <Checkbox id="refund-revoke" checked={revokeAccess} onCheckedChange={(c) => setRevoke(c === true)} />
              <div className="grid gap-1">
                <Label htmlFor="refund-revoke">End the access it bought</Label>
                <p className="text-xs text-muted-foreground">Removes the buyer from what this payment bought and cancels its subscription. On by default for a full refund.</p>
              </div>
            </div>
            <DialogFooter className="gap-2">
              <Button type="button" variant="outline" onClick={onClose}>Cancel</Button>
              <Button type="submit" disabled={!!problem}>Review refund</Button>
            </DialogFooter>
          </form>
        )}
        {transaction && confirming && (
          <div className="space-y-4">
            <DialogHeader>
              <DialogTitle>Give {money(value, transaction.currency)} back?</DialogTitle>
              <DialogDescription>
                {money(value, transaction.currency)} goes back to {transaction.customer.email}
                {revokeAccess ? ', and their access to what this payment bought ends now' : '; their access stays'}. A refund cannot be undone.
              </DialogDescription>
            </DialogHeader>
            <DialogFooter className="gap-2">
              <Button variant="outline" onClick={() => setConfirming(false)} disabled={refund.isPending}>Back</Button>
              <Button variant="destructive" onClick={() => refund.mutate({ txref: transaction.txref, body: { amount: value, ...(reason.trim() ? { reason: reason.trim() } : {}), revokeAccess } })} disabled={refund.isPending}>
                Refund {money(value, transaction.currency)}
              </Button>
            </DialogFooter>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
