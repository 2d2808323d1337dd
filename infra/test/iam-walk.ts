// Walks every IAM statement that applies to a role in a synthesized template
// and judges each allowed action by IAM's own access level (the pinned
// catalogue): the read-only roles may write only to resources they own.
import { IamCatalogue, READ_LEVELS, actionId, wildcardRegExp } from '../tools/iam-catalogue';
import { CfnTemplate } from './helpers';

/** One policy statement as synthesized. */
export interface Statement {
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: unknown;
  NotResource?: unknown;
  Condition?: unknown;
}

/** A statement and where it came from. */
export interface Located {
  readonly source: string;
  readonly statement: Statement;
}

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const ref = (v: unknown): string | undefined => (v as { Ref?: string })?.Ref;

/** Every statement of every policy attached to the role (inline, AWS::IAM::Policy, customer managed). */
export function statementsOf(json: CfnTemplate, roleId: string): Located[] {
  const role = json.Resources[roleId];
  if (!role || role.Type !== 'AWS::IAM::Role') throw new Error(`${roleId} is not a role`);
  const out: Located[] = [];
  for (const p of list(role.Properties?.Policies)) {
    for (const s of list<Statement>(p.PolicyDocument?.Statement)) out.push({ source: `${roleId} inline ${p.PolicyName}`, statement: s });
  }
  const managed = new Set<string>();
  for (const arn of list(role.Properties?.ManagedPolicyArns)) {
    const id = ref(arn);
    if (!id) throw new Error(`${roleId} attaches a policy the template does not define: ${JSON.stringify(arn)}`);
    managed.add(id);
  }
  for (const [id, r] of Object.entries(json.Resources)) {
    const attached = list(r.Properties?.Roles).some((x) => ref(x) === roleId);
    const isPolicy = r.Type === 'AWS::IAM::Policy' && attached;
    const isManaged = r.Type === 'AWS::IAM::ManagedPolicy' && (attached || managed.has(id));
    if (isPolicy || isManaged) {
      for (const s of list<Statement>(r.Properties.PolicyDocument?.Statement)) out.push({ source: id, statement: s });
    }
  }
  return out;
}

/** Resources a read-only function may write to or read data from, as synthesized values. */
export interface Allowance {
  /** Resource values (intrinsics compared as JSON) the role may write. */
  readonly writable: unknown[];
  /** Resource values the role may read data (object contents, secret values, decrypt) from. */
  readonly dataReadable: unknown[];
}

/** Read-level actions that return data rather than configuration (checked against dataReadable). */
const DATA_READS = [
  's3:GetObject',
  's3:GetObjectVersion',
  'secretsmanager:GetSecretValue',
  'secretsmanager:BatchGetSecretValue',
  'ssm:GetParameter*',
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:Scan',
  'dynamodb:PartiQLSelect',
  'kinesis:GetRecords',
  'sqs:ReceiveMessage',
  'logs:GetLogEvents',
  'logs:FilterLogEvents',
].map((p) => wildcardRegExp(p));

/**
 * Every violation of the read-only rule in the role's Allow statements: an
 * action that is not Read/List on a resource outside `writable`, a data read
 * outside `dataReadable`, an action the catalogue does not know, or a
 * NotAction / NotResource grant (which cannot be bounded).
 */
export function readOnlyViolations(catalogue: IamCatalogue, statements: Located[], allow: Allowance): string[] {
  const key = (v: unknown) => JSON.stringify(v);
  const writable = new Set(allow.writable.map(key));
  const dataReadable = new Set(allow.dataReadable.map(key));
  const out: string[] = [];
  for (const { source, statement } of statements) {
    if (statement.Effect !== 'Allow') continue;
    if (statement.NotAction || statement.NotResource) {
      out.push(`${source}: Allow with NotAction/NotResource`);
      continue;
    }
    const resources = list(statement.Resource);
    for (const pattern of list(statement.Action)) {
      const matches = catalogue.expand(pattern);
      if (matches.length === 0) out.push(`${source}: ${pattern} is not a known IAM action`);
      for (const a of matches) {
        const id = actionId(a);
        const isWrite = !READ_LEVELS.has(a.level);
        const isDataRead = !isWrite && DATA_READS.some((re) => re.test(id));
        const allowedSet = isWrite ? writable : isDataRead ? dataReadable : undefined;
        if (!allowedSet) continue;
        const outside = resources.filter((r) => !allowedSet.has(key(r)));
        if (outside.length > 0) {
          out.push(
            `${source}: ${pattern} grants ${isWrite ? `${a.level} action` : 'data read'} ${id} on ${outside.map(key).join(', ')}`,
          );
        }
      }
    }
  }
  return [...new Set(out)];
}
