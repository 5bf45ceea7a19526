import { CheckCircle2, Circle } from 'lucide-react';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import type { SetupState } from '@/api';

interface Step { done: boolean; label: string; hint: string; to: string; action: string }

/** What a new brand does first, each step ticked from what is stored (never from a click here). */
export function steps(s: SetupState): Step[] {
  return [
    { done: s.productCreated, label: 'Create a product', hint: 'A course, a download, an event or a membership.', to: '/catalog/products/new', action: 'New product' },
    { done: s.linkShared, label: 'Share its link', hint: 'A checkout link buyers can open, from a product\'s Share tab.', to: '/catalog/products', action: 'Open products' },
    { done: s.testPurchase, label: 'Make a test purchase', hint: 'In test mode, pay your link with the card 4242 4242 4242 4242.', to: '/catalog/products', action: 'Open products' },
    { done: s.profileSet, label: 'Set up the brand profile', hint: 'The name, address and logo your storefront shows.', to: '/settings', action: 'Open settings' },
    {
      done: s.paymentsConnected && s.live,
      label: 'Connect payments and go live',
      hint: s.paymentsConnected ? 'Card payments are connected: switch off test mode and take your first live payment.' : 'This server takes no live card payments yet: whoever runs it adds Stripe\'s keys to its settings.',
      to: '/money', action: 'Open money',
    },
    { done: s.teamInvited, label: 'Invite the team', hint: 'Owners run the shop; developers get the API keys and webhooks.', to: '/team', action: 'Open team' },
  ];
}

export function SetupChecklist({ state }: { state: SetupState }) {
  const list = steps(state);
  const done = list.filter((s) => s.done).length;
  return (
    <Card role="region" aria-labelledby="setup-title">
      <CardHeader>
        <CardTitle id="setup-title">Get set up</CardTitle>
        <CardDescription>{done} of {list.length} done. Each step ticks itself once it has happened.</CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="divide-y">
          {list.map((s) => (
            <li key={s.label} className="flex items-start gap-3 py-3">
              {s.done
                ? <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-green-700" aria-hidden />
                : <Circle className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />}
              <div className="min-w-0 flex-1">
                <p className={s.done ? 'text-muted-foreground line-through' : 'font-medium'}>
                  {s.label}<span className="sr-only">{s.done ? ' (done)' : ' (to do)'}</span>
                </p>
                {!s.done && <p className="text-sm text-muted-foreground">{s.hint}</p>}
              </div>
              {!s.done && <Link to={s.to} className="shrink-0 text-sm text-primary underline">{s.action}</Link>}
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
