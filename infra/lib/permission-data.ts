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

/** IAM patterns of the update and delete handler actions of each given type (data/write-permissions.json). */
export function writePatternsFor(types: string[]): string[] {
  const data = load<{ types: Record<string, string[]> }>('write-permissions.json');
  const missing = types.filter((t) => !data.types[t]);
  if (missing.length > 0) {
    throw new Error(
      `context revertTypes: no update/delete handler permissions known for ${missing.join(', ')} ` +
        '(not a registry type, or the type has no update handler)',
    );
  }
  return [...new Set(types.flatMap((t) => data.types[t]))].sort();
}

/** data/sdk-actions.json. */
export function sdkActions(): SdkActions {
  return load<SdkActions>('sdk-actions.json');
}

/** data/data-plane-actions.json. */
export function dataPlaneActions(): DataPlaneAction[] {
  return load<{ actions: DataPlaneAction[] }>('data-plane-actions.json').actions;
}
