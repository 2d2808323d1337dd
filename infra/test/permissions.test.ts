// Point 6 of the deploy issue: scan and on-change are read-only outside their
// own resources, revert alone writes, nobody edits realdrift's own IAM, data
// planes stay out of reach, and every policy fits IAM's size limits.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IamCatalogue, READ_LEVELS, actionId, wildcardRegExp } from '../tools/iam-catalogue';
import * as fs from 'fs';
import * as path from 'path';
import { dataPlaneActions, readPermissions, sdkActions, sensitiveReads, writeSetFor } from '../lib/permission-data';
import { DEFAULT_REVERT_TYPES } from '../lib/config';
import { CLOUD_CONTROL_WRITE } from '../lib/permissions';
import { Allowance, Located, Statement, readOnlyViolations, statementsOf } from './iam-walk';
import { CfnTemplate, REPO, Synth, logicalId, resourcesOfType, synth } from './helpers';

const catalogue = new IamCatalogue();
const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function roleId(json: CfnTemplate, fn: 'Scan' | 'OnChange' | 'Revert'): string {
  return logicalId(json, 'AWS::IAM::Role', `${fn}Role`);
}

/** What scan / on-change own, as synthesized values. */
function allowance(s: Synth, fn: 'scan' | 'onChange'): Allowance {
  const { stack } = s;
  const r = (v: unknown) => stack.resolve(v);
  const queue = fn === 'scan' ? stack.scanQueue.queue : stack.changeQueue.queue;
  const own = fn === 'scan' ? stack.scan : stack.onChange;
  const bucket = stack.storage.bucket;
  return {
    writable: [
      ...['state/*', 'index/*', 'cache/*'].map((p) => r(bucket.arnForObjects(p))),
      r(queue.queueArn),
      // Scan's failed asynchronous invokes go to the failed-trigger queue.
      ...(fn === 'scan' ? [r(stack.failures.queue.queueArn)] : []),
      r(stack.alerts.topic.topicArn),
      r(stack.alerts.key.keyArn),
      r(own.logGroup.logGroupArn),
    ],
    dataReadable: [
      ...['baselines/*', 'state/*', 'index/*', 'cache/*'].map((p) => r(bucket.arnForObjects(p))),
      r(stack.alerts.slackSecretPolicyArn),
      r(queue.queueArn),
    ],
  };
}

function allows(statements: Located[]): Statement[] {
  return statements.map((l) => l.statement).filter((s) => s.Effect === 'Allow');
}

function allowedActions(statements: Located[]): Set<string> {
  return new Set(allows(statements).flatMap((s) => list(s.Action)));
}

describe('scan and on-change are read-only outside their own resources', () => {
  const s = synth();
  for (const [fn, name] of [
    ['scan', 'Scan'],
    ['onChange', 'OnChange'],
  ] as const) {
    it(`${name}: every allowed write is on its own prefixes, queue, topic (and key) or log group`, () => {
      const statements = statementsOf(s.json, roleId(s.json, name));
      assert.ok(statements.length > 10, 'the walk found the role policies');
      assert.deepEqual(readOnlyViolations(catalogue, statements, allowance(s, fn)), []);
    });
  }

  it('the walk catches a write outside the own prefixes, a wildcard, an unknown action and NotAction', () => {
    const statements = statementsOf(s.json, roleId(s.json, 'Scan'));
    const bucketArn = s.stack.resolve(s.stack.storage.bucket.arnForObjects('baselines/*'));
    const bad: Located[] = [
      { source: 'test', statement: { Effect: 'Allow', Action: 's3:PutObject', Resource: bucketArn } },
      { source: 'test', statement: { Effect: 'Allow', Action: 'ec2:*', Resource: '*' } },
      { source: 'test', statement: { Effect: 'Allow', Action: 'ec2:NoSuchCall', Resource: '*' } },
      { source: 'test', statement: { Effect: 'Allow', NotAction: 'iam:*', Resource: '*' } },
      { source: 'test', statement: { Effect: 'Allow', Action: 'ssm:GetParameter', Resource: '*' } },
    ];
    const found = readOnlyViolations(catalogue, [...statements, ...bad], allowance(s, 'scan'));
    assert.ok(found.some((v) => v.includes('s3:PutObject') && v.includes('baselines')), found.join('\n'));
    assert.ok(found.some((v) => v.includes('ec2:* grants')));
    assert.ok(found.some((v) => v.includes('ec2:NoSuchCall is not a known IAM action')));
    assert.ok(found.some((v) => v.includes('NotAction')));
    assert.ok(found.some((v) => v.includes('data read ssm:GetParameter')));
  });

  it('scan sends to its own work queue only; revert to that queue only (the re-check after an apply); on-change to its own change queue only (a storm flush)', () => {
    const scan = allowedActions(statementsOf(s.json, roleId(s.json, 'Scan')));
    assert.ok(scan.has('sqs:SendMessage'));
    const sendsOf = (name: 'Revert' | 'OnChange') => allows(statementsOf(s.json, roleId(s.json, name))).filter((st) => list(st.Action).some((a) => /^sqs:(SendMessage|\*|Send\*)/.test(a as string)));
    const work = s.stack.resolve(s.stack.scanQueue.queue.queueArn);
    const changes = s.stack.resolve(s.stack.changeQueue.queue.queueArn);
    for (const [name, queue] of [['Revert', work], ['OnChange', changes]] as const) {
      const sends = sendsOf(name);
      assert.equal(sends.length, 1, `${name}: ${JSON.stringify(sends)}`);
      assert.deepEqual(list(sends[0].Resource), [queue], name);
    }
  });

  it('each function reads every SDK call of data/sdk-actions.json', () => {
    const wanted = sdkActions().readers.map((r) => r.action);
    for (const name of ['Scan', 'OnChange', 'Revert'] as const) {
      const granted = allowedActions(statementsOf(s.json, roleId(s.json, name)));
      for (const a of wanted) assert.ok(granted.has(a), `${name} lacks ${a}`);
    }
  });
});

describe('the generated read policies', () => {
  const s = synth();
  const data = readPermissions();
  const denied = dataPlaneActions().map((d) => wildcardRegExp(d.pattern));

  it('match only Read/List actions, none of them data-plane, and exactly the generated set', () => {
    const expanded = new Set<string>();
    for (const pattern of data.chunks.flat()) {
      const matches = catalogue.expand(pattern);
      assert.ok(matches.length > 0, `${pattern} matches nothing`);
      for (const a of matches) {
        assert.ok(READ_LEVELS.has(a.level), `${pattern} matches ${actionId(a)} (${a.level})`);
        assert.ok(!denied.some((re) => re.test(actionId(a))), `${pattern} matches data-plane ${actionId(a)}`);
        expanded.add(actionId(a));
      }
    }
    assert.equal(expanded.size, data.actionCount);
  });

  it('are customer managed policies within 6,144 characters, attached to all three roles', () => {
    const policies = resourcesOfType(s.json, 'AWS::IAM::ManagedPolicy').filter(([id]) => id.startsWith('ReadPolicies'));
    assert.equal(policies.length, data.chunks.length);
    for (const [id, p] of policies) {
      const size = JSON.stringify(p.Properties.PolicyDocument).length;
      assert.ok(size <= 6144, `${id} is ${size} characters`);
    }
    for (const name of ['Scan', 'OnChange', 'Revert'] as const) {
      const role = s.json.Resources[roleId(s.json, name)];
      const attached = list(role.Properties.ManagedPolicyArns).map((a: any) => a.Ref);
      assert.deepEqual(attached.sort(), policies.map(([id]) => id).sort());
      // The revert guard is attached from the policy side (Roles), and counts too.
      assert.ok(attached.length + (name === 'Revert' ? 1 : 0) <= 10, `${name} has ${attached.length} managed policies (IAM default quota 10)`);
    }
  });

  it('hold no Pass* action (cleanrooms:PassMembership is Read-level in IAM, but hands a resource over)', () => {
    const passes = data.chunks.flat().flatMap((p) => catalogue.expand(p)).filter((a) => /^Pass/.test(a.name));
    assert.deepEqual(passes.map(actionId), []);
  });

  it('grant no secret or personal-data read data/sensitive-reads.json denies; each kept one is documented', () => {
    const patterns = data.chunks.flat().map((p) => wildcardRegExp(p));
    const granted = (a: string) => patterns.some((re) => re.test(a));
    const { denied, kept } = sensitiveReads();
    for (const d of denied.filter((x) => !x.resource)) assert.ok(!granted(d.action), `${d.action} is granted`);
    const doc = fs.readFileSync(path.join(REPO, 'docs', 'deploy.md'), 'utf8');
    for (const k of kept) {
      assert.ok(granted(k.action), `${k.action} is listed as kept but not granted`);
      for (const t of k.types) assert.ok(doc.includes(`| \`${k.action}\` |`) && doc.includes(t), `docs/deploy.md does not list ${k.action} (${t})`);
    }
  });

  it('include the read handler actions of common types and none of the data-plane ones', () => {
    const patterns = data.chunks.flat().map((p) => wildcardRegExp(p));
    const granted = (a: string) => patterns.some((re) => re.test(a));
    for (const a of ['s3:GetBucketVersioning', 'sqs:GetQueueAttributes', 'lambda:GetFunction', 'iam:GetRole', 'ec2:DescribeVpcs']) {
      assert.ok(granted(a), `${a} missing`);
    }
    for (const a of ['s3:GetObject', 'secretsmanager:GetSecretValue', 'ssm:GetParameter', 'dynamodb:GetItem', 'kms:Decrypt']) {
      assert.ok(!granted(a), `${a} granted`);
    }
  });
});

describe('revert', () => {
  const s = synth();
  const statements = statementsOf(s.json, roleId(s.json, 'Revert'));
  /** The action patterns of revert's Allow statements, with the statement each came from. */
  const allowed = (st: Located[]) => allows(st).flatMap((x) => list(x.Action).map((a) => ({ a: a as string, st: x })));
  const grantsIn = (st: Located[], action: string) => allowed(st).filter(({ a }) => wildcardRegExp(a).test(action));

  it('holds Cloud Control write and the update handler actions of revertTypes', () => {
    const revert = allowedActions(statements);
    const set = writeSetFor(DEFAULT_REVERT_TYPES, 'revertTypes');
    for (const a of [...CLOUD_CONTROL_WRITE, ...set.update, ...set.untagged].filter((x) => !/^kms:Create/i.test(x))) {
      assert.ok(revert.has(a), `revert lacks ${a}`);
    }
    for (const a of ['s3:PutBucketPolicy', 'sqs:SetQueueAttributes', 'lambda:UpdateFunctionConfiguration']) {
      assert.ok(grantsIn(statements, a).length > 0, `revert cannot ${a}`);
    }
    for (const a of ['iam:PassRole', 's3:PutObject', 's3:GetObject', 'dynamodb:PutItem', 'dynamodb:GetItem', 'kms:Decrypt']) {
      assert.ok(grantsIn(statements, a).every(({ st }) => !list(st.Resource).includes('*')), `revert can ${a} anywhere`);
    }
    for (const name of ['Scan', 'OnChange'] as const) {
      const granted = allowedActions(statementsOf(s.json, roleId(s.json, name)));
      for (const a of CLOUD_CONTROL_WRITE.filter((x) => x !== 'cloudformation:GetResourceRequestStatus')) {
        assert.ok(!granted.has(a), `${name} has ${a}`);
      }
    }
  });

  it('deletes no top-level resource: delete handler actions only for out-of-band child types', () => {
    for (const a of ['s3:DeleteBucket', 'sqs:DeleteQueue', 'sns:DeleteTopic', 'lambda:DeleteFunction', 'dynamodb:DeleteTable', 'logs:DeleteLogGroup', 'events:DeleteRule']) {
      assert.deepEqual(grantsIn(statements, a).map(({ a: p }) => p), [], `revert can ${a}`);
    }
    for (const a of ['s3:DeleteBucketPolicy', 'lambda:RemovePermission', 'sns:Unsubscribe']) {
      assert.ok(grantsIn(statements, a).length > 0, `revert cannot delete the child: ${a}`);
    }
  });

  it('writes IAM only for the types context revertIamTypes opts into, and refuses IAM types in revertTypes', () => {
    for (const a of ['iam:PutRolePolicy', 'iam:UpdateAssumeRolePolicy', 'iam:AttachRolePolicy', 'iam:DeleteRolePolicy', 'iam:PutUserPolicy']) {
      assert.deepEqual(grantsIn(statements, a).map(({ a: p }) => p), [], `revert can ${a} by default`);
    }
    const opted = synth({ revertIamTypes: ['AWS::IAM::Role'] });
    const optedStatements = statementsOf(opted.json, roleId(opted.json, 'Revert'));
    assert.ok(grantsIn(optedStatements, 'iam:PutRolePolicy').length > 0);
    assert.deepEqual(grantsIn(optedStatements, 'iam:DeleteRole').map(({ a }) => a), [], 'a role itself is never deleted');
    assert.throws(() => synth({ revertTypes: ['AWS::IAM::Role'] }), /context revertTypes: AWS::IAM::Role would let revert rewrite IAM; IAM writes are opt-in/);
    assert.throws(() => synth({ revertIamTypes: ['AWS::SQS::Queue'] }), /context revertIamTypes/);
  });

  it('updates only resources tagged with a watched stack name, where IAM can match the tag', () => {
    const watched = synth({ stacks: ['Prod*', 'Api'] });
    const st = statementsOf(watched.json, roleId(watched.json, 'Revert'));
    const [{ st: update }] = grantsIn(st, 'sqs:SetQueueAttributes');
    assert.deepEqual(update.Condition, { StringLike: { 'aws:ResourceTag/aws:cloudformation:stack-name': ['Prod*', 'Api'] } });
    const [{ st: any }] = grantsIn(statements, 'lambda:UpdateFunctionConfiguration');
    assert.deepEqual(any.Condition, { StringLike: { 'aws:ResourceTag/aws:cloudformation:stack-name': ['*'] } });
    // Every unconditioned write action is one IAM cannot match a resource tag on, or a child's delete.
    const set = writeSetFor(DEFAULT_REVERT_TYPES, 'revertTypes');
    const free = allows(statements).filter((x) => list(x.Resource).includes('*') && !x.Condition);
    const writes = (a: string) => catalogue.expand(a).some((x) => !READ_LEVELS.has(x.level));
    const freeActions = free.flatMap((x) => list(x.Action)).filter((a) => !CLOUD_CONTROL_WRITE.includes(a) && writes(a));
    assert.ok(freeActions.length > 0, 'the check sees the unconditioned writes');
    assert.deepEqual(freeActions.filter((a) => !set.untagged.includes(a) && !set.delete.includes(a)), []);
  });

  it('creates KMS grants only for AWS resources', () => {
    const table = synth({ revertTypes: ['AWS::DynamoDB::Table'] });
    const grants = grantsIn(statementsOf(table.json, roleId(table.json, 'Revert')), 'kms:CreateGrant');
    assert.ok(grants.length > 0, 'DynamoDB table updates need kms:CreateGrant');
    for (const { st } of grants) assert.deepEqual(st.Condition, { Bool: { 'kms:GrantIsForAWSResource': 'true' } });
  });

  it('writes only the types context revertTypes lists', () => {
    const one = synth({ revertTypes: ['AWS::SQS::Queue'] });
    const st = statementsOf(one.json, roleId(one.json, 'Revert'));
    assert.ok(grantsIn(st, 'sqs:SetQueueAttributes').length > 0);
    assert.deepEqual(grantsIn(st, 's3:PutBucketPolicy'), []);
  });

  it('grants a service writer\'s action only when revertTypes lists its type', () => {
    for (const a of ['codebuild:UpdateProject', 'ec2:ReplaceNetworkAclEntry']) {
      assert.deepEqual(grantsIn(statements, a).map(({ a: p }) => p), [], `revert can ${a} by default`);
    }
    const opted = synth({ revertTypes: [...DEFAULT_REVERT_TYPES, 'AWS::CodeBuild::Project'] });
    const st = statementsOf(opted.json, roleId(opted.json, 'Revert'));
    const [{ st: update }] = grantsIn(st, 'codebuild:UpdateProject');
    assert.deepEqual(update.Condition, { StringLike: { 'aws:ResourceTag/aws:cloudformation:stack-name': ['*'] } });
    assert.deepEqual(grantsIn(st, 'ec2:ReplaceNetworkAclEntry'), [], 'one writer\'s type does not grant another\'s');
  });

  it('grants the access key writer only with revertIamTypes, tagged, and widens the boundary to it', () => {
    assert.deepEqual(grantsIn(statements, 'iam:UpdateAccessKey').map(({ a: p }) => p), [], 'revert can iam:UpdateAccessKey by default');
    assert.throws(() => synth({ revertTypes: ['AWS::IAM::AccessKey'] }), /IAM writes are opt-in/);
    const opted = synth({ revertIamTypes: ['AWS::IAM::AccessKey'] });
    const st = statementsOf(opted.json, roleId(opted.json, 'Revert'));
    const [{ st: update }] = grantsIn(st, 'iam:UpdateAccessKey');
    assert.deepEqual(update.Condition, { StringLike: { 'aws:ResourceTag/aws:cloudformation:stack-name': ['*'] } });
    assert.deepEqual(grantsIn(st, 'iam:PutUserPolicy'), [], 'the key\'s opt-in grants no other IAM write');
    const boundary = opted.json.Resources[logicalId(opted.json, 'AWS::IAM::ManagedPolicy', 'RevertBoundary')].Properties.PolicyDocument
      .Statement as Statement[];
    assert.ok(boundary.some((d) => d.Effect === 'Allow' && list(d.Action).includes('iam:UpdateAccessKey')), JSON.stringify(boundary));
  });

  it('grants an untagged service writer\'s action without the stack-tag condition, only for its listed type', () => {
    for (const a of ['route53:ChangeResourceRecordSets', 'dax:UpdateCluster', 'lakeformation:UpdateResource', 'dms:ModifyReplicationInstance', 'elasticloadbalancing:AddListenerCertificates']) {
      assert.deepEqual(grantsIn(statements, a).map(({ a: p }) => p), [], `revert can ${a} by default`);
    }
    const opted = synth({ revertTypes: [...DEFAULT_REVERT_TYPES, 'AWS::Route53::RecordSetGroup', 'AWS::DMS::ReplicationInstance'] });
    const st = statementsOf(opted.json, roleId(opted.json, 'Revert'));
    const [{ st: change }] = grantsIn(st, 'route53:ChangeResourceRecordSets');
    assert.equal(change.Condition, undefined);
    const [{ st: modify }] = grantsIn(st, 'dms:ModifyReplicationInstance');
    assert.deepEqual(modify.Condition, { StringLike: { 'aws:ResourceTag/aws:cloudformation:stack-name': ['*'] } });
    assert.deepEqual(grantsIn(st, 'dax:UpdateCluster'), [], 'one writer\'s type does not grant another\'s');
  });

  it('grants the Client VPN writer under the stack tag and the anomaly detector writer on "*" only when opted in', () => {
    for (const a of ['ec2:ModifyClientVpnEndpoint', 'cloudwatch:PutAnomalyDetector']) {
      assert.deepEqual(grantsIn(statements, a).map(({ a: p }) => p), [], `revert can ${a} by default`);
    }
    const opted = synth({
      revertTypes: [...DEFAULT_REVERT_TYPES, 'AWS::EC2::ClientVpnEndpoint', 'AWS::CloudWatch::AnomalyDetector'],
    });
    const st = statementsOf(opted.json, roleId(opted.json, 'Revert'));
    const [{ st: modify }] = grantsIn(st, 'ec2:ModifyClientVpnEndpoint');
    assert.deepEqual(modify.Condition, { StringLike: { 'aws:ResourceTag/aws:cloudformation:stack-name': ['*'] } });
    // A detector has no ARN or tags: a tag condition would never match.
    const [{ st: put }] = grantsIn(st, 'cloudwatch:PutAnomalyDetector');
    assert.equal(put.Condition, undefined);
    assert.deepEqual(grantsIn(st, 'codebuild:UpdateProject'), [], 'one writer\'s type does not grant another\'s');
  });

  it('grants the DocumentDB writers\' modify calls only for the types revertTypes lists', () => {
    for (const a of ['rds:ModifyDBCluster', 'rds:ModifyDBInstance']) {
      assert.deepEqual(grantsIn(statements, a).map(({ a: p }) => p), [], `revert can ${a} by default`);
    }
    const opted = synth({ revertTypes: [...DEFAULT_REVERT_TYPES, 'AWS::DocDB::DBCluster'] });
    const st = statementsOf(opted.json, roleId(opted.json, 'Revert'));
    const [{ st: modify }] = grantsIn(st, 'rds:ModifyDBCluster');
    assert.deepEqual(modify.Condition, { StringLike: { 'aws:ResourceTag/aws:cloudformation:stack-name': ['*'] } });
    assert.deepEqual(grantsIn(st, 'rds:ModifyDBInstance'), [], 'the cluster type does not grant the instance call');
  });

  it('refuses an unknown type and a type list too large for its inline policy', () => {
    assert.throws(() => synth({ revertTypes: ['AWS::Nope::Thing'] }), /revertTypes: no update\/delete handler permissions known for AWS::Nope::Thing/);
    assert.throws(
      () => synth({ revertTypes: ['AWS::SecurityLake::DataLake', 'AWS::SCN::Instance', 'AWS::ControlTower::LandingZone', 'AWS::MediaLive::SignalMap', 'AWS::SSMQuickSetup::ConfigurationManager', 'AWS::BedrockAgentCore::GatewayTarget', 'AWS::Lex::Bot', 'AWS::ControlTower::EnabledBaseline'] }),
      /more than fits revert's inline policy/,
    );
  });

  it('passes only the roles context revertPassRoles lists', () => {
    const p = synth({ revertPassRoles: ['arn:aws:iam::123456789012:role/app-*'] });
    const pass = allows(statementsOf(p.json, roleId(p.json, 'Revert'))).filter((st) => list(st.Action).includes('iam:PassRole'));
    assert.deepEqual(pass.map((st) => st.Resource), ['arn:aws:iam::123456789012:role/app-*']);
  });

  it('carries the shipped permissions boundary by default, or the one context names; only revert does', () => {
    const role = (x: Synth, n: string) => x.json.Resources[roleId(x.json, n as 'Revert')].Properties;
    const shipped = logicalId(s.json, 'AWS::IAM::ManagedPolicy', 'RevertBoundary');
    assert.deepEqual(role(s, 'Revert').PermissionsBoundary, { Ref: shipped });
    const doc = s.json.Resources[shipped].Properties.PolicyDocument.Statement as Statement[];
    const allow = doc.find((d) => d.Effect === 'Allow' && d.NotAction)!;
    assert.deepEqual(list(allow.NotAction), ['iam:*', 'sts:*', 'organizations:*', 'account:*']);
    assert.ok(!doc.some((d) => d.Effect === 'Allow' && list(d.Action).some((a) => /^iam:(Put|Update|Attach|Delete|Create)/.test(a))), 'no IAM write in the default boundary');
    assert.ok(doc.some((d) => d.Effect === 'Deny' && JSON.stringify(d.Condition).includes('aws:cloudformation:stack-name')));
    const opted = synth({ revertIamTypes: ['AWS::IAM::Role'] });
    const optedDoc = opted.json.Resources[logicalId(opted.json, 'AWS::IAM::ManagedPolicy', 'RevertBoundary')].Properties.PolicyDocument.Statement as Statement[];
    assert.ok(optedDoc.some((d) => d.Effect === 'Allow' && list(d.Action).some((a) => wildcardRegExp(a).test('iam:PutRolePolicy'))));
    for (const [value, expected] of [
      ['arn:aws:iam::123456789012:policy/RealdriftRevertBoundary', 'arn:aws:iam::123456789012:policy/RealdriftRevertBoundary'],
      ['RealdriftRevertBoundary', ':policy/RealdriftRevertBoundary'],
    ]) {
      const b = synth({ revertPermissionsBoundary: value });
      const boundary = JSON.stringify(role(b, 'Revert').PermissionsBoundary);
      assert.ok(boundary.includes(expected), boundary);
      for (const name of ['Scan', 'OnChange'] as const) assert.equal(role(b, name).PermissionsBoundary, undefined);
      // The boundary policy itself is protected like realdrift's own policies.
      const denies = statementsOf(b.json, roleId(b.json, 'Revert')).filter((l) => l.statement.Effect === 'Deny');
      assert.ok(denies.some((d) => list(d.statement.Action).includes('iam:CreatePolicyVersion') && JSON.stringify(d.statement.Resource).includes('RealdriftRevertBoundary')));
    }
  });

  it("is denied everything but reading its bucket, publishing and logging on every realdrift resource", () => {
    const guardId = logicalId(s.json, 'AWS::IAM::ManagedPolicy', 'RevertGuard');
    const guard = s.json.Resources[guardId].Properties;
    assert.deepEqual(guard.Roles, [{ Ref: roleId(s.json, 'Revert') }]);
    const [deny] = guard.PolicyDocument.Statement as Statement[];
    assert.equal(deny.Effect, 'Deny');
    assert.ok(!list(deny.NotAction).some((a) => /(Put|Delete|Update|Create|Set|Tag|Untag|Add|Remove)[A-Z]/.test(a.split(':')[1]) && !['logs:CreateLogStream', 'logs:PutLogEvents'].includes(a)));
    const refs = JSON.stringify(deny.Resource);
    const types = ['AWS::Lambda::Function', 'AWS::IAM::Role', 'AWS::Events::Rule', 'AWS::SQS::Queue', 'AWS::SNS::Topic', 'AWS::S3::Bucket', 'AWS::KMS::Key', 'AWS::Logs::LogGroup', 'AWS::SecretsManager::Secret'];
    for (const type of types) {
      const ids = resourcesOfType(s.json, type).map(([id]) => id);
      assert.ok(ids.length > 0, type);
      for (const id of ids) assert.ok(refs.includes(`"${id}"`), `the guard does not cover ${type} ${id}`);
    }
  });

  it('is invokable only by context revertInvokers, and by nobody when none is listed', () => {
    const fn = logicalId(s.json, 'AWS::Lambda::Function', 'RevertFunction');
    const policyOf = (x: Synth) => {
      const [[, p]] = resourcesOfType(x.json, 'AWS::Lambda::ResourcePolicy');
      assert.deepEqual(p.Properties.ResourceArn, { 'Fn::GetAtt': [fn, 'Arn'] });
      return p.Properties.PolicyDocument.Statement as any[];
    };
    assert.deepEqual(policyOf(s).map((st) => [st.Effect, st.Principal, st.Action, st.Condition]), [['Deny', '*', 'lambda:InvokeFunction', undefined]]);
    const invokers = ['arn:aws:iam::123456789012:role/platform-oncall', 'arn:aws:iam::123456789012:role/ci-*'];
    const withInvokers = policyOf(synth({ revertInvokers: invokers }));
    assert.deepEqual(withInvokers[0], { Sid: 'RevertInvokers', Effect: 'Allow', Principal: { AWS: invokers }, Action: 'lambda:InvokeFunction', Resource: { 'Fn::GetAtt': [fn, 'Arn'] } });
    assert.deepEqual(withInvokers[1].Condition, { ArnNotLike: { 'aws:PrincipalArn': invokers } });
    assert.equal(withInvokers[1].Effect, 'Deny');
    // No other resource policy statement lets anything invoke revert.
    const perms = resourcesOfType(s.json, 'AWS::Lambda::Permission').filter(([, p]) => JSON.stringify(p.Properties.FunctionName).includes(fn));
    assert.deepEqual(perms, []);
    assert.throws(() => synth({ revertInvokers: ['arn:aws:iam::123456789012:user/bob'] }), /context revertInvokers/);
  });

  it("logs every revert invoke as a CloudTrail data event when the app creates the trail", () => {
    const t = synth({ createTrail: true });
    const [[, trail]] = resourcesOfType(t.json, 'AWS::CloudTrail::Trail');
    const data = (trail.Properties.EventSelectors as any[]).find((e) => e.DataResources);
    assert.deepEqual(data, {
      DataResources: [{ Type: 'AWS::Lambda::Function', Values: [{ 'Fn::GetAtt': [logicalId(t.json, 'AWS::Lambda::Function', 'RevertFunction'), 'Arn'] }] }],
      IncludeManagementEvents: false,
      ReadWriteType: 'All',
    });
  });
});

describe('explicit denies on every function role', () => {
  const s = synth();
  const roles = ['Scan', 'OnChange', 'Revert'] as const;
  const roleRefs = roles.map((n) => s.stack.resolve(({ Scan: s.stack.scan, OnChange: s.stack.onChange, Revert: s.stack.revert })[n].role.roleArn));

  for (const name of roles) {
    it(`${name} cannot change realdrift's roles or their policies`, () => {
      const denies = statementsOf(s.json, roleId(s.json, name)).map((l) => l.statement).filter((st) => st.Effect === 'Deny');
      const roleDeny = denies.find((d) => list(d.Action).includes('iam:PutRolePolicy'));
      assert.ok(roleDeny, 'a deny of role policy writes');
      for (const a of ['iam:AttachRolePolicy', 'iam:DetachRolePolicy', 'iam:DeleteRolePolicy', 'iam:PutRolePermissionsBoundary', 'iam:DeleteRolePermissionsBoundary', 'iam:UpdateAssumeRolePolicy']) {
        assert.ok(list(roleDeny!.Action).includes(a), a);
      }
      assert.deepEqual(list(roleDeny!.Resource).map((r) => JSON.stringify(r)).sort(), roleRefs.map((r) => JSON.stringify(r)).sort());
      const policyDeny = denies.find((d) => list(d.Action).includes('iam:CreatePolicyVersion'));
      const readPolicyRefs = s.stack.readPolicies.policies.map((p) => JSON.stringify(s.stack.resolve(p.managedPolicyArn)));
      for (const p of readPolicyRefs) assert.ok(list(policyDeny!.Resource).map((r) => JSON.stringify(r)).includes(p));
    });

    it(`${name} cannot read object contents, secret or parameter values, or table items elsewhere`, () => {
      const denies = statementsOf(s.json, roleId(s.json, name)).map((l) => l.statement).filter((st) => st.Effect === 'Deny');
      const deniedActions = denies.flatMap((d) => list(d.Action));
      for (const a of ['s3:GetObject', 'secretsmanager:GetSecretValue', 'ssm:GetParameter', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Scan']) {
        assert.ok(deniedActions.includes(a), `${name} lacks a deny of ${a}`);
      }
      for (const d of sensitiveReads().denied) {
        const deny = denies.find((x) => list(x.Action).includes(d.action));
        assert.ok(deny, `${name} lacks a deny of ${d.action}`);
        if (d.resource) assert.ok(JSON.stringify(deny!.Resource).includes(d.resource.replace(/^arn:aws:/, '')), JSON.stringify(deny!.Resource));
        else assert.equal(deny!.Resource, '*');
      }
      const objects = denies.find((d) => list(d.Action).includes('s3:GetObject'))!;
      assert.deepEqual(objects.NotResource, s.stack.resolve(s.stack.storage.bucket.arnForObjects('*')));
    });
  }
});

describe('IAM size limits', () => {
  // Intrinsics become ARNs at deploy time; count each as a long ARN.
  const ARN = 'x'.repeat(110);
  const sized = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sized)
      : v && typeof v === 'object'
        ? Object.keys(v).some((k) => k === 'Ref' || k.startsWith('Fn::'))
          ? ARN
          : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sized(x)]))
        : v;

  for (const context of [{}, { revertPassRoles: ['arn:aws:iam::123456789012:role/app-*'], revertPermissionsBoundary: 'Boundary' }]) {
    it(`inline policies of each role stay under 10,240 characters (${JSON.stringify(context)})`, () => {
      const s = synth(context);
      for (const name of ['Scan', 'OnChange', 'Revert'] as const) {
        const id = roleId(s.json, name);
        const inline = resourcesOfType(s.json, 'AWS::IAM::Policy')
          .filter(([, p]) => list(p.Properties.Roles).some((r: any) => r.Ref === id))
          .reduce((n, [, p]) => n + JSON.stringify(sized(p.Properties.PolicyDocument)).length, 0);
        assert.ok(inline > 0 && inline <= 10240, `${name}: ${inline} characters`);
      }
    });
  }
});
