// Issue 44 §1: the change rules match exactly the calls the event table maps
// (with Lambda's API-version-suffixed names), drop failed calls, stay under
// EventBridge's pattern size limit, and global services' events reach the
// home Region through a us-east-1 forwarder.
import assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { describe, it } from 'node:test';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { globalEventsStackName } from '../lib/app';
import { changePatterns, loadChangeRuleFacts, patternSize } from '../lib/change-patterns';
import { loadEventNames } from '../lib/event-sources';
import { GlobalEventsStack } from '../lib/global-events';
import { CfnTemplate, logicalId, REPO, resourcesOfType, synth } from './helpers';

const TABLE = path.join(REPO, 'core', 'data', 'cloudtrail-events.json');
const FACTS = loadChangeRuleFacts();

/** The event table as source -> set of names. */
function tableNames(file: string = TABLE): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const e of JSON.parse(fs.readFileSync(file, 'utf8')).events) {
    out.set(e.eventSource, (out.get(e.eventSource) ?? new Set()).add(e.eventName));
  }
  return out;
}

/** The rules with an event pattern in a template. */
function patternRules(json: CfnTemplate): [string, any][] {
  return resourcesOfType(json, 'AWS::Events::Rule').filter(([, r]) => r.Properties.EventPattern);
}

/** source -> exact names and prefixes the rules match. */
function matched(json: CfnTemplate): Map<string, { exact: Set<string>; prefixes: Set<string> }> {
  const out = new Map<string, { exact: Set<string>; prefixes: Set<string> }>();
  for (const [id, rule] of patternRules(json)) {
    const p = rule.Properties.EventPattern;
    assert.equal(p.detail.eventSource.length, 1, `${id} matches one service`);
    const entry = out.get(p.detail.eventSource[0]) ?? { exact: new Set(), prefixes: new Set() };
    for (const m of p.detail.eventName) {
      if (typeof m === 'string') entry.exact.add(m);
      else entry.prefixes.add(m.prefix);
    }
    out.set(p.detail.eventSource[0], entry);
  }
  return out;
}

/** A table file of the given (source, name) pairs. */
function tableFile(pairs: [string, string][]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'realdrift-events-'));
  const file = path.join(dir, 'cloudtrail-events.json');
  fs.writeFileSync(file, JSON.stringify({ events: pairs.map(([eventSource, eventName]) => ({ eventSource, eventName })) }));
  return file;
}

describe('change rules', () => {
  it('match exactly the event names the table maps, per service, nothing more', () => {
    const rules = matched(synth().json);
    const table = tableNames();
    assert.deepEqual([...rules.keys()].sort(), [...table.keys()].sort());
    for (const [source, names] of table) {
      assert.deepEqual([...rules.get(source)!.exact].sort(), [...names].sort(), source);
    }
  });

  it('are the patterns change-patterns.ts generates (what tests/emulator/test_change_rules.py evaluates)', () => {
    const synthesized = patternRules(synth().json).map(([, r]) => JSON.stringify(r.Properties.EventPattern));
    const generated = changePatterns(loadEventNames(TABLE), FACTS).map((p) => JSON.stringify(p.pattern));
    assert.deepEqual(synthesized.sort(), generated.sort());
  });

  it('match the API-version-suffixed names of Lambda only, by the name plus "20"', () => {
    const rules = matched(synth().json);
    for (const [source, { exact, prefixes }] of rules) {
      if (source === 'lambda.amazonaws.com') {
        assert.deepEqual([...prefixes].sort(), [...exact].map((n) => `${n}20`).sort());
        // The shapes real records carry (shared/cloudtrail).
        for (const recorded of ['AddPermission20150331v2', 'UpdateFunctionCode20150331v2', 'CreateFunction20150331']) {
          assert.ok([...prefixes].some((p) => recorded.startsWith(p)), recorded);
        }
      } else {
        assert.deepEqual([...prefixes], [], source);
      }
    }
  });

  it('drop failed calls (errorCode absent, null or empty passes) and filter nothing else', () => {
    for (const [id, rule] of patternRules(synth().json)) {
      const p = rule.Properties.EventPattern;
      assert.deepEqual(Object.keys(p).sort(), ['detail', 'detail-type'], id);
      assert.deepEqual(p['detail-type'], ['AWS API Call via CloudTrail'], id);
      // No readOnly, principal or user-agent filter: on-change screens CloudFormation's own calls (issue 49).
      assert.deepEqual(Object.keys(p.detail).sort(), ['errorCode', 'eventName', 'eventSource'], id);
      assert.deepEqual(p.detail.errorCode, [{ exists: false }, null, ''], id);
    }
  });

  it('each stay under the 2,048-character pattern limit, with Lambda split in two even parts', () => {
    assert.equal(FACTS.patternSizeLimit, 2048);
    const rules = patternRules(synth().json);
    for (const [id, rule] of rules) {
      const p = rule.Properties.EventPattern;
      assert.ok(patternSize(p) <= 2048, `${id}: ${patternSize(p)}`);
      // The pessimistic size is at least Python's json.dumps (", " and ": ").
      assert.ok(patternSize(p) >= JSON.stringify(p).replace(/([,:])/g, '$1 ').length, id);
    }
    const lambda = rules.filter(([, r]) => r.Properties.EventPattern.detail.eventSource[0] === 'lambda.amazonaws.com');
    assert.equal(lambda.length, 2);
    const sizes = lambda.map(([, r]) => r.Properties.EventPattern.detail.eventName.length);
    assert.ok(Math.abs(sizes[0] - sizes[1]) <= 2, `${sizes}`);
  });

  it('split a service with many names over several rules that together match every name', () => {
    const names = Array.from({ length: 300 }, (_, i) => `PutSomethingRatherLong${i}`);
    const file = tableFile(names.map((n) => ['service-x.amazonaws.com', n]));
    const { json } = synth({ cloudtrailEventsFile: file });
    const rules = patternRules(json);
    assert.ok(rules.length > 1);
    for (const [, r] of rules) assert.ok(patternSize(r.Properties.EventPattern) <= 2048);
    assert.deepEqual([...matched(json).get('service-x.amazonaws.com')!.exact].sort(), [...names].sort());
  });

  it('fail synth naming the table entry whose name is not an API name', () => {
    const file = tableFile([['iam.amazonaws.com', 'Create Role']]);
    assert.throws(() => synth({ cloudtrailEventsFile: file }), /events\[0\]\.eventName "Create Role" is not an API name/);
  });
});

describe('global services forwarder', () => {
  const forwarderOf = (s: ReturnType<typeof synth>) => s.app.node.tryFindChild(globalEventsStackName('Realdrift')) as GlobalEventsStack | undefined;

  it('is not deployed when the home Region is us-east-1', () => {
    assert.equal(forwarderOf(synth()), undefined);
    assert.equal(forwarderOf(synth({ region: 'us-east-1' })), undefined);
  });

  it('is deployed in us-east-1 for a home Region elsewhere, forwarding only IAM to the home default bus', () => {
    for (const s of [synth({ region: 'eu-west-1' }), synth({}, { defaultRegion: 'eu-west-1' })]) {
      const forwarder = forwarderOf(s);
      assert.ok(forwarder, 'forwarder stack');
      assert.equal(forwarder.region, 'us-east-1');
      const json = Template.fromStack(forwarder).toJSON() as CfnTemplate;
      const rules = patternRules(json);
      const homeIam = patternRules(s.json).filter(([, r]) => r.Properties.EventPattern.detail.eventSource[0] === 'iam.amazonaws.com');
      // The same patterns as the home rules for IAM: the home rule then matches the forwarded event.
      assert.deepEqual(
        rules.map(([, r]) => r.Properties.EventPattern),
        homeIam.map(([, r]) => r.Properties.EventPattern),
      );
      // The stack's Region is concrete (us-east-1), so the recommended flags render its partition literally.
      const bus = { 'Fn::Join': ['', ['arn:aws:events:eu-west-1:', { Ref: 'AWS::AccountId' }, ':event-bus/default']] };
      for (const [, r] of rules) {
        assert.deepEqual(r.Properties.Targets.map((t: any) => t.Arn), [bus]);
        assert.ok(r.Properties.Targets[0].RoleArn, 'a cross-Region bus target needs a role');
      }
      const t = Template.fromStack(forwarder);
      t.hasResourceProperties('AWS::IAM::Role', {
        AssumeRolePolicyDocument: Match.objectLike({
          Statement: [Match.objectLike({ Principal: { Service: 'events.amazonaws.com' }, Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } } })],
        }),
      });
      t.hasResourceProperties('AWS::IAM::Policy', {
        PolicyDocument: { Statement: [{ Effect: 'Allow', Action: 'events:PutEvents', Resource: bus }], Version: '2012-10-17' },
      });
      assert.deepEqual(resourcesOfType(json, 'AWS::IAM::Role').length, 1);
    }
  });

  it('dead-letters every forward to its own us-east-1 queue with a bounded retry, and alarms on its own topic', () => {
    const s = synth({ region: 'eu-west-1', alertEmails: ['ops@example.com'] });
    const json = Template.fromStack(forwarderOf(s)!).toJSON() as CfnTemplate;
    const queue = logicalId(json, 'AWS::SQS::Queue', 'FailedForwardsQueue');
    const topic = logicalId(json, 'AWS::SNS::Topic', 'AlarmTopic');
    const rules = patternRules(json);
    assert.ok(rules.length >= 1);
    for (const [id, rule] of rules) {
      for (const target of rule.Properties.Targets) {
        assert.deepEqual(target.DeadLetterConfig, { Arn: { 'Fn::GetAtt': [queue, 'Arn'] } }, id);
        assert.ok(target.RetryPolicy.MaximumEventAgeInSeconds <= 3600, `${id}: retries for more than an hour`);
        assert.ok(target.RetryPolicy.MaximumRetryAttempts <= 8, id);
      }
    }
    // Only the forwarder's rules may send to the queue.
    const [[, policy]] = resourcesOfType(json, 'AWS::SQS::QueuePolicy');
    const send = policy.Properties.PolicyDocument.Statement.find((st: any) => st.Effect === 'Allow');
    assert.deepEqual(send.Principal, { Service: 'events.amazonaws.com' });
    assert.deepEqual(send.Condition.ArnEquals['aws:SourceArn'], rules.map(([id]) => ({ 'Fn::GetAtt': [id, 'Arn'] })));
    // One alarm, on the queue's first message, to the us-east-1 topic: a forwarded event
    // EventBridge could not even dead-letter is still found by the home stack's next scan.
    const alarms = resourcesOfType(json, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const depth = alarms.filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible');
    assert.deepEqual(depth.map((a) => a.Dimensions[0].Value), [{ 'Fn::GetAtt': [queue, 'QueueName'] }]);
    assert.equal(alarms.length, 1);
    for (const a of alarms) assert.deepEqual(a.AlarmActions, [{ Ref: topic }]);
    const t = Template.fromStack(forwarderOf(s)!);
    t.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: { Ref: topic } });
    t.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Allow', Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: 'sns:Publish', Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } } }),
        ]),
      }),
    });
  });

  it('pins the home stack to an explicit -c region and leaves it Region-agnostic otherwise', () => {
    assert.equal(synth({ region: 'eu-west-1' }).stack.region, 'eu-west-1');
    assert.ok(synth({}, { defaultRegion: 'eu-west-1' }).stack.region.startsWith('${Token'));
  });

  it('refuses synth when the home Region is unknown, naming both context keys', () => {
    assert.throws(
      () => synth({}, { defaultRegion: null }),
      (e: Error) => /context region: the home Region is unknown/.test(e.message) && /-c region=/.test(e.message) && /-c globalEventsForwarder=false/.test(e.message) && /iam\.amazonaws\.com/.test(e.message),
    );
  });

  it('refuses a home Region of another partition, where the global-events Region is not stated', () => {
    assert.throws(() => synth({ region: 'cn-north-1' }), /cn-north-1 is outside the commercial partition.*globalEventsForwarder=false/);
  });

  it('is left out with a synth warning when the user opts out', () => {
    for (const s of [synth({ globalEventsForwarder: 'false', region: 'eu-west-1' }), synth({ globalEventsForwarder: false }, { defaultRegion: null })]) {
      assert.equal(forwarderOf(s), undefined);
      Annotations.fromStack(s.stack).hasWarning('*', Match.stringLikeRegexp('globalEventsForwarder=false: changes through iam.amazonaws.com reach the scan only'));
    }
  });

  it('is not needed when the table maps no global service', () => {
    const file = tableFile([['sqs.amazonaws.com', 'SetQueueAttributes']]);
    assert.equal(forwarderOf(synth({ cloudtrailEventsFile: file, region: 'eu-west-1' })), undefined);
  });

  it('has no cdk-nag finding', () => {
    const s = synth({ region: 'eu-west-1' }, { acknowledgeNag: true });
    const forwarder = forwarderOf(s)!;
    const report = new AwsSolutionsChecks(s.app).validateScope(forwarder);
    assert.deepEqual(report.violations.map((v) => v.ruleName), []);
  });
});
