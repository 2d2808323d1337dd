// The EventBridge event patterns of the change rules, generated from the
// engine's event table: per service its exact event names (plus the
// API-version-suffixed form where CloudTrail records one), failed calls
// dropped, split over several rules where one pattern would pass
// EventBridge's size limit. Pure: no construct is made here.
import * as path from 'path';
import { readJson } from './event-sources';

/** The detail-type of a CloudTrail API call on EventBridge. */
export const API_CALL_DETAIL_TYPE = 'AWS API Call via CloudTrail';

/** The facts file of infra/data the patterns follow (each fact with its source). */
export const CHANGE_RULE_FACTS_FILE = path.resolve(__dirname, '..', 'data', 'change-rule-facts.json');

/** What the patterns need from infra/data/change-rule-facts.json. */
export interface ChangeRuleFacts {
  /** EventBridge's default event-pattern size limit, in characters. */
  readonly patternSizeLimit: number;
  /** Services whose CloudTrail event names may carry an API-version suffix. */
  readonly versionSuffixedSources: string[];
  /** The prefix every such suffix starts with. */
  readonly versionSuffixPrefix: string;
  /** Where EventBridge delivers global services' events in the commercial partition. */
  readonly globalEventsRegion: string;
  /** Region-name prefixes of other partitions, where that Region is not known. */
  readonly otherPartitionRegionPrefixes: string[];
}

/** Reads the change-rule facts, throwing naming the file and the fact when one is unusable. */
export function loadChangeRuleFacts(file: string = CHANGE_RULE_FACTS_FILE): ChangeRuleFacts {
  const doc = readJson(file, 'change-rule facts') as Record<string, any>;
  const fail = (key: string): never => {
    throw new Error(`change-rule facts ${file}: ${key} is missing or malformed`);
  };
  const strings = (v: unknown, key: string): string[] =>
    Array.isArray(v) && v.every((s) => typeof s === 'string') ? (v as string[]) : fail(key);
  const limit = doc.patternSizeLimit?.value;
  if (!Number.isInteger(limit) || limit < 256) fail('patternSizeLimit.value');
  const prefix = doc.versionSuffixedSources?.prefix;
  if (typeof prefix !== 'string' || prefix === '') fail('versionSuffixedSources.prefix');
  const region = doc.globalEventsRegion?.value;
  if (typeof region !== 'string' || !/^[a-z]{2}(-[a-z]+)+-\d$/.test(region)) fail('globalEventsRegion.value');
  return {
    patternSizeLimit: limit,
    versionSuffixedSources: strings(doc.versionSuffixedSources?.values, 'versionSuffixedSources.values'),
    versionSuffixPrefix: prefix,
    globalEventsRegion: region,
    otherPartitionRegionPrefixes: strings(doc.globalEventsRegion?.partitionRegionPrefixes, 'globalEventsRegion.partitionRegionPrefixes'),
  };
}

/** One rule's worth of the event table: a service, some of its names, and the pattern matching them. */
export interface ChangePattern {
  readonly eventSource: string;
  /** 1-based part of this service's names, of `parts`. */
  readonly part: number;
  readonly parts: number;
  readonly eventNames: string[];
  readonly pattern: Record<string, unknown>;
}

/**
 * The pattern for some names of one service. A failed call changed nothing:
 * `errorCode` must be absent, null or empty, as on-change reads it.
 */
export function patternFor(eventSource: string, names: string[], facts: ChangeRuleFacts): Record<string, unknown> {
  const suffixed = facts.versionSuffixedSources.includes(eventSource);
  const matchers: unknown[] = names.flatMap((n) => (suffixed ? [n, { prefix: n + facts.versionSuffixPrefix }] : [n]));
  return {
    'detail-type': [API_CALL_DETAIL_TYPE],
    detail: {
      eventSource: [eventSource],
      eventName: matchers,
      errorCode: [{ exists: false }, null, ''],
    },
  };
}

/**
 * The size EventBridge counts, taken pessimistically: the compact JSON plus
 * one space after every separator (a serializer may add them).
 */
export function patternSize(pattern: unknown): number {
  const compact = JSON.stringify(pattern);
  let separators = 0;
  let inString = false;
  for (let i = 0; i < compact.length; i++) {
    const c = compact[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ',' || c === ':') separators++;
  }
  return compact.length + separators;
}

/** Splits one service's names greedily into consecutive groups whose pattern fits the limit. */
function splitGreedy(eventSource: string, names: string[], facts: ChangeRuleFacts): string[][] {
  const groups: string[][] = [];
  let current: string[] = [];
  for (const name of names) {
    const next = [...current, name];
    if (patternSize(patternFor(eventSource, next, facts)) <= facts.patternSizeLimit) {
      current = next;
      continue;
    }
    if (current.length === 0) {
      throw new Error(`event ${eventSource} ${name}: its pattern alone exceeds ${facts.patternSizeLimit} characters`);
    }
    groups.push(current);
    current = [name];
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/**
 * As many groups as the greedy split needs, but of even length when they
 * all fit (so a rule never holds one leftover name), else the greedy split.
 */
function split(eventSource: string, names: string[], facts: ChangeRuleFacts): string[][] {
  const greedy = splitGreedy(eventSource, names, facts);
  const k = greedy.length;
  const even = Array.from({ length: k }, (_, i) => names.slice(Math.floor((i * names.length) / k), Math.floor(((i + 1) * names.length) / k)));
  const fits = even.every((g) => patternSize(patternFor(eventSource, g, facts)) <= facts.patternSizeLimit);
  return fits ? even : greedy;
}

/** The patterns for an event table (`eventSource` -> names), one or more per service. */
export function changePatterns(table: Map<string, string[]>, facts: ChangeRuleFacts): ChangePattern[] {
  return [...table.entries()].flatMap(([eventSource, names]) => {
    const groups = split(eventSource, names, facts);
    return groups.map((eventNames, i) => ({
      eventSource,
      part: i + 1,
      parts: groups.length,
      eventNames,
      pattern: patternFor(eventSource, eventNames, facts),
    }));
  });
}

/** A construct id for a pattern's rule: `Iam`, `Lambda1`, `Lambda2` ... */
export function patternId(p: ChangePattern): string {
  const service = p.eventSource
    .replace(/\.amazonaws\.com$/, '')
    .split(/[.-]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
  return p.parts === 1 ? service : `${service}${p.part}`;
}
