/** Shown on every page while the session is in test mode, so nobody mistakes test data for live. */
export function TestModeBand() {
  return (
    <div data-testid="test-mode-band" className="bg-test px-4 py-1 text-center text-xs font-semibold text-test-foreground">
      Test mode <span className="font-normal">· You are viewing test data. Nothing here moves real money.</span>
    </div>
  );
}
