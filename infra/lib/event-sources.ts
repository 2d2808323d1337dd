// The CloudTrail event sources on-change maps to resources, read at synth time
// from the engine's event table, so the EventBridge rule forwards exactly the
// services on-change understands.
import * as fs from 'fs';

/** The distinct `eventSource` values of the event table, sorted; throws naming the file when unusable. */
export function loadEventSources(file: string): string[] {
  let doc: unknown;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`CloudTrail event table ${file}: ${(e as Error).message}`);
  }
  const events = (doc as { events?: unknown }).events;
  if (!Array.isArray(events) || events.length === 0) {
    throw new Error(`CloudTrail event table ${file}: no "events" entries; on-change would receive nothing`);
  }
  const sources = new Set<string>();
  events.forEach((e, i) => {
    const source = (e as { eventSource?: unknown })?.eventSource;
    if (typeof source !== 'string' || !/^[a-z0-9.-]+\.amazonaws\.com$/.test(source)) {
      throw new Error(`CloudTrail event table ${file}: events[${i}].eventSource ${JSON.stringify(source)} is not a service host`);
    }
    sources.add(source);
  });
  return [...sources].sort();
}
