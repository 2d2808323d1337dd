// The Organization install: the hub's findings bus and bucket admit only the
// Organization, the member StackSet is service-managed and auto-deployed to
// the chosen OUs and Regions, and the member template reads its code from
// the regional buckets and publishes to the hub.
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { describe, it } from 'node:test';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildOrganizationApp } from '../lib/app';
import { RealdriftOrganizationStack } from '../lib/organization';
import { cdkJsonContext, resourcesOfType, stubAssets } from './helpers';

const ORG = {
  organizationId: 'o-a1b2c3d4e5',
  stackSetOrganizationalUnits: 'ou-ab12-cdefgh34,ou-ab12-ijklmn56',
  stackSetRegions: ['eu-west-1', 'us-east-1'],
  memberAssetBucketPrefix: 'acme-realdrift-assets',
  accountNames: { '111111111111': 'payments-prod' },
  region: 'eu-west-1',
};

function synthOrg(extra: Record<string, unknown> = {}): { stack: RealdriftOrganizationStack; json: any; member: any } {
  const app = new App({ context: { ...cdkJsonContext(), lambdaAssets: stubAssets(), ...ORG, ...extra } });
  const stack = buildOrganizationApp(app, { acknowledgeNag: false, defaultRegion: 'eu-west-1' })!;
  const json = Template.fromStack(stack).toJSON() as any;
  const [[, set]] = resourcesOfType(json, 'AWS::CloudFormation::StackSet');
  const member = JSON.parse(fs.readFileSync(stack.memberTemplateFile, 'utf8'));
  return { stack, json: { ...json, set }, member };
}

const memo = synthOrg();

// tests/e2e/org_baselines.rs applies this committed copy of the synthesized
// hub bucket policy in the emulator (moto has no CDK), so the proof that a
// member reads only its own baselines follows the app.
const HUB_POLICY_FIXTURE = path.join(__dirname, '..', '..', 'tests', 'fixtures', 'org', 'hub-bucket-policy.json');
// scripts/bench_hub_delivery.py builds the hub's delivery (rule, queue, event
// source) in the emulator from this committed copy of the synthesized settings.
const HUB_DELIVERY_FIXTURE = path.join(__dirname, '..', '..', 'tests', 'fixtures', 'org', 'hub-delivery.json');

describe('organization: the hub', () => {
  it('admits only principals of the Organization on the findings bus', () => {
    const [[, policy]] = resourcesOfType(memo.json, 'AWS::Events::EventBusPolicy');
    const s = policy.Properties.Statement;
    assert.equal(s.Effect, 'Allow');
    assert.deepEqual(s.Principal, { AWS: '*' });
    assert.equal(s.Action, 'events:PutEvents');
    assert.deepEqual(s.Condition, { StringEquals: { 'aws:PrincipalOrgID': 'o-a1b2c3d4e5' } });
  });

  it("lets members read only their own account's baselines and the ignore file", () => {
    const [[, policy]] = resourcesOfType(memo.json, 'AWS::S3::BucketPolicy');
    const org = policy.Properties.PolicyDocument.Statement.filter((s: any) => s.Condition?.StringEquals?.['aws:PrincipalOrgID']);
    assert.equal(org.length, 3);
    for (const s of org) assert.equal(s.Effect, 'Allow');
    const read = org.find((s: any) => s.Action === 's3:GetObject');
    const resources = JSON.stringify(read.Resource);
    assert.match(resources, /\/baselines\/\*\.\$\{aws:PrincipalAccount\}\.\*/);
    assert.match(resources, /\/baselines\/ignore\.yaml/);
    assert.doesNotMatch(resources, /state\/|index\/|cache\//);
    assert.equal(org.find((s: any) => s.Action === 's3:ListBucket').Effect, 'Allow');
  });

  it("lets members write, read and delete only their own account's status documents", () => {
    const [[, policy]] = resourcesOfType(memo.json, 'AWS::S3::BucketPolicy');
    const status = policy.Properties.PolicyDocument.Statement.find((s: any) => s.Sid === 'OrganizationMembersWriteOwnStatus');
    assert.ok(status, 'the status statement');
    assert.deepEqual(status.Condition, { StringEquals: { 'aws:PrincipalOrgID': 'o-a1b2c3d4e5' } });
    assert.deepEqual([...status.Action].sort(), ['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
    const resources = JSON.stringify(status.Resource);
    assert.match(resources, /\/org\/\$\{aws:PrincipalAccount\}\/\*/);
    for (const s of policy.Properties.PolicyDocument.Statement) {
      const writes = [s.Action].flat().some((a: string) => a === 's3:PutObject' || a === 's3:DeleteObject');
      if (writes && s.Condition?.StringEquals?.['aws:PrincipalOrgID']) {
        assert.doesNotMatch(JSON.stringify(s.Resource), /baselines\/|state\/|index\//, 'members write only org/<own account>/');
      }
    }
  });

  it('sends every member transition to the hub function through one rule and a queue with a dead-letter queue', () => {
    const rules = resourcesOfType(memo.json, 'AWS::Events::Rule').map(([, r]) => r.Properties);
    const bus = rules.filter((r) => r.EventBusName);
    assert.equal(bus.length, 1, 'one rule on the findings bus');
    const [deliver] = bus;
    assert.deepEqual(deliver.EventPattern, { source: ['realdrift'], 'detail-type': ['realdrift drift transition'] });
    assert.equal(deliver.Targets.length, 1);
    const [queueId] = deliver.Targets[0].Arn['Fn::GetAtt'];
    const queue = memo.json.Resources[queueId];
    assert.equal(queue.Type, 'AWS::SQS::Queue');
    assert.equal(queue.Properties.RedrivePolicy.maxReceiveCount, 3);
    assert.ok(deliver.Targets[0].DeadLetterConfig, 'a target that cannot deliver goes to the dead-letter queue');
    const [[, mapping]] = resourcesOfType(memo.json, 'AWS::Lambda::EventSourceMapping');
    assert.deepEqual(mapping.Properties.EventSourceArn, { 'Fn::GetAtt': [queueId, 'Arn'] });
    assert.deepEqual(mapping.Properties.FunctionResponseTypes, ['ReportBatchItemFailures']);
    const hub = hubFunction(memo.json);
    assert.deepEqual(mapping.Properties.FunctionName, { Ref: hub.id });
    assert.equal(JSON.parse(hub.env.REALDRIFT_ACCOUNT_NAMES)['111111111111'], 'payments-prod');
    assert.ok(hub.env.REALDRIFT_TOPIC_ARN && hub.env.REALDRIFT_SLACK_SECRET_ID && hub.env.REALDRIFT_BUCKET);
    assert.doesNotMatch(JSON.stringify(rules), /InputTransformer/, 'names are no longer literals of rules');
  });

  it('invokes the hub function daily for the summary, on a schedule the context can change', () => {
    const schedule = (json: any) => {
      const rules = resourcesOfType(json, 'AWS::Events::Rule').map(([, r]) => r.Properties).filter((r) => r.ScheduleExpression);
      assert.equal(rules.length, 1);
      assert.deepEqual(rules[0].Targets[0].Arn, { 'Fn::GetAtt': [hubFunction(json).id, 'Arn'] });
      assert.deepEqual(JSON.parse(rules[0].Targets[0].Input), { realdrift: 'summary' });
      return rules[0].ScheduleExpression;
    };
    assert.equal(schedule(memo.json), 'rate(1 day)');
    assert.equal(schedule(synthOrg({ hubSummarySchedule: 'cron(0 7 ? * MON-FRI *)' }).json), 'cron(0 7 ? * MON-FRI *)');
    assert.throws(() => synthOrg({ hubSummarySchedule: 'daily' }), /summarySchedule/);
  });

  it("grants the hub function only DescribeAccount in the Organization, the topic, the secret, the queue and the bucket's org/", () => {
    const hub = hubFunction(memo.json);
    const statements = rolePolicyStatements(memo.json, hub.role);
    const actions = statements.flatMap((s: any) => [s.Action].flat()).sort();
    assert.deepEqual([...new Set(actions)], [
      'kms:Decrypt',
      'kms:GenerateDataKey*',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'organizations:DescribeAccount',
      's3:GetObject',
      's3:ListBucket',
      's3:PutObject',
      'secretsmanager:DescribeSecret',
      'secretsmanager:GetSecretValue',
      'sns:Publish',
      'sqs:ChangeMessageVisibility',
      'sqs:DeleteMessage',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:ReceiveMessage',
    ]);
    const org = statements.find((s: any) => s.Action === 'organizations:DescribeAccount');
    assert.deepEqual(org.Resource, { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':organizations::*:account/o-a1b2c3d4e5/*']] });
    const put = statements.find((s: any) => s.Action === 's3:PutObject');
    assert.match(JSON.stringify(put.Resource), /\/org\/summary\.html"/, 'writes the summary page only');
    const get = statements.find((s: any) => s.Action === 's3:GetObject');
    assert.match(JSON.stringify(get.Resource), /\/org\/\*"/, 'reads the status documents only');
    for (const s of statements) assert.notEqual(s.Resource, '*', JSON.stringify(s));
  });

  it('keeps the summary page out of reach of members (their bucket grant is org/<own account>/ only)', () => {
    const [[, policy]] = resourcesOfType(memo.json, 'AWS::S3::BucketPolicy');
    for (const s of policy.Properties.PolicyDocument.Statement.filter((x: any) => x.Condition?.StringEquals?.['aws:PrincipalOrgID'])) {
      assert.doesNotMatch(JSON.stringify(s.Resource), /summary\.html|\/org\/\*"/);
    }
  });
});

/** The hub function: its logical id, role id and environment. */
function hubFunction(json: any): { id: string; role: string; env: Record<string, string> } {
  const fns = resourcesOfType(json, 'AWS::Lambda::Function').filter(([, f]) => /realdrift hub/.test(f.Properties.Description ?? ''));
  assert.equal(fns.length, 1, 'one hub function');
  const [[id, f]] = fns;
  return { id, role: f.Properties.Role['Fn::GetAtt'][0], env: f.Properties.Environment.Variables };
}

/** Every statement of the inline policies attached to `role`. */
function rolePolicyStatements(json: any, role: string): any[] {
  return resourcesOfType(json, 'AWS::IAM::Policy')
    .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(`"${role}"`))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
}

describe('organization: the emulator proof', () => {
  it('applies the hub bucket policy the app synthesizes (tests/fixtures/org/hub-bucket-policy.json)', () => {
    const [[, policy]] = resourcesOfType(memo.json, 'AWS::S3::BucketPolicy');
    const synthesized = {
      organizationId: ORG.organizationId,
      Bucket: policy.Properties.Bucket,
      PolicyDocument: policy.Properties.PolicyDocument,
    };
    if (process.env.REALDRIFT_UPDATE_FIXTURES === '1') {
      fs.writeFileSync(HUB_POLICY_FIXTURE, JSON.stringify(synthesized, null, 2) + '\n');
    }
    const committed = JSON.parse(fs.readFileSync(HUB_POLICY_FIXTURE, 'utf8'));
    assert.deepEqual(committed, synthesized, 'stale: REALDRIFT_UPDATE_FIXTURES=1 npm test rewrites it; commit the change');
  });

  it('benches the delivery the app synthesizes (tests/fixtures/org/hub-delivery.json)', () => {
    const [deliver] = resourcesOfType(memo.json, 'AWS::Events::Rule').map(([, r]) => r.Properties).filter((r) => r.EventBusName);
    const [queueId] = deliver.Targets[0].Arn['Fn::GetAtt'];
    const queue = memo.json.Resources[queueId].Properties;
    const [[, mapping]] = resourcesOfType(memo.json, 'AWS::Lambda::EventSourceMapping');
    const fn = memo.json.Resources[hubFunction(memo.json).id].Properties;
    // null = not set (AWS's default applies); the bench says which default it plays.
    const synthesized = {
      rule: { EventPattern: deliver.EventPattern, targetDeadLetterQueue: Boolean(deliver.Targets[0].DeadLetterConfig) },
      queue: { VisibilityTimeout: queue.VisibilityTimeout, maxReceiveCount: queue.RedrivePolicy.maxReceiveCount },
      eventSource: {
        BatchSize: mapping.Properties.BatchSize,
        MaximumBatchingWindowInSeconds: mapping.Properties.MaximumBatchingWindowInSeconds ?? null,
        FunctionResponseTypes: mapping.Properties.FunctionResponseTypes,
        MaximumConcurrency: mapping.Properties.ScalingConfig?.MaximumConcurrency ?? null,
      },
      function: { ReservedConcurrentExecutions: fn.ReservedConcurrentExecutions ?? null, Timeout: fn.Timeout, MemorySize: fn.MemorySize },
    };
    if (process.env.REALDRIFT_UPDATE_FIXTURES === '1') {
      fs.writeFileSync(HUB_DELIVERY_FIXTURE, JSON.stringify(synthesized, null, 2) + '\n');
    }
    const committed = JSON.parse(fs.readFileSync(HUB_DELIVERY_FIXTURE, 'utf8'));
    assert.deepEqual(committed, synthesized, 'stale: REALDRIFT_UPDATE_FIXTURES=1 npm test rewrites it; commit the change');
  });
});

describe("organization: the cost table's per-member resources (docs/organization.md)", () => {
  it('states the billed resources the member template creates', () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'organization.md'), 'utf8');
    const m = doc.match(/per member: (\d+) alarms × \$0\.10 = \$[\d.]+ \(counted on the synthesized member template\), (\d+) KMS key \(its topic's\) \$1\.00, (\d+) Slack secret/);
    assert.ok(m, "docs/organization.md's members fixed line");
    const count = (type: string) => resourcesOfType(memo.member, type).length;
    console.log(`member: ${count('AWS::CloudWatch::Alarm')} alarms, ${count('AWS::KMS::Key')} keys, ${count('AWS::SecretsManager::Secret')} secrets`);
    assert.equal(Number(m[1]), count('AWS::CloudWatch::Alarm'));
    assert.equal(Number(m[2]), count('AWS::KMS::Key'));
    assert.equal(Number(m[3]), count('AWS::SecretsManager::Secret'));
  });
});

describe('organization: the member StackSet', () => {
  it('is service-managed, auto-deployed to the chosen OUs and Regions', () => {
    const p = memo.json.set.Properties;
    assert.equal(p.PermissionModel, 'SERVICE_MANAGED');
    assert.equal(p.CallAs, 'DELEGATED_ADMIN');
    assert.deepEqual(p.AutoDeployment, { Enabled: true, RetainStacksOnAccountRemoval: false });
    assert.deepEqual(p.StackInstancesGroup, [
      { DeploymentTargets: { OrganizationalUnitIds: ['ou-ab12-cdefgh34', 'ou-ab12-ijklmn56'] }, Regions: ['eu-west-1', 'us-east-1'] },
    ]);
    assert.deepEqual(p.Parameters.map((x: any) => x.ParameterKey).sort(), ['FindingsBusArn', 'HubBucketName']);
    assert.ok(p.TemplateURL, 'the member template is an uploaded asset');
  });

  it('has a member that reads code from the regional buckets and publishes to the hub', () => {
    const fns = resourcesOfType(memo.member, 'AWS::Lambda::Function').filter(([id]) => /^(Scan|OnChange|Revert)Function/.test(id));
    assert.equal(fns.length, 3);
    for (const [, f] of fns) {
      assert.deepEqual(f.Properties.Code.S3Bucket, { 'Fn::Sub': 'acme-realdrift-assets-${AWS::Region}' });
      assert.match(f.Properties.Code.S3Key, /^realdrift\/realdrift-[a-z-]+-[0-9a-f]{64}\.zip$/);
      assert.deepEqual(f.Properties.Environment.Variables.REALDRIFT_BASELINES_BUCKET, { Ref: 'HubBucketName' });
    }
    const scan = fns.find(([id]) => id.startsWith('Scan'))![1];
    assert.deepEqual(scan.Properties.Environment.Variables.REALDRIFT_EVENT_BUS_ARN, { Ref: 'FindingsBusArn' });
    assert.equal(resourcesOfType(memo.member, 'Custom::CDKBucketDeployment').length, 0, 'baselines are synced at the hub only');
    assert.equal(memo.member.Rules?.CheckBootstrapVersion, undefined, 'a StackSet account need not be bootstrapped');
  });

  it('with securityHub, lets scan and on-change import findings into their own account only', () => {
    const { member } = synthOrg({ securityHub: true });
    const fns = resourcesOfType(member, 'AWS::Lambda::Function').filter(([id]) => /^(Scan|OnChange|Revert)Function/.test(id));
    const grants = resourcesOfType(member, 'AWS::IAM::Policy').flatMap(([, p]) =>
      p.Properties.PolicyDocument.Statement.filter((s: any) => JSON.stringify(s.Action).includes('securityhub')).map((s: any) => ({ s, roles: p.Properties.Roles })),
    );
    assert.equal(grants.length, 2, 'scan and on-change, not revert');
    for (const { s, roles } of grants) {
      assert.equal(s.Action, 'securityhub:BatchImportFindings');
      assert.deepEqual(s.Resource, {
        'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':securityhub:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':product/', { Ref: 'AWS::AccountId' }, '/default']],
      });
      assert.doesNotMatch(JSON.stringify(roles), /Revert/);
    }
    for (const [id, f] of fns) {
      const env = f.Properties.Environment.Variables;
      const on = !id.startsWith('Revert');
      assert.equal(env.REALDRIFT_SECURITY_HUB, on ? '1' : undefined, id);
      assert.deepEqual(env.REALDRIFT_PARTITION, on ? { Ref: 'AWS::Partition' } : undefined, id);
    }
    const off = JSON.stringify(memo.member);
    assert.doesNotMatch(off, /securityhub:BatchImportFindings|REALDRIFT_SECURITY_HUB/, 'off by default');
  });

  it('refuses a malformed OU and a missing asset bucket prefix, naming them', () => {
    assert.throws(() => synthOrg({ stackSetOrganizationalUnits: 'engineering' }), /organizationalUnits\[0\]/);
    assert.throws(() => synthOrg({ memberAssetBucketPrefix: '' }), /memberAssetBucketPrefix/);
  });
});
