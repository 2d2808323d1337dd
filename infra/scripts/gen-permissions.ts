// Derives the IAM actions realdrift's functions need from the CloudFormation
// registry schemas (handlers.*.permissions), checked against the IAM action
// catalogue, into infra/data/read-permissions.json and
// infra/data/write-permissions.json. Run through scripts/gen-permissions.sh,
// which pins the schema source. Deterministic: sorted keys and lists, no clock.
//
//   ts-node scripts/gen-permissions.ts --cfn-lint-data DIR [--out DIR] [--cfn-lint-version V]
//
// DIR is cfn-lint's `cfnlint/data` directory: schemas/ holds the registry
// schemas, AdditionalSpecs/Policies.json cfn-lint's own list of IAM actions.
//
// Read set (scan, on-change, revert): the `read` handler permissions of every
// type, plus the `list` handler permissions of child types (a list handler
// with a handlerSchema, i.e. one that lists the children of a parent), which
// child enumeration uses. Each listed action is looked up in the catalogue
// (wildcards in a schema are expanded there) and kept only when IAM classes it
// Read or List, it is not in data/data-plane-actions.json (nor a secret or
// personal-data read data/sensitive-reads.json denies), and cfn-lint's
// action list knows it too (a retired service such as Evidently is dropped). The kept set is
// then written as IAM patterns that match, in the catalogue, exactly the kept
// actions and nothing else (prefix wildcards only where every action under the
// prefix is kept), split into policy-sized chunks.
//
// Write set (revert): per type, the `update` handler actions (split by whether
// IAM evaluates aws:ResourceTag on them, so revert can condition them on the
// watched stacks' tag) and the `delete` handler actions (kept apart: revert
// deletes only out-of-band children), canonicalised through the catalogue,
// minus the data-plane list, written as patterns the same way.
import * as fs from 'fs';
import * as path from 'path';
import { CatalogueAction, IamCatalogue, READ_LEVELS, actionId, wildcardRegExp } from '../tools/iam-catalogue';
import { compactPatterns, chunkPatterns } from '../tools/compact';

const REGION = 'us-east-1';

interface Handler {
  permissions?: string[];
  handlerSchema?: unknown;
}

interface Options {
  cfnLintData: string;
  outDir: string;
  cfnLintVersion: string;
}

function parseArgs(argv: string[]): Options {
  const get = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const cfnLintData = get('--cfn-lint-data');
  if (!cfnLintData) throw new Error('usage: gen-permissions.ts --cfn-lint-data DIR [--out DIR] [--cfn-lint-version V]');
  return {
    cfnLintData,
    outDir: get('--out') ?? path.join(__dirname, '..', 'data'),
    cfnLintVersion: get('--cfn-lint-version') ?? 'unknown',
  };
}

/** Every type's handlers, from cfn-lint's providers/<region>.json index. */
function loadHandlers(schemasDir: string): Map<string, Record<string, Handler>> {
  const index = JSON.parse(fs.readFileSync(path.join(schemasDir, 'providers', `${REGION}.json`), 'utf8')) as Record<
    string,
    string
  >;
  const out = new Map<string, Record<string, Handler>>();
  for (const type of Object.keys(index).sort()) {
    const file = path.join(schemasDir, 'resources', `${index[type]}.json`);
    if (!fs.existsSync(file)) continue;
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    out.set(type, (doc.handlers ?? {}) as Record<string, Handler>);
  }
  return out;
}

/** cfn-lint's IAM action list: lower-case service -> lower-case action names. */
function loadCfnLintActions(cfnLintData: string): Map<string, Set<string>> {
  const file = path.join(cfnLintData, 'AdditionalSpecs', 'Policies.json');
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, { Actions?: Record<string, unknown> }>;
  return new Map(Object.entries(doc).map(([service, v]) => [service.toLowerCase(), new Set(Object.keys(v.Actions ?? {}))]));
}

/** The data-plane patterns as RegExps. */
function loadDenied(): { pattern: string; re: RegExp }[] {
  const file = path.join(__dirname, '..', 'data', 'data-plane-actions.json');
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { actions: { pattern: string }[] };
  // Secret and personal-data reads denied everywhere (not only on one resource) are never granted either.
  const sensitive = path.join(__dirname, '..', 'data', 'sensitive-reads.json');
  const denied = (JSON.parse(fs.readFileSync(sensitive, 'utf8')) as { denied: { action: string; resource?: string }[] }).denied;
  const patterns = [...doc.actions.map((a) => a.pattern), ...denied.filter((d) => !d.resource).map((d) => d.action)];
  return patterns.map((pattern) => ({ pattern, re: wildcardRegExp(pattern) }));
}

type Reasons = Record<string, string[]>;

/** One type's write patterns (see the `about` of write-permissions.json). */
interface WriteSet {
  update: string[];
  untagged: string[];
  delete: string[];
  deleteUntagged: string[];
}

/** Why listed actions were not granted: action -> the types that list it. */
interface Dropped {
  unknown: Reasons;
  unknownToCfnLint: Reasons;
  dataPlane: Reasons;
  notRead: Reasons;
}

function dropped(): Dropped {
  return { unknown: {}, unknownToCfnLint: {}, dataPlane: {}, notRead: {} };
}

function note(map: Reasons, action: string, type: string): void {
  (map[action] ??= []).includes(type) || map[action].push(type);
}

/** Resolves one schema permission to catalogue actions, recording why any is dropped. */
function classify(
  catalogue: IamCatalogue,
  cfnLint: Map<string, Set<string>>,
  denied: { re: RegExp }[],
  permission: string,
  type: string,
  dropped: Dropped,
  wantRead: boolean,
): CatalogueAction[] {
  let matches: CatalogueAction[] = [];
  try {
    matches = catalogue.expand(permission);
  } catch {
    matches = [];
  }
  if (matches.length === 0) {
    note(dropped.unknown, permission, type);
    return [];
  }
  const kept: CatalogueAction[] = [];
  for (const a of matches) {
    const id = actionId(a);
    if (denied.some((d) => d.re.test(id))) note(dropped.dataPlane, id, type);
    // IAM classes a few Pass* actions (cleanrooms:PassMembership) as Read,
    // but they hand a resource to a service: never part of a read.
    else if (wantRead && (!READ_LEVELS.has(a.level) || /^Pass/.test(a.name))) note(dropped.notRead, id, type);
    else if (!cfnLint.get(a.service)?.has(a.name.toLowerCase())) note(dropped.unknownToCfnLint, id, type);
    else kept.push(a);
  }
  return kept;
}

function sortedReasons(map: Reasons): Reasons {
  const out: Reasons = {};
  for (const key of Object.keys(map).sort()) out[key] = [...map[key]].sort();
  return out;
}

function main(): void {
  const opts = parseArgs(process.argv.slice(2));
  const catalogue = new IamCatalogue();
  const denied = loadDenied();
  const handlers = loadHandlers(path.join(opts.cfnLintData, 'schemas'));
  const cfnLint = loadCfnLintActions(opts.cfnLintData);

  const readDropped = dropped();
  const granted = new Map<string, CatalogueAction>();
  let childListTypes = 0;
  for (const [type, hs] of handlers) {
    const permissions = [...(hs.read?.permissions ?? [])];
    if (hs.list?.handlerSchema) {
      childListTypes += 1;
      permissions.push(...(hs.list.permissions ?? []));
    }
    for (const p of permissions) {
      for (const a of classify(catalogue, cfnLint, denied, p, type, readDropped, true)) granted.set(actionId(a), a);
    }
  }
  const patterns = compactPatterns(catalogue, [...granted.values()]);
  const read = {
    about:
      'Generated by scripts/gen-permissions.sh from the CloudFormation registry schemas; do not edit. ' +
      'IAM patterns matching exactly the Read/List actions of every read handler and every child-type list handler, minus data/data-plane-actions.json.',
    sources: { cfnLint: opts.cfnLintVersion, region: REGION, iamData: catalogue.version },
    types: handlers.size,
    childListTypes,
    actionCount: granted.size,
    chunks: chunkPatterns(patterns),
    notGranted: {
      dataPlane: sortedReasons(readDropped.dataPlane),
      notReadLevel: sortedReasons(readDropped.notRead),
      unknownToCatalogue: sortedReasons(readDropped.unknown),
      unknownToCfnLint: sortedReasons(readDropped.unknownToCfnLint),
    },
  };

  const writeDropped = dropped();
  const perType: Record<string, WriteSet> = {};
  for (const [type, hs] of handlers) {
    const resolve = (ps: string[] | undefined) =>
      ps ? ps.flatMap((p) => classify(catalogue, cfnLint, denied, p, type, writeDropped, false)) : [];
    const update = resolve(hs.update?.permissions);
    const del = resolve(hs.delete?.permissions);
    if (update.length + del.length > 0) {
      perType[type] = {
        update: compactPatterns(catalogue, update.filter((a) => a.resourceTag)),
        untagged: compactPatterns(catalogue, update.filter((a) => !a.resourceTag)),
        delete: compactPatterns(catalogue, del.filter((a) => a.resourceTag)),
        deleteUntagged: compactPatterns(catalogue, del.filter((a) => !a.resourceTag)),
      };
    }
  }
  const write = {
    about:
      'Generated by scripts/gen-permissions.sh from the CloudFormation registry schemas; do not edit. ' +
      "Per type, the actions of its update handler (what Cloud Control UpdateResource runs with the caller's credentials) " +
      'split by whether IAM matches aws:ResourceTag on them (update) or not (untagged), and of its delete handler, split ' +
      'the same way (delete, deleteUntagged), ' +
      'minus data/data-plane-actions.json.',
    sources: read.sources,
    types: perType,
    notGranted: {
      dataPlane: sortedReasons(writeDropped.dataPlane),
      unknownToCfnLint: sortedReasons(writeDropped.unknownToCfnLint),
    },
  };

  fs.mkdirSync(opts.outDir, { recursive: true });
  fs.writeFileSync(path.join(opts.outDir, 'read-permissions.json'), stableJson(read));
  fs.writeFileSync(path.join(opts.outDir, 'write-permissions.json'), linePerKeyJson(write, 'types'));
  const size = read.chunks.reduce((n, c) => n + c.join('').length, 0);
  console.log(
    `read: ${granted.size} actions as ${patterns.length} patterns (${size} chars) in ${read.chunks.length} policies; ` +
      `write: ${Object.keys(perType).length} types`,
  );
}

/** Indented JSON, one list element per line, so a regeneration reviews as a readable diff. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, null, 1) + '\n';
}

/** Like stableJson, but each entry of the map under `key` on one line (a large map stays compact). */
function linePerKeyJson(value: Record<string, unknown>, key: string): string {
  const map = value[key] as Record<string, unknown>;
  const placeholder = '"__LINES__"';
  const lines = Object.keys(map)
    .map((k) => `  ${JSON.stringify(k)}: ${JSON.stringify(map[k])}`)
    .join(',\n');
  return stableJson({ ...value, [key]: '__LINES__' }).replace(placeholder, `{\n${lines}\n }`);
}

main();
