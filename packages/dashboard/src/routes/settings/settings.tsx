import { Check } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CopyButton } from '@/components/copy-button';
import { PageHeader } from '@/components/page';
import { useCurrentSession } from '@/lib/session';
import { EmailSettingsCard } from './email-settings';
import { BrandProfileCard } from './brand-profile.tsx';

/** What Plus adds on top of Free, in the words of docs/oauth-mcp.md. */
const plusUnlocks = [
  'Connect AI assistants (Claude, ChatGPT, IDE agents) to your account over MCP at /api/mcp.',
  'Let third-party apps act for you over OAuth, each limited to the permissions and mode you approve.',
  'See and disconnect those apps under Developers → Apps.',
];

/**
 * Settings: the brand's plan and what Plus unlocks. Changing the plan is an operator's CLI
 * command for now (no billing yet), so the page shows the command rather than a button.
 */
export function Settings() {
  const session = useCurrentSession();
  const { brand } = session;
  const command = `npm run cli -- brand plan ${brand.id} --plan ${brand.plan === 'plus' ? 'free' : 'plus'}`;
  return (
    <div className="space-y-6">
      <PageHeader title="Settings" description={`Settings of ${brand.name}.`} />
      <BrandProfileCard />
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            Plan <Badge variant={brand.plan === 'plus' ? 'default' : 'secondary'} className="capitalize" data-testid="plan">{brand.plan}</Badge>
          </CardTitle>
          <CardDescription>
            {brand.plan === 'plus'
              ? 'Your brand is on Plus: everything below is available.'
              : 'Your brand is on Free: the catalog, people, money, API keys and webhooks. Plus adds:'}
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <ul className="space-y-2 text-sm">
            {plusUnlocks.map((line) => (
              <li key={line} className="flex gap-2">
                <Check className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
                <span>{line}</span>
              </li>
            ))}
          </ul>
          <div className="space-y-2 rounded-md border bg-muted/40 p-3 text-sm">
            <p>Changing the plan is an administrator action for now. Whoever runs this server changes it with:</p>
            <div className="flex flex-wrap items-center gap-2">
              <code className="break-all rounded bg-background px-2 py-1 font-mono text-xs">{command}</code>
              <CopyButton value={command} aria-label="Copy the command" />
            </div>
          </div>
        </CardContent>
      </Card>
      <EmailSettingsCard />
    </div>
  );
}
