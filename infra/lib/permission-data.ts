// The permission tables in infra/data/: the generated read and write sets
// (scripts/gen-permissions.sh) and the hand-kept table of SDK calls.
import * as fs from 'fs';
import * as path from 'path';
import { INFRA_DIR } from './config';

/** The generated read set: IAM patterns split into managed-policy-sized chunks. */
export interface ReadPermissions {
  readonly chunks: string[][];
  readonly actionCount: number;
  readonly sources: Record<string, string>;
}

/** One SDK call of the Rust code and the IAM action it needs. */
export interface SdkAction {
  readonly sdk: string;
  readonly action: string;
  readonly reason: string;
  readonly pending?: string;
  /** A service writer's type: its action is granted only when revert may write that type. */
  readonly type?: string;
  /** A service writer's action IAM authorizes on "*" only (no resource type): granted without the stack-tag condition. */
  readonly untagged?: boolean;
}

/** The hand-kept SDK call table (data/sdk-actions.json). */
export interface SdkActions {
  readonly clientPrefixes: Record<string, string>;
  readonly readers: SdkAction[];
  readonly writers: SdkAction[];
  readonly ownResources: { sdk: string; grant: string }[];
}

/** A data-plane action pattern and why it is never granted. */
export interface DataPlaneAction {
  readonly pattern: string;
  readonly reason: string;
}

const DATA_DIR = path.join(INFRA_DIR, 'data');

function load<T>(file: string): T {
  const full = path.join(DATA_DIR, file);
  try {
    return JSON.parse(fs.readFileSync(full, 'utf8')) as T;
  } catch (e) {
    throw new Error(`${full}: ${(e as Error).message}`);
  }
}

/** data/read-permissions.json. */
export function readPermissions(): ReadPermissions {
  const data = load<ReadPermissions>('read-permissions.json');
  if (!Array.isArray(data.chunks) || data.chunks.length === 0) {
    throw new Error(`${path.join(DATA_DIR, 'read-permissions.json')}: no read permissions (regenerate it)`);
  }
  return data;
}

/** One type's write patterns in data/write-permissions.json. */
export interface WriteSet {
  /** Update handler actions on which IAM matches `aws:ResourceTag`. */
  readonly update: string[];
  /** Update handler actions on which it cannot. */
  readonly untagged: string[];
  /** Delete handler actions on which IAM matches `aws:ResourceTag` (a child's delete acting on its tagged parent). */
  readonly delete: string[];
  /** Delete handler actions on which it cannot. */
  readonly deleteUntagged: string[];
}

/** A child type whose out-of-band instances a revert plan deletes (data/revert-children.json). */
export interface RevertChild {
  readonly type: string;
  readonly parent: string;
  readonly deletes: boolean;
  readonly source: string;
  readonly reason: string;
}

/** data/revert-children.json. */
export function revertChildren(): RevertChild[] {
  return load<{ children: RevertChild[] }>('revert-children.json').children;
}

/**
 * The write patterns revert needs for the given types: update actions of
 * every type, delete actions only of the child types revert-children.json
 * lets revert delete (a top-level type never gets its delete handler).
 */
export function writeSetFor(types: string[], key: string): WriteSet {
  const data = load<{ types: Record<string, WriteSet> }>('write-permissions.json');
  // A type with no registry handlers may still have a service writer (its action is in sdk-actions.json).
  const served = new Set(sdkActions().writers.flatMap((w) => (w.type ? [w.type] : [])));
  const missing = types.filter((t) => !data.types[t] && !served.has(t));
  if (missing.length > 0) {
    throw new Error(
      `context ${key}: no update/delete handler permissions known for ${missing.join(', ')} ` +
        '(not a registry type, or the type has no update handler and no service writer)',
    );
  }
  const known = types.filter((t) => data.types[t]);
  const deletable = new Set(revertChildren().filter((c) => c.deletes).map((c) => c.type));
  const union = (pick: (t: string) => string[]) => [...new Set(known.flatMap(pick))].sort();
  return {
    update: union((t) => data.types[t].update),
    untagged: union((t) => data.types[t].untagged),
    delete: union((t) => (deletable.has(t) ? data.types[t].delete : [])),
    deleteUntagged: union((t) => (deletable.has(t) ? data.types[t].deleteUntagged : [])),
  };
}

/** Every pattern of a write set. */
export function writePatterns(set: WriteSet): string[] {
  return [...new Set([...set.update, ...set.untagged, ...set.delete, ...set.deleteUntagged])].sort();
}

/** data/sdk-actions.json. */
export function sdkActions(): SdkActions {
  return load<SdkActions>('sdk-actions.json');
}

/** data/data-plane-actions.json. */
export function dataPlaneActions(): DataPlaneAction[] {
  return load<{ actions: DataPlaneAction[] }>('data-plane-actions.json').actions;
}

/** A secret or personal-data read (data/sensitive-reads.json). */
export interface SensitiveRead {
  readonly action: string;
  /** Denied only on this resource pattern (`arn:aws:` is the partition placeholder); absent = everywhere. */
  readonly resource?: string;
  readonly types: string[];
  readonly source?: string;
  readonly reason?: string;
  readonly returns?: string;
  readonly masking?: string;
}

/** data/sensitive-reads.json: the denied and the kept secret / personal-data reads. */
export function sensitiveReads(): { denied: SensitiveRead[]; kept: SensitiveRead[] } {
  return load<{ denied: SensitiveRead[]; kept: SensitiveRead[] }>('sensitive-reads.json');
}
