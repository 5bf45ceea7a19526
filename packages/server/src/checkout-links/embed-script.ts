/**
 * GET /embed.js: the overlay a creator adds to their own site (docs/checkout.md, "Embedding the
 * checkout"). Plain ES2017 with no framework, sent as it is written here (4.2 KB, 1.6 KB gzipped;
 * checkout-links/embed.test.ts holds it under 10 KB). Kept as a string in a module, not a file
 * beside it, so the server bundle (scripts/server-build.ts) carries it.
 *
 *   <script src="https://pay.example.com/embed.js" defer></script>
 *   <a href="https://pay.example.com/buy/brand_…/clink_…" data-checkout-overlay>Buy</a>
 *
 * A click on such a link opens the checkout in a frame over the page (without scripts the link
 * just opens the checkout). The site's window then receives `message` events whose data is
 * `{ source: 'creator-commerce-checkout', type, … }`: `checkout.opened` and `checkout.closed` from
 * this script (event.origin: the site itself), `checkout.completed` from our result page inside
 * the frame (event.origin: this service). The checkout pages may be framed only by the sites the
 * brand lists in `embedOrigins` (PATCH /brand): everywhere else the browser refuses the frame.
 */
export const embedScript = `/* creator-commerce checkout overlay: docs/checkout.md, "Embedding the checkout" */
(function () {
  'use strict';
  if (window.CreatorCheckout) return;
  var me = document.currentScript;
  var service = new URL(me ? me.src : location.href).origin;
  var SOURCE = 'creator-commerce-checkout';
  var open = null;

  function tell(type, extra) {
    var data = { source: SOURCE, type: type };
    for (var k in extra) data[k] = extra[k];
    window.postMessage(data, location.origin);
  }

  function css(el, rules) { for (var k in rules) el.style[k] = rules[k]; return el; }

  function close() {
    if (!open) return;
    var was = open;
    open = null;
    document.removeEventListener('keydown', onKey, true);
    was.root.remove();
    document.documentElement.style.overflow = was.overflow;
    if (was.opener && was.opener.focus) was.opener.focus();
    tell('checkout.closed', { url: was.url, completed: was.completed });
  }

  function onKey(e) { if (e.key === 'Escape') { e.preventDefault(); close(); } }

  function openCheckout(href) {
    var url = new URL(href, location.href);
    if (url.origin !== service) throw new Error('CreatorCheckout.open: ' + url.href + ' is not a checkout of ' + service);
    if (open) close();
    var frameUrl = new URL(url.href);
    frameUrl.searchParams.set('embed', location.origin);
    var root = css(document.createElement('div'), {
      position: 'fixed', inset: '0', zIndex: '2147483647', background: 'rgba(17,24,39,.6)',
      display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 'min(4vh,32px) min(4vw,32px)'
    });
    root.setAttribute('role', 'dialog');
    root.setAttribute('aria-modal', 'true');
    root.setAttribute('aria-label', 'Checkout');
    root.setAttribute('data-checkout-overlay-root', '');
    var box = css(document.createElement('div'), {
      position: 'relative', width: '100%', maxWidth: '1000px', height: '100%', maxHeight: '900px',
      background: '#f4f4f6', borderRadius: '12px', overflow: 'hidden', boxShadow: '0 10px 40px rgba(0,0,0,.35)'
    });
    var frame = css(document.createElement('iframe'), { width: '100%', height: '100%', border: '0', display: 'block' });
    frame.title = 'Checkout';
    frame.src = frameUrl.href;
    var shut = css(document.createElement('button'), {
      position: 'absolute', top: '8px', right: '8px', width: '44px', height: '44px', borderRadius: '22px', border: '0',
      background: '#1c1c1e', color: '#fff', font: '600 24px/44px system-ui,sans-serif', cursor: 'pointer', padding: '0'
    });
    shut.type = 'button';
    shut.setAttribute('aria-label', 'Close checkout');
    shut.textContent = '\\u00d7';
    shut.addEventListener('click', close);
    root.addEventListener('click', function (e) { if (e.target === root) close(); });
    box.appendChild(frame);
    box.appendChild(shut);
    root.appendChild(box);
    open = { root: root, frame: frame, url: url.href, completed: false, opener: document.activeElement, overflow: document.documentElement.style.overflow };
    document.documentElement.style.overflow = 'hidden';
    document.body.appendChild(root);
    document.addEventListener('keydown', onKey, true);
    // Focus on the close button: the dialog is announced, and Escape works until the buyer tabs into the frame
    // (keys typed inside the frame go to our page, which runs no script).
    shut.focus();
    tell('checkout.opened', { url: url.href });
  }

  // Our result page posts checkout.completed to this window; remember it for checkout.closed.
  window.addEventListener('message', function (e) {
    if (!open || e.origin !== service || e.source !== open.frame.contentWindow) return;
    if (e.data && e.data.source === SOURCE && e.data.type === 'checkout.completed') open.completed = true;
  });

  document.addEventListener('click', function (e) {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    var a = e.target && e.target.closest ? e.target.closest('a[data-checkout-overlay]') : null;
    if (!a || !a.href) return;
    e.preventDefault();
    openCheckout(a.href);
  });

  window.CreatorCheckout = { open: openCheckout, close: close };
})();
`;
