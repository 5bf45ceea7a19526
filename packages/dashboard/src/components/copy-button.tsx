import * as React from 'react';
import { Check, Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { copyText } from '@/lib/clipboard';

export function CopyButton({ value, label = 'Copy', ...props }: { value: string; label?: string } & React.ComponentProps<typeof Button>) {
  const [copied, setCopied] = React.useState(false);
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      onClick={async () => {
        if (await copyText(value)) {
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        }
      }}
      {...props}
    >
      {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
      {copied ? 'Copied' : label}
    </Button>
  );
}

/** A secret shown once: monospace, selectable, with a copy button and the warning. */
export function OneTimeSecret({ value, label, testId }: { value: string; label: string; testId?: string }) {
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium">{label}</p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code data-testid={testId} className="min-w-0 flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-sm break-all select-all">{value}</code>
        <CopyButton value={value} />
      </div>
      <p className="text-sm text-amber-800">Copy it now: you won't see this again.</p>
    </div>
  );
}
