// The CloudTrail calls on-change maps to resources, read at synth time from
// the engine's event table, so the EventBridge rules forward exactly the
// calls on-change understands.
import * as fs from 'fs';

/** Reads a JSON file, naming it in the error when it is missing or malformed. */
export function readJson(file: string, what: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${what} ${file}: ${(e as Error).message}`);
  }
}

/**
 * The event table as `eventSource` -> its bare `eventName`s (sorted, unique),
 * sources sorted; throws naming the file when an entry is unusable.
 */
export function loadEventNames(file: string): Map<string, string[]> {
  const what = 'CloudTrail event table';
  const events = (readJson(file, what) as { events?: unknown }).events;
  if (!Array.isArray(events) || events.length === 0) {
    throw new Error(`${what} ${file}: no "events" entries; on-change would receive nothing`);
  }
  const bySource = new Map<string, Set<string>>();
  events.forEach((e, i) => {
    const { eventSource: source, eventName: name } = (e ?? {}) as { eventSource?: unknown; eventName?: unknown };
    if (typeof source !== 'string' || !/^[a-z0-9.-]+\.amazonaws\.com$/.test(source)) {
      throw new Error(`${what} ${file}: events[${i}].eventSource ${JSON.stringify(source)} is not a service host`);
    }
    if (typeof name !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(name)) {
      throw new Error(`${what} ${file}: events[${i}].eventName ${JSON.stringify(name)} is not an API name`);
    }
    const names = bySource.get(source) ?? new Set<string>();
    names.add(name);
    bySource.set(source, names);
  });
  return new Map([...bySource.keys()].sort().map((s) => [s, [...bySource.get(s)!].sort()]));
}

/** The distinct `eventSource` values of the event table, sorted. */
export function loadEventSources(file: string): string[] {
  return [...loadEventNames(file).keys()];
}

/** The global services of the engine's record facts (`globalEventSources` of cloudtrail-facts.json). */
export function loadGlobalSources(file: string): string[] {
  const what = 'CloudTrail record facts';
  const values = (readJson(file, what) as { globalEventSources?: { values?: unknown } }).globalEventSources?.values;
  if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) {
    throw new Error(`${what} ${file}: globalEventSources.values is not a list of service hosts`);
  }
  return [...(values as string[])].sort();
}
