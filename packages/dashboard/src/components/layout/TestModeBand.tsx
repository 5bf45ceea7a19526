/**
 * Shown on every page while the session is in test mode, so nobody mistakes test data for live.
 * A named region, so that, like everything else on the page, it sits inside a landmark (axe's
 * `region` rule) and screen-reader users can jump to it.
 */
export function TestModeBand() {
  return (
    <section aria-label="Test mode" data-testid="test-mode-band" className="bg-test px-4 py-1 text-center text-xs font-semibold text-test-foreground">
      Test mode <span className="font-normal">· You are viewing test data. Nothing here moves real money.</span>
    </section>
  );
}
