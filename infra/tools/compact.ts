// Writes a set of IAM actions as few patterns as possible without granting
// anything else, and splits the patterns into managed-policy-sized chunks.
import { CatalogueAction, IamCatalogue } from './iam-catalogue';

/** Shortest prefix wildcard we emit: `ec2:Get*` style, never `ec2:G*`. */
const MIN_PREFIX = 3;

/**
 * IAM patterns that match, in the catalogue, exactly the given actions: per
 * service, each action is covered by the shortest `Prefix*` whose catalogue
 * matches are all in the set, or written out when no such prefix exists.
 * The prefixes are as short as that allows (`kms:CreateG*` for CreateGrant),
 * because the read set must fit the ten managed policies IAM lets a role
 * carry; the tests re-expand every pattern against the catalogue.
 */
export function compactPatterns(catalogue: IamCatalogue, actions: CatalogueAction[]): string[] {
  const byService = new Map<string, Set<string>>();
  for (const a of actions) {
    if (!byService.has(a.service)) byService.set(a.service, new Set());
    byService.get(a.service)!.add(a.name);
  }
  const out: string[] = [];
  for (const service of [...byService.keys()].sort()) {
    const wanted = byService.get(service)!;
    const names = catalogue.serviceActions(service).map((a) => a.name);
    const covered = new Set<string>();
    for (const name of [...wanted].sort()) {
      if (covered.has(name)) continue;
      let pattern = name;
      for (let len = MIN_PREFIX; len < name.length; len++) {
        const prefix = name.slice(0, len).toLowerCase();
        const matches = names.filter((n) => n.toLowerCase().startsWith(prefix));
        if (matches.every((n) => wanted.has(n))) {
          pattern = `${name.slice(0, len)}*`;
          matches.forEach((n) => covered.add(n));
          break;
        }
      }
      covered.add(name);
      out.push(`${service}:${pattern}`);
    }
  }
  return [...new Set(out)].sort();
}

/**
 * IAM counts a managed policy's size without whitespace and caps it at 6,144
 * characters; the policy document around the action list takes about 90.
 */
export const MANAGED_POLICY_LIMIT = 6144;
const CHUNK_BUDGET = 5900;

/** Splits sorted patterns into chunks whose JSON action lists fit one managed policy. */
export function chunkPatterns(patterns: string[], budget: number = CHUNK_BUDGET): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const p of patterns) {
    const cost = p.length + 3; // quotes and comma
    if (size + cost > budget && current.length > 0) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(p);
    size += cost;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
