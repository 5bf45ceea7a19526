/**
 * A node:test reporter for scripts/test.ts: one line per test file, its wall time in ms and its
 * path, so each run can name its slowest files (the suite has a time budget; README "Tests").
 */
interface Event { type: string; data: { file?: string; duration_ms?: number } }

export default async function* fileTimes(source: AsyncIterable<Event>): AsyncGenerator<string> {
  for await (const event of source) {
    // One summary per file as it ends, and one for the whole run (without a file).
    if (event.type === 'test:summary' && event.data.file) yield `${Math.round(event.data.duration_ms ?? 0)}\t${event.data.file}\n`;
  }
}
