// Finds the AWS SDK calls of the Rust sources (for test/sdk-actions.test.ts).
import * as fs from 'fs';
import * as path from 'path';
import { IamCatalogue } from '../tools/iam-catalogue';
import { REPO } from './helpers';

/** Where Rust code calls the SDK: the engine's AWS adapters, a split-out aws crate, the functions, the CLI. */
const SOURCE_DIRS = ['core/src', 'aws/src', 'functions', 'cli/src'];

function rustFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'target' ? [] : rustFiles(p);
    return e.name.endsWith('.rs') ? [p] : [];
  });
}

/** Cloud Control's operations (IAM prefix cloudformation, SDK crate aws_sdk_cloudcontrol). */
const CLOUD_CONTROL_OPS = new Set([
  'CancelResourceRequest',
  'CreateResource',
  'DeleteResource',
  'GetResource',
  'GetResourceRequestStatus',
  'ListResourceRequests',
  'ListResources',
  'UpdateResource',
]);

/** SDK operations whose IAM action has another name. */
const OPERATION_ALIASES: Record<string, string> = {
  head_object: 'GetObject',
  head_bucket: 'ListBucket',
  list_objects: 'ListBucket',
  list_objects_v2: 'ListBucket',
};

const pascal = (snake: string) => snake.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');

/**
 * SDK calls in the Rust sources, as `client.operation` (client = the
 * AwsClients field / SDK crate name), with the files making them. A file's
 * clients are the SDK crates it names (`aws_sdk_<name>`) and the AwsClients
 * fields it uses (`clients.<name>`); a call is a `.operation(` whose IAM
 * action exists in one of those clients' services.
 */
export function sdkCalls(prefixes: Record<string, string>, catalogue: IamCatalogue): Map<string, string[]> {
  const calls = new Map<string, string[]>();
  for (const file of SOURCE_DIRS.flatMap((d) => rustFiles(path.join(REPO, d)))) {
    const text = fs.readFileSync(file, 'utf8');
    const clients = new Set<string>();
    for (const m of text.matchAll(/\baws_sdk_([a-z0-9]+)\b|\bclients\s*\.\s*([a-z0-9_]+)\b/g)) {
      const name = m[1] ?? m[2];
      if (name in prefixes) clients.add(name);
    }
    if (clients.size === 0) continue;
    for (const m of text.matchAll(/\.\s*([a-z][a-z0-9_]*)\s*\(/g)) {
      const op = m[1];
      const action = OPERATION_ALIASES[op] ?? pascal(op);
      for (const client of clients) {
        const isCloudControl = CLOUD_CONTROL_OPS.has(action);
        if ((client === 'cloudcontrol') !== isCloudControl && prefixes[client] === 'cloudformation') continue;
        if (!catalogue.lookup(`${prefixes[client]}:${action}`)) continue;
        const key = `${client}.${op}`;
        calls.set(key, [...new Set([...(calls.get(key) ?? []), path.relative(REPO, file)])]);
      }
    }
  }
  return calls;
}

