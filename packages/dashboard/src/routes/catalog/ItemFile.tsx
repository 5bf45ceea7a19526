import { useState } from 'react';
import type { Item } from '@creator-commerce/sdk';
import { Label } from '@/components/ui/label';
import { currentCsrfToken } from '../../api.ts';

type Content = Item['content'];

const size = (n: number) => (n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(1)} GB` : n >= 1024 ** 2 ? `${(n / 1024 ** 2).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`);

/**
 * An item's file: what it holds now, and an upload that shows its progress. The upload is the one
 * request of the dashboard made with XMLHttpRequest rather than the SDK's fetch, since fetch reports
 * no upload progress; it is the same PUT /products/{id}/items/{itemId}/file the SDK calls.
 */
export function ItemFile({ productId, itemId, title, content, onStored }: {
  productId: string; itemId: string; title: string; content: Content; onStored: (c: Content) => void;
}) {
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState('');
  // Tell buyers: a "New in <product>" mail to those who can open the item and agreed to the brand's mail (docs/email.md).
  const [notify, setNotify] = useState(false);
  const id = `item-file-${itemId}`;

  const upload = (file: File) => {
    setError('');
    setProgress(0);
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', `/api/v1/products/${encodeURIComponent(productId)}/items/${encodeURIComponent(itemId)}/file?filename=${encodeURIComponent(file.name)}${notify ? '&notifyBuyers=true' : ''}`);
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('x-csrf-token', currentCsrfToken());
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) setProgress(Math.round((e.loaded / e.total) * 100)); };
    xhr.onload = () => {
      setProgress(null);
      let body: { message?: string; data?: { content?: Content } } = {};
      try { body = JSON.parse(xhr.responseText); } catch { /* shown below */ }
      // Each announcement is asked for anew: the box is cleared once the file it went with is stored.
      if (xhr.status === 200 && body.data) { onStored(body.data.content); setNotify(false); }
      else setError(body.message ?? `The upload failed (${xhr.status}).`);
    };
    xhr.onerror = () => { setProgress(null); setError('The upload broke off; check the connection and try again.'); };
    xhr.send(file);
  };

  return (
    <div className="mt-4 rounded-md bg-muted/50 p-3 text-sm" data-testid={id}>
      <Label htmlFor={id}>File buyers download{title ? ` (${title})` : ''}</Label>
      <p className="mt-1 text-muted-foreground" data-testid={`${id}-current`}>
        {content?.kind === 'file' ? `${content.fileName} · ${size(content.size ?? 0)} · version ${content.version}`
          : content?.kind === 'url' ? `A link: ${content.url}` : 'No file yet.'}
      </p>
      <input id={id} type="file" className="mt-2 block w-full text-sm" disabled={progress !== null}
        accept="application/pdf,application/epub+zip,audio/*,video/*,image/*,.zip,.gz,.tar,.7z,.rar"
        onChange={(e) => { const f = e.target.files?.[0]; if (f) upload(f); e.target.value = ''; }} />
      <label className="mt-2 flex items-start gap-2">
        <input type="checkbox" className="mt-1" checked={notify} onChange={(e) => setNotify(e.target.checked)} disabled={progress !== null} data-testid={`${id}-notify`} />
        <span>Email buyers about the new file (only those who agreed to your mail)</span>
      </label>
      {progress !== null && (
        <div className="mt-2 flex items-center gap-2">
          <progress className="w-full" max={100} value={progress} aria-label={`Uploading ${title || 'file'}`} />
          <span aria-live="polite">{progress}%</span>
        </div>
      )}
      {error && <p className="mt-2 text-destructive" role="alert">{error}</p>}
    </div>
  );
}
