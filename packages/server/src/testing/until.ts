/**
 * Polls `fn` until it returns something truthy and returns that, or throws naming `what` after
 * `timeoutMs` (long enough for a worker process to start on a busy machine; a test that passes
 * waits only as long as the work takes). For tests that wait on work done elsewhere (a worker, a
 * receiver, a mail server).
 */
export async function until<T>(what: string, fn: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
