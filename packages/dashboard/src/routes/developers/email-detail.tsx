import { Link, useParams } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { useEmail } from '@/hooks/api/emails';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { LoadError, Loading, PageHeader } from '@/components/page';
import { formatDate } from '@/lib/format';
import { EmailStatus, emailKinds } from './emails';

/** One message: rendered as the recipient sees it, its text part, headers and sending log. */
export function EmailDetail() {
  const { id = '' } = useParams();
  const email = useEmail(id);
  const back = <Link to="/developers/emails" className="mb-3 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"><ArrowLeft className="size-4" aria-hidden /> Emails</Link>;
  if (email.isPending) return <div>{back}<Loading /></div>;
  if (email.error) return <div>{back}<LoadError error={email.error} /></div>;
  const m = email.data;
  return (
    <div className="flex flex-col gap-6">
      <div>
        {back}
        <PageHeader title={m.subject} description={<>{emailKinds[m.kind] ?? m.kind} to {m.to} · <span className="font-mono text-xs">{m.id}</span> · {formatDate(m.createdAt)}</>} />
        <div className="mb-4 flex flex-wrap items-center gap-2 text-sm">
          <EmailStatus status={m.status} />
          {m.statusDetail && <span className="text-muted-foreground">{m.statusDetail}</span>}
        </div>
        <Tabs defaultValue="html">
          <TabsList>
            <TabsTrigger value="html">Rendered</TabsTrigger>
            <TabsTrigger value="text">Text part</TabsTrigger>
            <TabsTrigger value="headers">Headers</TabsTrigger>
          </TabsList>
          <TabsContent value="html">
            {/* No scripts, no same-origin: the message is shown as a mail program would show it. */}
            <iframe title="The message as HTML" sandbox="" srcDoc={m.html} className="h-[36rem] w-full rounded-md border bg-white" data-testid="email-html" />
          </TabsContent>
          <TabsContent value="text">
            <pre data-testid="email-text" className="max-h-[36rem] overflow-auto whitespace-pre-wrap rounded-md bg-muted p-3 font-mono text-xs">{m.text}</pre>
          </TabsContent>
          <TabsContent value="headers">
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 rounded-md bg-muted p-3 font-mono text-xs">
              {Object.entries(m.headers).map(([k, v]) => [<dt key={`${k}-k`} className="text-muted-foreground">{k}</dt>, <dd key={`${k}-v`} className="break-all">{v}</dd>])}
            </dl>
          </TabsContent>
        </Tabs>
      </div>
      <Card>
        <CardHeader><CardTitle>Sending log</CardTitle></CardHeader>
        <CardContent>
          {m.log.length === 0 ? <p className="text-sm text-muted-foreground">Not tried yet.</p> : (
            <ol className="space-y-2 text-sm">
              {m.log.map((l) => (
                <li key={l.attempt} className="flex flex-wrap gap-x-3">
                  <span className="font-medium">Try {l.attempt}</span>
                  <span>{l.outcome === 'unsent' ? 'not sent: no mail server' : l.outcome}</span>
                  <span className="text-muted-foreground">{formatDate(l.at)}</span>
                  {l.response && <code className="basis-full break-all font-mono text-xs text-muted-foreground">{l.response}</code>}
                </li>
              ))}
            </ol>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
