// Shared test fixtures: synthesizing the app offline against placeholder
// function zips, and reading the synthesized template.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildApp } from '../lib/app';
import { RealdriftStack } from '../lib/realdrift-stack';

export const INFRA = path.resolve(__dirname, '..');
export const REPO = path.resolve(INFRA, '..');

/** The three function binaries (contract with functions/*). */
export const BINARIES = ['realdrift-scan', 'realdrift-on-change', 'realdrift-revert', 'realdrift-hub'];

const stubDirs = new Map<string, string>();

/** A zip holding one stored `bootstrap` entry: the start of an ELF binary for `machine` (e_machine). */
export function elfZip(machine: number): Buffer {
  const elf = Buffer.alloc(64);
  elf.writeUInt32BE(0x7f454c46, 0);
  elf[4] = 2; // 64-bit
  elf[5] = 1; // little-endian
  elf.writeUInt16LE(machine, 18);
  const name = Buffer.from('bootstrap');
  const crc = zlibCrc32(elf);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(elf.length, 18);
  local.writeUInt32LE(elf.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(elf.length, 20);
  central.writeUInt32LE(elf.length, 24);
  central.writeUInt16LE(name.length, 28);
  const centralAt = local.length + name.length + elf.length;
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(1, 8);
  eocd.writeUInt16LE(1, 10);
  eocd.writeUInt32LE(central.length + name.length, 12);
  eocd.writeUInt32LE(centralAt, 16);
  return Buffer.concat([local, name, elf, central, name, eocd]);
}

function zlibCrc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * A directory of placeholder `<binary>/bootstrap.zip` files for one
 * architecture (a zip holding just an ELF header for that machine): tests
 * never build the Rust functions, arm64 least of all.
 */
export function stubAssets(architecture: string = 'x86_64'): string {
  const hit = stubDirs.get(architecture);
  if (hit) return hit;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `realdrift-assets-${architecture}-`));
  const zip = elfZip(architecture === 'arm64' ? 183 : 62);
  for (const b of BINARIES) {
    fs.mkdirSync(path.join(dir, b));
    fs.writeFileSync(path.join(dir, b, 'bootstrap.zip'), zip);
  }
  stubDirs.set(architecture, dir);
  return dir;
}

/** One synthesized app. */
export interface Synth {
  readonly app: App;
  readonly stack: RealdriftStack;
  readonly template: Template;
  readonly json: CfnTemplate;
}

/** The parts of a CloudFormation template the tests read. */
export interface CfnTemplate {
  Resources: Record<string, { Type: string; Properties?: any; DeletionPolicy?: string; Condition?: string }>;
  Outputs?: Record<string, { Value: any; Description?: string }>;
}

const cache = new Map<string, Synth>();

/**
 * Synthesizes the app with the given context on top of the defaults
 * (cdk.json) and stub assets. cdk-nag acknowledgments change no template, so
 * only the nag tests ask for them (they cost a pass of the rule pack).
 */
export function synth(
  context: Record<string, unknown> = {},
  options: { acknowledgeNag?: boolean; defaultRegion?: string | null } = {},
): Synth {
  const acknowledgeNag = options.acknowledgeNag ?? false;
  // As the CLI would set CDK_DEFAULT_REGION (null: unset), never from the test's environment.
  const defaultRegion = options.defaultRegion === null ? '' : (options.defaultRegion ?? 'us-east-1');
  const key = JSON.stringify([context, acknowledgeNag, defaultRegion]);
  const hit = cache.get(key);
  if (hit) return hit;
  const defaults = cdkJsonContext();
  const architecture = String(context.architecture ?? defaults.architecture);
  const app = new App({ context: { ...defaults, lambdaAssets: stubAssets(architecture), ...context } });
  const stack = buildApp(app, { acknowledgeNag, defaultRegion });
  const template = Template.fromStack(stack);
  const result = { app, stack, template, json: template.toJSON() as CfnTemplate };
  cache.set(key, result);
  return result;
}

/** The context block of cdk.json, which `cdk synth` would apply. */
export function cdkJsonContext(): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(INFRA, 'cdk.json'), 'utf8')).context;
}

/** Resources of one type, by logical id. */
export function resourcesOfType(json: CfnTemplate, type: string): [string, any][] {
  return Object.entries(json.Resources).filter(([, r]) => r.Type === type);
}

/** The logical id of the single resource of a type whose logical id starts with a prefix. */
export function logicalId(json: CfnTemplate, type: string, prefix: string): string {
  const ids = resourcesOfType(json, type)
    .map(([id]) => id)
    .filter((id) => id.startsWith(prefix));
  if (ids.length !== 1) throw new Error(`expected one ${type} starting with ${prefix}, found ${ids.join(', ') || 'none'}`);
  return ids[0];
}

/** Where cfn-lint lives: $CFN_LINT, the repository's .venv, or PATH. */
export function cfnLintPath(): string | undefined {
  const candidates = [process.env.CFN_LINT, path.join(REPO, '.venv', 'bin', 'cfn-lint')];
  for (const c of candidates) if (c && fs.existsSync(c)) return c;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir, 'cfn-lint');
    if (fs.existsSync(p)) return p;
  }
  return undefined;
}

/** The message when cfn-lint is missing (the tests that need it fail with it). */
export const CFN_LINT_MISSING =
  'cfn-lint not found: install the pinned tools with ' +
  '`python3 -m venv .venv && .venv/bin/pip install -r infra/requirements.txt` at the repository root ' +
  '(infra/run-tests.sh does it), or set CFN_LINT';
