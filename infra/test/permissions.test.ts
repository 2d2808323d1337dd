// Point 6 of the deploy issue: scan and on-change are read-only outside their
// own resources, revert alone writes, nobody edits realdrift's own IAM, data
// planes stay out of reach, and every policy fits IAM's size limits.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IamCatalogue, READ_LEVELS, actionId, wildcardRegExp } from '../tools/iam-catalogue';
import { dataPlaneActions, readPermissions, sdkActions, writePatternsFor } from '../lib/permission-data';
import { DEFAULT_REVERT_TYPES } from '../lib/config';
import { CLOUD_CONTROL_WRITE } from '../lib/permissions';
import { Allowance, Located, Statement, readOnlyViolations, statementsOf } from './iam-walk';
import { CfnTemplate, Synth, logicalId, resourcesOfType, synth } from './helpers';

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

  it('scan sends to its own work queue only; on-change sends nowhere', () => {
    const scan = allowedActions(statementsOf(s.json, roleId(s.json, 'Scan')));
    const onChange = allowedActions(statementsOf(s.json, roleId(s.json, 'OnChange')));
    assert.ok(scan.has('sqs:SendMessage'));
    assert.ok(!onChange.has('sqs:SendMessage'));
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
    const policies = resourcesOfType(s.json, 'AWS::IAM::ManagedPolicy');
    assert.equal(policies.length, data.chunks.length);
    for (const [id, p] of policies) {
      const size = JSON.stringify(p.Properties.PolicyDocument).length;
      assert.ok(size <= 6144, `${id} is ${size} characters`);
    }
    for (const name of ['Scan', 'OnChange', 'Revert'] as const) {
      const role = s.json.Resources[roleId(s.json, name)];
      const attached = list(role.Properties.ManagedPolicyArns).map((a: any) => a.Ref);
      assert.deepEqual(attached.sort(), policies.map(([id]) => id).sort());
      assert.ok(attached.length <= 10, `${name} has ${attached.length} managed policies (IAM default quota 10)`);
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
  it('alone holds Cloud Control write and the update/delete handler actions of revertTypes', () => {
    const s = synth();
    const statements = statementsOf(s.json, roleId(s.json, 'Revert'));
    const revert = allowedActions(statements);
    for (const a of [...CLOUD_CONTROL_WRITE, ...writePatternsFor(DEFAULT_REVERT_TYPES)]) assert.ok(revert.has(a), `revert lacks ${a}`);
    // What revert may do on any resource (its own bucket reads are granted on the bucket alone).
    const anywhere = allows(statements)
      .filter((st) => list(st.Resource).includes('*'))
      .flatMap((st) => list(st.Action));
    const grants = (a: string) => anywhere.some((p) => wildcardRegExp(p).test(a));
    for (const a of ['s3:PutBucketPolicy', 'sqs:SetQueueAttributes', 'iam:PutRolePolicy', 'lambda:UpdateFunctionConfiguration']) {
      assert.ok(grants(a), `revert cannot ${a}`);
    }
    assert.ok(!grants('iam:PassRole'), 'no PassRole unless revertPassRoles lists roles');
    for (const a of ['s3:PutObject', 's3:GetObject', 'dynamodb:PutItem', 'dynamodb:GetItem', 'kms:Decrypt']) {
      assert.ok(!grants(a), `revert can ${a} (data plane)`);
    }
    for (const name of ['Scan', 'OnChange'] as const) {
      const granted = allowedActions(statementsOf(s.json, roleId(s.json, name)));
      for (const a of CLOUD_CONTROL_WRITE.filter((x) => x !== 'cloudformation:GetResourceRequestStatus')) {
        assert.ok(!granted.has(a), `${name} has ${a}`);
      }
    }
  });

  it('writes only the types context revertTypes lists', () => {
    const s = synth({ revertTypes: ['AWS::SQS::Queue'] });
    const revert = [...allowedActions(statementsOf(s.json, roleId(s.json, 'Revert')))];
    const grants = (a: string) => revert.some((p) => wildcardRegExp(p).test(a));
    assert.ok(grants('sqs:SetQueueAttributes'));
    assert.ok(!grants('s3:PutBucketPolicy'));
  });

  it('refuses an unknown type and a type list too large for its inline policy', () => {
    assert.throws(() => synth({ revertTypes: ['AWS::Nope::Thing'] }), /revertTypes: no update\/delete handler permissions known for AWS::Nope::Thing/);
    assert.throws(
      () => synth({ revertTypes: ['AWS::SecurityLake::DataLake', 'AWS::SCN::Instance', 'AWS::ControlTower::LandingZone', 'AWS::MediaLive::SignalMap', 'AWS::SSMQuickSetup::ConfigurationManager', 'AWS::BedrockAgentCore::GatewayTarget', 'AWS::Lex::Bot', 'AWS::ControlTower::EnabledBaseline'] }),
      /more than fits revert's inline policy/,
    );
  });

  it('passes only the roles context revertPassRoles lists', () => {
    const s = synth({ revertPassRoles: ['arn:aws:iam::123456789012:role/app-*'] });
    const pass = allows(statementsOf(s.json, roleId(s.json, 'Revert'))).filter((st) => list(st.Action).includes('iam:PassRole'));
    assert.deepEqual(pass.map((st) => st.Resource), ['arn:aws:iam::123456789012:role/app-*']);
  });

  it('takes the permissions boundary from context (name or ARN), and only revert does', () => {
    for (const [value, expected] of [
      ['arn:aws:iam::123456789012:policy/RealdriftRevertBoundary', 'arn:aws:iam::123456789012:policy/RealdriftRevertBoundary'],
      ['RealdriftRevertBoundary', ':policy/RealdriftRevertBoundary'],
    ]) {
      const s = synth({ revertPermissionsBoundary: value });
      const boundary = JSON.stringify(s.json.Resources[roleId(s.json, 'Revert')].Properties.PermissionsBoundary);
      assert.ok(boundary.includes(expected), boundary);
      for (const name of ['Scan', 'OnChange'] as const) {
        assert.equal(s.json.Resources[roleId(s.json, name)].Properties.PermissionsBoundary, undefined);
      }
      // The boundary policy itself is protected like realdrift's own policies.
      const denies = statementsOf(s.json, roleId(s.json, 'Revert')).filter((l) => l.statement.Effect === 'Deny');
      assert.ok(denies.some((d) => list(d.statement.Action).includes('iam:CreatePolicyVersion') && JSON.stringify(d.statement.Resource).includes('RealdriftRevertBoundary')));
    }
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
