// The IAM side of realdrift: the generated read policies every function
// shares, the SDK reader actions, revert's write grants, and the explicit
// denies that keep data planes and realdrift's own IAM out of reach.
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { Aws } from 'aws-cdk-lib';
import { readPermissions, sdkActions, sensitiveReads, writePatterns, writeSetFor } from './permission-data';

/** Cloud Control write calls revert makes (it plans RFC 6902 patches and applies them). */
export const CLOUD_CONTROL_WRITE = [
  'cloudformation:UpdateResource',
  'cloudformation:DeleteResource',
  'cloudformation:GetResourceRequestStatus',
];

/**
 * The characters revert's write actions may take in its inline policy: IAM
 * caps a role's inline policies at 10,240 characters together, and the
 * function's own statements need the rest.
 */
export const REVERT_WRITE_BUDGET = 7000;

/** The generated read handler permissions as customer managed policies (IAM caps each at 6,144 characters). */
export class ReadPolicies extends Construct {
  readonly policies: iam.ManagedPolicy[];

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const data = readPermissions();
    this.policies = data.chunks.map(
      (chunk, i) =>
        new iam.ManagedPolicy(this, `Part${i + 1}`, {
          description:
            `realdrift: read permissions of the CloudFormation registry read/list handlers, ` +
            `part ${i + 1} of ${data.chunks.length} (generated from registry schemas, data-plane actions excluded)`,
          statements: [new iam.PolicyStatement({ actions: chunk, resources: ['*'] })],
        }),
    );
  }

  /** Attaches every part to a role. */
  attachTo(role: iam.IRole): void {
    for (const p of this.policies) role.addManagedPolicy(p);
  }
}

/** CloudFormation, Cloud Control and per-type reader calls of the engine (data/sdk-actions.json). */
export function readerStatement(): iam.PolicyStatement {
  const actions = [...new Set(sdkActions().readers.map((r) => r.action))].sort();
  return new iam.PolicyStatement({ actions, resources: ['*'] });
}

/** What revert may write: the types, the IAM types opted into, the roles it may pass, the watched stacks. */
export interface RevertScope {
  /** Non-IAM types (context revertTypes). */
  readonly types: string[];
  /** IAM types a team opted into (context revertIamTypes). */
  readonly iamTypes: string[];
  /** Role ARNs revert may pass (context revertPassRoles). */
  readonly passRoles: string[];
  /** Stack-name globs of the watched stacks; empty = every stack. */
  readonly stacks: string[];
}

/** The tag CloudFormation puts on the resources of a stack (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-resource-tags.html). */
export const STACK_NAME_TAG = 'aws:ResourceTag/aws:cloudformation:stack-name';

/** Refuses an IAM type in revertTypes and a non-IAM type in revertIamTypes. */
export function checkRevertTypes(scope: RevertScope): void {
  const iam = scope.types.filter((t) => t.startsWith('AWS::IAM::'));
  if (iam.length > 0) {
    throw new Error(
      `context revertTypes: ${iam.join(', ')} would let revert rewrite IAM; IAM writes are opt-in: ` +
        'list the type in revertIamTypes instead (docs/deploy.md says what that grants)',
    );
  }
  const other = scope.iamTypes.filter((t) => !t.startsWith('AWS::IAM::'));
  if (other.length > 0) throw new Error(`context revertIamTypes: ${other.join(', ')} is not an AWS::IAM:: type`);
}

/**
 * What revert may write: Cloud Control writes, the update handler actions of
 * its types and the delete handler actions of the out-of-band child types
 * only (both on resources tagged with a watched stack's name where IAM can
 * match the tag: a child's delete acts on its declared parent),
 * kms:CreateGrant only for grants an AWS service uses, PassRole only on the
 * listed roles.
 */
export function revertWriteStatements(scope: RevertScope): iam.PolicyStatement[] {
  checkRevertTypes(scope);
  const set = writeSetFor([...scope.types, ...scope.iamTypes], 'revertTypes');
  const size = writePatterns(set).reduce((n, a) => n + a.length + 3, 0);
  if (size > REVERT_WRITE_BUDGET) {
    throw new Error(
      `context revertTypes: the ${scope.types.length + scope.iamTypes.length} types need ${writePatterns(set).length} write actions ` +
        `(${size} characters), more than fits revert's inline policy (${REVERT_WRITE_BUDGET}); list fewer types`,
    );
  }
  // A grant on a key is checked on the key, which is rarely in the watched stack.
  const isGrant = (p: string) => wildcardMatches(p, 'kms:CreateGrant');
  // A service writer's action only when revert may write its type.
  const allowed = new Set([...scope.types, ...scope.iamTypes]);
  const writers = sdkActions().writers.filter((w) => w.type === undefined || allowed.has(w.type));
  const tagged = [...new Set([...set.update, ...set.delete, ...writers.filter((w) => !w.untagged).map((w) => w.action)])]
    .filter((a) => !CLOUD_CONTROL_WRITE.includes(a) && !isGrant(a))
    .sort();
  const statement = (actions: string[], conditions?: Record<string, unknown>) =>
    new iam.PolicyStatement({ actions, resources: ['*'], conditions });
  const out = [
    statement(CLOUD_CONTROL_WRITE),
    statement(tagged, { StringLike: { [STACK_NAME_TAG]: scope.stacks.length > 0 ? scope.stacks : ['*'] } }),
  ];
  // Actions IAM cannot match a resource tag on cannot carry the condition.
  const untaggedWriters = writers.filter((w) => w.untagged).map((w) => w.action);
  const untagged = [...new Set([...set.untagged, ...set.deleteUntagged, ...untaggedWriters])]
    .filter((a) => !isGrant(a) && !tagged.includes(a))
    .sort();
  if (untagged.length > 0) out.push(statement(untagged));
  const grants = writePatterns(set).filter(isGrant);
  if (grants.length > 0) out.push(statement(grants, { Bool: { 'kms:GrantIsForAWSResource': 'true' } }));
  if (scope.passRoles.length > 0) {
    out.push(new iam.PolicyStatement({ actions: ['iam:PassRole'], resources: scope.passRoles }));
  }
  return out;
}

/** Whether an IAM action pattern matches an action (IAM wildcards, case-insensitive). */
function wildcardMatches(pattern: string, action: string): boolean {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i').test(action);
}

/** Realdrift's own IAM resources, which no function may change. */
export interface OwnIam {
  readonly roleArns: string[];
  readonly policyArns: string[];
}

const ROLE_WRITES = [
  'iam:AttachRolePolicy',
  'iam:DeleteRole',
  'iam:DeleteRolePermissionsBoundary',
  'iam:DeleteRolePolicy',
  'iam:DetachRolePolicy',
  'iam:PutRolePermissionsBoundary',
  'iam:PutRolePolicy',
  'iam:TagRole',
  'iam:UntagRole',
  'iam:UpdateAssumeRolePolicy',
  'iam:UpdateRole',
  'iam:UpdateRoleDescription',
];
const POLICY_WRITES = [
  'iam:CreatePolicyVersion',
  'iam:DeletePolicy',
  'iam:DeletePolicyVersion',
  'iam:SetDefaultPolicyVersion',
  'iam:TagPolicy',
  'iam:UntagPolicy',
];

/** Explicit denies: no function changes realdrift's roles or the policies attached to them. */
export function denyOwnIamStatements(own: OwnIam): iam.PolicyStatement[] {
  const out = [new iam.PolicyStatement({ effect: iam.Effect.DENY, actions: ROLE_WRITES, resources: own.roleArns })];
  if (own.policyArns.length > 0) {
    out.push(new iam.PolicyStatement({ effect: iam.Effect.DENY, actions: POLICY_WRITES, resources: own.policyArns }));
  }
  return out;
}

/** realdrift's own data a function legitimately reads. */
export interface OwnData {
  /** ARN pattern of the realdrift bucket's objects. */
  readonly bucketObjects: string;
  /** ARN pattern of the hub's baselines a member reads, when they live in another bucket. */
  readonly baselineObjects?: string;
  /** The Slack secret's ARN (pattern), when the function reads it. */
  readonly slackSecretArn?: string;
}

/**
 * Explicit denies of the plainest data-plane reads outside realdrift's own
 * resources: a later edit that widens a grant still cannot read object
 * contents, secret values, parameter values or table items.
 */
export function denyDataPlaneStatements(own: OwnData): iam.PolicyStatement[] {
  const deny = (props: Omit<iam.PolicyStatementProps, 'effect'>) =>
    new iam.PolicyStatement({ effect: iam.Effect.DENY, ...props });
  return [
    deny({ actions: ['s3:GetObject', 's3:GetObjectVersion'], notResources: [own.bucketObjects, ...(own.baselineObjects ? [own.baselineObjects] : [])] }),
    own.slackSecretArn
      ? deny({ actions: ['secretsmanager:GetSecretValue'], notResources: [own.slackSecretArn] })
      : deny({ actions: ['secretsmanager:GetSecretValue'], resources: ['*'] }),
    deny({
      actions: [
        'ssm:GetParameter',
        'ssm:GetParameters',
        'ssm:GetParametersByPath',
        'ssm:GetParameterHistory',
        'dynamodb:GetItem',
        'dynamodb:BatchGetItem',
        'dynamodb:Query',
        'dynamodb:Scan',
        'dynamodb:PartiQLSelect',
      ],
      resources: ['*'],
    }),
    ...denySensitiveReadStatements(),
  ];
}

/** Explicit denies of the secret and personal-data reads data/sensitive-reads.json names. */
export function denySensitiveReadStatements(): iam.PolicyStatement[] {
  const { denied } = sensitiveReads();
  const everywhere = denied.filter((d) => !d.resource).map((d) => d.action);
  const out = [new iam.PolicyStatement({ effect: iam.Effect.DENY, actions: everywhere, resources: ['*'] })];
  for (const d of denied.filter((x) => x.resource)) {
    const resource = d.resource!.replace(/^arn:aws:/, `arn:${Aws.PARTITION}:`);
    out.push(new iam.PolicyStatement({ effect: iam.Effect.DENY, actions: [d.action], resources: [resource] }));
  }
  return out;
}
