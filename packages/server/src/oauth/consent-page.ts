import { esc, layout } from '../pages/html.ts';
import { isWriteScope, scopeWords } from './scopes.ts';

export interface ConsentView {
  action: string;
  csrfToken: string;
  appName: string;
  /** Where the app came from: its redirect URI's host. */
  redirectHost: string;
  /** The client's metadata document URL, when its client_id is one (CIMD). */
  metadataUrl?: string;
  brandName: string;
  scopes: string[];
  offline: boolean;
  plan: 'free' | 'plus';
}

const extraStyle = `<style>
.scope{display:flex;gap:.6rem;align-items:flex-start;font-weight:400;margin:.6rem 0}.scope input{width:auto;margin-top:.3rem}
.scope code{color:#555;font-size:.85rem}.tag{font-size:.75rem;font-weight:600;background:#fff4d6;color:#6b4e00;border-radius:4px;padding:0 .35rem;margin-left:.3rem}
fieldset{border:0;padding:0;margin:1rem 0 0}legend{font-weight:600}.modes label{display:flex;gap:.5rem;font-weight:400}.modes input{width:auto}
.row{display:flex;gap:.75rem;flex-wrap:wrap}.row button{flex:1 1 10rem}button.secondary{background:#e8e8ed;color:#1c1c1e}
button.plain{background:none;color:#2b59c3;text-decoration:underline;padding:.4rem;font-weight:400;font-size:1rem}.from{color:#555;font-size:.9rem;word-break:break-all}
</style>`;

function origin(view: ConsentView) {
  return `<p class="from">From <strong>${esc(view.redirectHost)}</strong>${view.metadataUrl ? ` · described at ${esc(view.metadataUrl)}` : ''}</p>`;
}

/** The consent screen: the app, where it came from, the permissions it asks for as checkboxes, the mode, Approve or Deny. */
export function consentPage(view: ConsentView): string {
  if (view.plan !== 'plus') return freePlanPage(view);
  const boxes = view.scopes.map((scope) => `<label class="scope"><input type="checkbox" name="scope" value="${esc(scope)}" checked>
<span>${esc(scopeWords(scope))} <code>(${esc(scope)})</code>${isWriteScope(scope) ? '<span class="tag">can make changes</span>' : ''}</span></label>`).join('\n');
  const anyWrite = view.scopes.some(isWriteScope);
  return layout(`Connect ${view.appName}`, `${extraStyle}
<section class="card">
<p class="brand">${esc(view.brandName)}</p>
<h1>${esc(view.appName)} wants to connect to your account</h1>
${origin(view)}
<form method="post" action="${esc(view.action)}">
<input type="hidden" name="csrf" value="${esc(view.csrfToken)}">
<fieldset><legend>Allow it to</legend>
${boxes || '<p class="hint">This app asks for no permissions.</p>'}
</fieldset>
${view.offline ? '<p class="hint">It stays connected until you disconnect it in Developer settings.</p>' : '<p class="hint">Its access ends after an hour unless you connect it again.</p>'}
<fieldset class="modes"><legend>Which data</legend>
<label><input type="radio" name="mode" value="live" checked> Live: your real sales and members</label>
<label><input type="radio" name="mode" value="test"> Test: test-mode data only</label>
</fieldset>
<div class="row">
<button type="submit" name="decision" value="approve">Approve</button>
${anyWrite ? '<button type="submit" name="decision" value="read-only" class="secondary">Approve read only</button>' : ''}
</div>
<button type="submit" name="decision" value="deny" class="plain">Deny</button>
</form>
<p class="hint">You can disconnect it at any time in Developer settings → Apps.</p>
</section>`);
}

function freePlanPage(view: ConsentView): string {
  return layout(`Connect ${view.appName}`, `${extraStyle}
<section class="card">
<p class="brand">${esc(view.brandName)}</p>
<h1>Connecting apps needs Plus</h1>
<p><strong>${esc(view.appName)}</strong> wants to connect to your account.</p>
${origin(view)}
<p>${esc(view.brandName)} is on the Free plan. Apps and AI assistants can act on your store only for brands on Plus.</p>
<p>To upgrade, contact us to move ${esc(view.brandName)} to Plus. Then connect the app again from the app itself.</p>
<form method="post" action="${esc(view.action)}">
<input type="hidden" name="csrf" value="${esc(view.csrfToken)}">
<button type="submit" name="decision" value="deny">Back to ${esc(view.appName)}</button>
</form>
</section>`);
}
