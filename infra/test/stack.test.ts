// Points 1-5 and 7 of the deploy issue, asserted on the synthesized template:
// storage, alerts, queues, functions, triggers and outputs.
import assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { describe, it } from 'node:test';
import { Match } from 'aws-cdk-lib/assertions';
import { loadConfig } from '../lib/config';
import { BINARIES, REPO, logicalId, resourcesOfType, stubAssets, synth } from './helpers';

const tlsDeny = Match.objectLike({
  Effect: 'Deny',
  Condition: { Bool: { 'aws:SecureTransport': 'false' } },
});

describe('storage', () => {
  it('the bucket is versioned, SSE-encrypted, private, TLS-only, expires old versions and survives stack deletion', () => {
    const { template, json } = synth();
    template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        VersioningConfiguration: { Status: 'Enabled' },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        LifecycleConfiguration: {
          Rules: Match.arrayWith([Match.objectLike({ NoncurrentVersionExpiration: { NoncurrentDays: 90 }, Status: 'Enabled' })]),
        },
      }),
    });
    const bucket = logicalId(json, 'AWS::S3::Bucket', 'StorageBucket');
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucket },
      PolicyDocument: { Statement: Match.arrayWith([tlsDeny]) },
    });
  });

  it('keeps noncurrent versions as long as context says', () => {
    synth({ noncurrentVersionDays: 30 }).template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ NoncurrentVersionExpiration: { NoncurrentDays: 30 } })]) },
    });
  });

  it('syncs baselines/ to baselines/ on deploy, pruning only under that prefix', () => {
    const { json } = synth();
    const [[, deployment]] = resourcesOfType(json, 'Custom::CDKBucketDeployment');
    assert.equal(deployment.Properties.DestinationBucketKeyPrefix, 'baselines/');
    assert.equal(deployment.Properties.Prune, true);
    assert.deepEqual(deployment.Properties.DestinationBucketName, { Ref: logicalId(json, 'AWS::S3::Bucket', 'StorageBucket') });
    // No other deployment writes to the bucket: state/, index/ and cache/ are the functions' alone.
    assert.equal(resourcesOfType(json, 'Custom::CDKBucketDeployment').length, 1);
  });

  it('the baselines deployment writes and deletes objects only under baselines/', () => {
    const { json } = synth();
    const [[, deployment]] = resourcesOfType(json, 'AWS::Lambda::Function').filter(([id]) => id.startsWith('CustomCDKBucketDeployment'));
    const roleId = deployment.Properties.Role['Fn::GetAtt'][0];
    const statements = resourcesOfType(json, 'AWS::IAM::Policy')
      .filter(([, p]) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
    const bucket = logicalId(json, 'AWS::S3::Bucket', 'StorageBucket');
    const deny = statements.find((st: any) => st.Effect === 'Deny');
    assert.deepEqual(deny, {
      Action: ['s3:Abort*', 's3:DeleteObject*', 's3:PutObject*'],
      Effect: 'Deny',
      NotResource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucket, 'Arn'] }, '/baselines/*']] },
    });
  });

  it('fails synth when the baselines directory is missing', () => {
    assert.throws(() => synth({ baselinesDir: '/nonexistent/baselines' }), /context baselinesDir: \/nonexistent\/baselines is not a directory/);
  });

  it('sends server access logs to the bucket context names', () => {
    synth({ accessLogsBucket: 'central-logs' }).template.hasResourceProperties('AWS::S3::Bucket', {
      LoggingConfiguration: { DestinationBucketName: 'central-logs', LogFilePrefix: 'realdrift/' },
    });
  });
});

describe('alerts', () => {
  it("the topic key lets CloudWatch use it only for this account's alarms", () => {
    const { json } = synth();
    const key = json.Resources[logicalId(json, 'AWS::KMS::Key', 'AlertsKey')].Properties.KeyPolicy.Statement;
    const cw = key.filter((st: any) => JSON.stringify(st.Principal).includes('cloudwatch.amazonaws.com'));
    assert.equal(cw.length, 1);
    assert.deepEqual(cw[0].Condition, { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } });
  });

  it('the topic is KMS-encrypted with a rotating key and TLS-only', () => {
    const { template, json } = synth();
    const key = logicalId(json, 'AWS::KMS::Key', 'AlertsKey');
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [key, 'Arn'] } });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', { PolicyDocument: { Statement: Match.arrayWith([tlsDeny]) } });
  });

  it("rotates the topic key on KMS's yearly default unless context sets another period", () => {
    const key = (json: any) => resourcesOfType(json, 'AWS::KMS::Key')[0][1].Properties;
    assert.equal(key(synth().json).RotationPeriodInDays, undefined);
    const longer = key(synth({ topicKeyRotationDays: 2560 }).json);
    assert.equal(longer.RotationPeriodInDays, 2560);
    assert.equal(longer.EnableKeyRotation, true);
    assert.throws(() => synth({ topicKeyRotationDays: 89 }), /context topicKeyRotationDays/);
  });

  it('subscribes the email addresses context lists, and none by default', () => {
    assert.equal(resourcesOfType(synth().json, 'AWS::SNS::Subscription').length, 0);
    const { template } = synth({ alertEmails: 'ops@example.com,oncall@example.com' });
    template.resourceCountIs('AWS::SNS::Subscription', 2);
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.com' });
  });

  it('creates the Slack secret empty (no generated value)', () => {
    const [[, secret]] = resourcesOfType(synth().json, 'AWS::SecretsManager::Secret');
    assert.equal(secret.Properties.SecretString, undefined);
    assert.equal(secret.Properties.GenerateSecretString, undefined);
  });

  it('uses an existing Slack secret named in context instead of creating one', () => {
    for (const value of ['team/realdrift-slack', 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:slack-AbCdEf']) {
      const { json } = synth({ slackSecret: value });
      assert.equal(resourcesOfType(json, 'AWS::SecretsManager::Secret').length, 0);
      for (const fn of ['Scan', 'OnChange']) {
        const [, f] = resourcesOfType(json, 'AWS::Lambda::Function').find(([id]) => id.startsWith(`${fn}Function`))!;
        assert.equal(f.Properties.Environment.Variables.REALDRIFT_SLACK_SECRET_ID, value);
      }
    }
  });
});

describe('queues', () => {
  it('scan and change queues each have an encrypted, TLS-only dead-letter queue after three receives', () => {
    const { json, template } = synth();
    for (const prefix of ['ScanWork', 'Changes']) {
      const queue = logicalId(json, 'AWS::SQS::Queue', `${prefix}Queue`);
      const dlq = logicalId(json, 'AWS::SQS::Queue', `${prefix}DeadLetter`);
      const q = json.Resources[queue].Properties;
      assert.deepEqual(q.RedrivePolicy, { deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] }, maxReceiveCount: 3 });
      assert.equal(q.SqsManagedSseEnabled, true);
      assert.equal(json.Resources[dlq].Properties.SqsManagedSseEnabled, true);
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: queue }],
        PolicyDocument: { Statement: Match.arrayWith([tlsDeny]) },
      });
    }
  });

  it('delays change events so changes settle (30 s by default, context changeDelaySeconds)', () => {
    const delay = (ctx: Record<string, unknown>) => {
      const { json } = synth(ctx);
      return json.Resources[logicalId(json, 'AWS::SQS::Queue', 'ChangesQueue')].Properties.DelaySeconds;
    };
    assert.equal(delay({}), 30);
    assert.equal(delay({ changeDelaySeconds: '120' }), 120);
  });

  it('alarm on dead-letter depth and backlog, and on each function\'s errors, notifying the topic', () => {
    const { json } = synth();
    const topic = { Ref: logicalId(json, 'AWS::SNS::Topic', 'AlertsTopic') };
    const alarms = resourcesOfType(json, 'AWS::CloudWatch::Alarm');
    for (const [, a] of alarms) assert.deepEqual(a.Properties.AlarmActions, [topic]);
    const dlqDepth = alarms.filter(([, a]) => a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible');
    assert.deepEqual(
      dlqDepth.map(([, a]) => a.Properties.Dimensions[0].Value['Fn::GetAtt'][0].replace(/[0-9A-F]{8}$/, '')).sort(),
      ['ChangesDeadLetter', 'FailedTriggersQueue', 'ScanWorkDeadLetter'],
    );
    for (const [, a] of dlqDepth) assert.equal(a.Properties.Threshold, 1);
    assert.equal(alarms.filter(([, a]) => a.Properties.MetricName === 'ApproximateAgeOfOldestMessage').length, 2);
    assert.equal(alarms.filter(([, a]) => a.Properties.MetricName === 'Errors').length, 3);
  });

  it("alarm on the schedule's failed invocations only: every other rule's failures end in the alarmed failed-trigger queue", () => {
    const { json } = synth();
    const alarms = resourcesOfType(json, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    // A throttled invoke is retried, then dead-lettered or returned to its caller: no per-function throttle alarm.
    assert.deepEqual(alarms.filter((a) => a.MetricName === 'Throttles'), []);
    const rules = resourcesOfType(json, 'AWS::Events::Rule');
    const schedules = rules.filter(([, r]) => r.Properties.ScheduleExpression).map(([id]) => id);
    assert.equal(schedules.length, 1);
    assert.ok(rules.length > 2);
    const failed = alarms.filter((a) => a.MetricName === 'FailedInvocations' && a.Namespace === 'AWS/Events');
    assert.deepEqual(failed.map((a) => a.Dimensions[0].Value.Ref), schedules);
    for (const a of failed) assert.equal(a.Threshold, 1);
    // Every rule's target still dead-letters to the queue the depth alarm watches.
    const queue = logicalId(json, 'AWS::SQS::Queue', 'FailedTriggersQueue');
    for (const [id, r] of rules) {
      for (const t of r.Properties.Targets) assert.deepEqual(t.DeadLetterConfig, { Arn: { 'Fn::GetAtt': [queue, 'Arn'] } }, id);
    }
  });
});

describe('the stack', () => {
  it('keeps the logical ids of the install before the member and hub constructs (an update replaces nothing)', () => {
    const ids = Object.keys(synth().json.Resources);
    for (const id of [
      'StorageBucket5CB7C8EA',
      'AlertsTopicCF7C81C9',
      'ScanFunction21898010',
      'ScanRole4DA95A7E',
      'ScanWorkQueue5E09C0F7',
      'TriggersScheduleEA265538',
      'FailedTriggersFailedTriggersScheduleBF85BABA',
      // Event source mappings cannot be created twice for one queue and function: a new id would fail the update.
      'ScanFunctionSqsEventSourceRealdriftScanWorkQueueD6ADD1223AEF86C8',
      'OnChangeFunctionSqsEventSourceRealdriftChangesQueueB17DC6C6819020ED',
      'TriggersScheduleAllowEventRuleRealdriftScanFunction0A2221BBB83370F3',
    ]) {
      assert.ok(ids.includes(id), `${id} kept`);
    }
    assert.deepEqual(ids.filter((id) => id.startsWith('Hub') || id.startsWith('Default')), []);
  });

  it('is tagged, and termination-protected when context asks', () => {
    const plain = synth();
    assert.deepEqual(plain.stack.tags.tagValues(), { app: 'realdrift' });
    assert.equal(plain.stack.terminationProtection, false);
    assert.equal(synth({ terminationProtection: true }).stack.terminationProtection, true);
    // Deployed as stack tags, which CloudFormation propagates to the resources.
    const artifact = plain.app.synth().getStackArtifact(plain.stack.artifactId);
    assert.deepEqual(artifact.tags, { app: 'realdrift' });
  });
});

describe('failed triggers', () => {
  const { json } = synth({ createTrail: true });
  const queue = logicalId(json, 'AWS::SQS::Queue', 'FailedTriggersQueue');

  it('every EventBridge target dead-letters to the failed-trigger queue with a bounded retry policy', () => {
    const rules = resourcesOfType(json, 'AWS::Events::Rule');
    assert.ok(rules.length >= 2, 'the schedule and the change rule(s)');
    for (const [id, rule] of rules) {
      for (const target of rule.Properties.Targets) {
        assert.deepEqual(target.DeadLetterConfig, { Arn: { 'Fn::GetAtt': [queue, 'Arn'] } }, id);
        assert.ok(target.RetryPolicy.MaximumEventAgeInSeconds <= 3600, `${id}: retries for more than an hour`);
        assert.ok(target.RetryPolicy.MaximumRetryAttempts <= 8, id);
      }
    }
  });

  it('only those rules may send to the queue', () => {
    const [[, policy]] = resourcesOfType(json, 'AWS::SQS::QueuePolicy').filter(([, p]) => JSON.stringify(p.Properties.Queues).includes(queue));
    const send = policy.Properties.PolicyDocument.Statement.find((st: any) => st.Effect === 'Allow');
    assert.deepEqual(send.Principal, { Service: 'events.amazonaws.com' });
    const rules = resourcesOfType(json, 'AWS::Events::Rule').map(([id]) => ({ 'Fn::GetAtt': [id, 'Arn'] }));
    assert.deepEqual(send.Condition.ArnEquals['aws:SourceArn'], rules);
  });

  it("scan's asynchronous invokes (the schedule) go to the queue when they fail every retry", () => {
    const [[, config]] = resourcesOfType(json, 'AWS::Lambda::EventInvokeConfig');
    assert.deepEqual(config.Properties.FunctionName, { Ref: logicalId(json, 'AWS::Lambda::Function', 'ScanFunction') });
    assert.deepEqual(config.Properties.DestinationConfig, { OnFailure: { Destination: { 'Fn::GetAtt': [queue, 'Arn'] } } });
    assert.equal(config.Properties.MaximumRetryAttempts, 2);
  });
});

describe('functions', () => {
  const fn = (json: any, name: string) => json.Resources[logicalId(json, 'AWS::Lambda::Function', `${name}Function`)].Properties;

  it('scan, on-change and revert run on provided.al2023, x86_64 by default (what the project builds and tests), with recognisable logical ids', () => {
    const { json } = synth();
    const ids = resourcesOfType(json, 'AWS::Lambda::Function').map(([id]) => id).filter((id) => !id.startsWith('CustomCDKBucketDeployment'));
    assert.deepEqual(ids.map((id) => id.replace(/Function[0-9A-F]{8}$/, '')).sort(), ['OnChange', 'Revert', 'Scan']);
    for (const name of ['Scan', 'OnChange', 'Revert']) {
      const f = fn(json, name);
      assert.equal(f.Runtime, 'provided.al2023');
      assert.equal(f.Handler, 'bootstrap');
      assert.deepEqual(f.Architectures, ['x86_64']);
      assert.deepEqual(f.LoggingConfig, { LogFormat: 'JSON', LogGroup: { Ref: logicalId(json, 'AWS::Logs::LogGroup', `${name}Logs`) } });
    }
  });

  it('switch to arm64 by context', () => {
    const { json } = synth({ architecture: 'arm64' });
    for (const name of ['Scan', 'OnChange', 'Revert']) assert.deepEqual(fn(json, name).Architectures, ['arm64']);
  });

  it('refuse a zip whose binary is for another machine than the architecture (the ELF header inside the zip)', () => {
    assert.throws(
      () => synth({ architecture: 'arm64', lambdaAssets: stubAssets('x86_64') }),
      /bootstrap\.zip holds a x86_64 binary but the functions are arm64 \(context architecture\): rebuild with scripts\/build-functions\.sh --arm64/,
    );
    assert.throws(() => synth({ architecture: 'x86_64', lambdaAssets: stubAssets('arm64') }), /holds a arm64 binary but the functions are x86_64/);
    const notElf = fs.mkdtempSync(path.join(os.tmpdir(), 'realdrift-notelf-'));
    for (const b of BINARIES) {
      fs.mkdirSync(path.join(notElf, b));
      fs.writeFileSync(path.join(notElf, b, 'bootstrap.zip'), Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]));
    }
    assert.throws(() => synth({ lambdaAssets: notElf }), /has no bootstrap entry/);
  });

  it('read zips from one directory per architecture by default', () => {
    for (const arch of ['x86_64', 'arm64']) {
      const app = synth({ architecture: arch }).app;
      const config = loadConfig((k) => (k === 'lambdaAssets' ? undefined : app.node.tryGetContext(k)));
      assert.equal(config.lambdaAssets, path.join(REPO, 'target', 'lambda', arch));
    }
  });

  it('keep logs 30 days by default, as context logRetentionDays says otherwise (the baselines deployment too)', () => {
    const days = (ctx: Record<string, unknown>) => resourcesOfType(synth(ctx).json, 'AWS::Logs::LogGroup').map(([, g]) => g.Properties.RetentionInDays);
    assert.deepEqual(days({}), [30, 30, 30, 30]);
    assert.deepEqual(days({ logRetentionDays: 90 }), [90, 90, 90, 90]);
    const { json } = synth();
    const [[, deployment]] = resourcesOfType(json, 'AWS::Lambda::Function').filter(([id]) => id.startsWith('CustomCDKBucketDeployment'));
    assert.deepEqual(deployment.Properties.LoggingConfig.LogGroup, { Ref: logicalId(json, 'AWS::Logs::LogGroup', 'StorageBaselinesLogs') });
  });

  it('get the environment the function contract names', () => {
    const { json } = synth({ stacks: ['Prod*', 'Api'], concurrency: 8, logLevel: 'debug', coverageLostAfter: 3, lookupCacheSeconds: 0 });
    const bucket = { Ref: logicalId(json, 'AWS::S3::Bucket', 'StorageBucket') };
    const topic = { Ref: logicalId(json, 'AWS::SNS::Topic', 'AlertsTopic') };
    const common = { REALDRIFT_BUCKET: bucket, REALDRIFT_TOPIC_ARN: topic, REALDRIFT_STACKS: 'Prod*,Api', RUST_LOG: 'debug' };
    const secret = { Ref: logicalId(json, 'AWS::SecretsManager::Secret', 'AlertsSlackWebhook') };
    const reading = { REALDRIFT_SLACK_SECRET_ID: secret, REALDRIFT_CONCURRENCY: '8', REALDRIFT_COVERAGE_LOST_AFTER: '3', REALDRIFT_FLAP_WINDOW_SECONDS: '600', REALDRIFT_STORM_WINDOW_SECONDS: '300', REALDRIFT_STORM_THRESHOLD: '10' };
    assert.deepEqual(fn(json, 'Scan').Environment.Variables, {
      ...common,
      ...reading,
      REALDRIFT_SCAN_QUEUE_URL: { Ref: logicalId(json, 'AWS::SQS::Queue', 'ScanWorkQueue') },
      // Dispatch's in-flight markers last the work queue's visibility timeout.
      REALDRIFT_SCAN_VISIBILITY_SECONDS: String(json.Resources[logicalId(json, 'AWS::SQS::Queue', 'ScanWorkQueue')].Properties.VisibilityTimeout),
    });
    assert.deepEqual(fn(json, 'OnChange').Environment.Variables, {
      ...common,
      ...reading,
      REALDRIFT_REVERT_ROLE_ARN: { 'Fn::GetAtt': [logicalId(json, 'AWS::IAM::Role', 'RevertRole'), 'Arn'] },
      REALDRIFT_LOOKUP_CACHE_SECONDS: '0',
      REALDRIFT_CHANGE_QUEUE_URL: { Ref: logicalId(json, 'AWS::SQS::Queue', 'ChangesQueue') },
    });
    // Revert queues the stack it reverted on the scan work queue.
    assert.deepEqual(fn(json, 'Revert').Environment.Variables, {
      ...common,
      REALDRIFT_SCAN_QUEUE_URL: { Ref: logicalId(json, 'AWS::SQS::Queue', 'ScanWorkQueue') },
    });
    // Empty stack list = every CDK stack of the region; concurrency defaults to 16.
    const defaults = fn(synth().json, 'Scan').Environment.Variables;
    assert.equal(defaults.REALDRIFT_STACKS, '');
    assert.equal(defaults.REALDRIFT_CONCURRENCY, '16');
    assert.equal(defaults.REALDRIFT_COVERAGE_LOST_AFTER, '2');
    assert.equal(fn(synth().json, 'OnChange').Environment.Variables.REALDRIFT_LOOKUP_CACHE_SECONDS, '300');
  });

  it('declare custom metrics only with customMetrics (REALDRIFT_CUSTOM_METRICS=1 for scan and on-change)', () => {
    // Off by default: the variable is absent (the functions read that as 0) and no custom metric is billed.
    const defaults = synth().json;
    for (const name of ['Scan', 'OnChange', 'Revert']) {
      assert.equal(fn(defaults, name).Environment.Variables.REALDRIFT_CUSTOM_METRICS, undefined, name);
    }
    // `-c customMetrics=true` arrives as a string.
    const { json } = synth({ customMetrics: 'true' });
    assert.equal(fn(json, 'Scan').Environment.Variables.REALDRIFT_CUSTOM_METRICS, '1');
    assert.equal(fn(json, 'OnChange').Environment.Variables.REALDRIFT_CUSTOM_METRICS, '1');
    // Revert prints no metric line.
    assert.equal(fn(json, 'Revert').Environment.Variables.REALDRIFT_CUSTOM_METRICS, undefined);
    // No alarm or dashboard reads the realdrift namespace, so none follows the switch.
    const namespaces = [...resourcesOfType(json, 'AWS::CloudWatch::Alarm'), ...resourcesOfType(defaults, 'AWS::CloudWatch::Alarm')].map(
      ([, a]) => a.Properties.Namespace,
    );
    assert.ok(!namespaces.includes('realdrift'), namespaces.join(','));
    assert.deepEqual(resourcesOfType(json, 'AWS::CloudWatch::Dashboard'), []);
    assert.throws(() => synth({ customMetrics: 'yes' }), /context customMetrics: "yes" is not true or false/);
  });

  it('scan reads its work queue and on-change the change queue, reporting partial batch failures; revert has no event source', () => {
    const { json } = synth();
    const mappings = resourcesOfType(json, 'AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties);
    assert.equal(mappings.length, 2);
    const of = (name: string) => mappings.find((m) => m.FunctionName.Ref === logicalId(json, 'AWS::Lambda::Function', `${name}Function`));
    assert.deepEqual(of('Scan')!.EventSourceArn, { 'Fn::GetAtt': [logicalId(json, 'AWS::SQS::Queue', 'ScanWorkQueue'), 'Arn'] });
    assert.equal(of('Scan')!.BatchSize, 5);
    assert.deepEqual(of('Scan')!.ScalingConfig, { MaximumConcurrency: 5 });
    assert.deepEqual(of('OnChange')!.EventSourceArn, { 'Fn::GetAtt': [logicalId(json, 'AWS::SQS::Queue', 'ChangesQueue'), 'Arn'] });
    // On-change: bounded concurrency, and a batching window that gathers a
    // storm's events into few invocations (one alert per stack each).
    assert.deepEqual(
      [of('OnChange')!.ScalingConfig, of('OnChange')!.BatchSize, of('OnChange')!.MaximumBatchingWindowInSeconds],
      [{ MaximumConcurrency: 5 }, 100, 10],
    );
    for (const m of mappings) assert.deepEqual(m.FunctionResponseTypes, ['ReportBatchItemFailures']);
    assert.equal(of('Revert'), undefined);
  });

  it('context sets the event sources: concurrency, batch size and window, and refuses a batch above 10 without a window', () => {
    const { json } = synth({ changeConcurrency: 20, changeBatchSize: 10, changeBatchWindowSeconds: 0, scanConcurrency: 2, flapWindowSeconds: 0, stormWindowSeconds: 120, stormThreshold: 0 });
    const mappings = resourcesOfType(json, 'AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties);
    const of = (name: string) => mappings.find((m) => m.FunctionName.Ref === logicalId(json, 'AWS::Lambda::Function', `${name}Function`))!;
    assert.deepEqual(of('OnChange').ScalingConfig, { MaximumConcurrency: 20 });
    assert.equal(of('OnChange').BatchSize, 10);
    assert.equal(of('OnChange').MaximumBatchingWindowInSeconds, undefined);
    assert.deepEqual(of('Scan').ScalingConfig, { MaximumConcurrency: 2 });
    assert.equal(fn(json, 'OnChange').Environment.Variables.REALDRIFT_FLAP_WINDOW_SECONDS, '0');
    assert.equal(fn(json, 'OnChange').Environment.Variables.REALDRIFT_STORM_WINDOW_SECONDS, '120');
    assert.equal(fn(json, 'Scan').Environment.Variables.REALDRIFT_STORM_THRESHOLD, '0');
    assert.throws(() => synth({ stormWindowSeconds: 3601 }), /context stormWindowSeconds/);
    assert.throws(() => synth({ changeBatchSize: 11, changeBatchWindowSeconds: 0 }), /context changeBatchSize: 11 needs changeBatchWindowSeconds/);
    assert.throws(() => synth({ changeConcurrency: 1 }), /context changeConcurrency: 1 is not an integer from 2 to 1000/);
    assert.throws(() => synth({ changeBatchWindowSeconds: 301 }), /context changeBatchWindowSeconds/);
  });

  it('queue visibility is six times the consumer timeout (plus the batching window)', () => {
    const { json } = synth();
    for (const [queue, name, window] of [
      ['ScanWorkQueue', 'Scan', 0],
      ['ChangesQueue', 'OnChange', 10],
    ] as const) {
      const visibility = json.Resources[logicalId(json, 'AWS::SQS::Queue', queue)].Properties.VisibilityTimeout;
      assert.equal(visibility, fn(json, name).Timeout * 6 + window);
    }
  });

  it('synthesizes without built zips (diff, destroy) but makes CloudFormation refuse the deploy, with the build hint', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'realdrift-empty-'));
    const { json } = synth({ lambdaAssets: empty }) as any;
    const rule = json.Rules.FunctionZipsBuilt;
    assert.deepEqual(rule.Assertions[0].Assert, { 'Fn::Equals': ['not built', 'built'] });
    assert.match(rule.Assertions[0].AssertDescription, /build the functions first \(scripts\/build-functions\.sh --x86-64\)/);
    assert.equal((synth().json as any).Rules?.FunctionZipsBuilt, undefined);
    assert.ok(BINARIES.every((b) => fs.existsSync(path.join(stubAssets(), b, 'bootstrap.zip'))));
  });
});

describe('triggers', () => {
  it('an hourly schedule (context schedule) invokes scan directly', () => {
    const { json } = synth();
    const rules = resourcesOfType(json, 'AWS::Events::Rule').filter(([, r]) => r.Properties.ScheduleExpression);
    assert.equal(rules.length, 1);
    const [, rule] = rules[0];
    assert.equal(rule.Properties.ScheduleExpression, 'rate(1 hour)');
    assert.deepEqual(rule.Properties.Targets[0].Arn, { 'Fn::GetAtt': [logicalId(json, 'AWS::Lambda::Function', 'ScanFunction'), 'Arn'] });
    const other = resourcesOfType(synth({ schedule: 'rate(15 minutes)' }).json, 'AWS::Events::Rule').find(([, r]) => r.Properties.ScheduleExpression);
    assert.equal(other![1].Properties.ScheduleExpression, 'rate(15 minutes)');
  });

  it('the change rules (change-rules.test.ts) all feed the change queue, whole events', () => {
    const { json } = synth();
    const rules = resourcesOfType(json, 'AWS::Events::Rule').filter(([, r]) => r.Properties.EventPattern);
    assert.ok(rules.length > 1);
    for (const [, rule] of rules) {
      assert.deepEqual(rule.Properties.Targets.map((t: any) => t.Arn), [
        { 'Fn::GetAtt': [logicalId(json, 'AWS::SQS::Queue', 'ChangesQueue'), 'Arn'] },
      ]);
      // The whole event is the message body (no input transformation).
      assert.equal(rule.Properties.Targets[0].InputTransformer, undefined);
    }
  });

  it('fails synth naming the event table when it is missing or empty', () => {
    assert.throws(() => synth({ cloudtrailEventsFile: '/nonexistent/events.json' }), /CloudTrail event table \/nonexistent\/events\.json: ENOENT/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'realdrift-events-'));
    const file = path.join(dir, 'empty.json');
    fs.writeFileSync(file, '{"events": []}');
    assert.throws(() => synth({ cloudtrailEventsFile: file }), /no "events" entries/);
  });

  it('creates a multi-Region trail logging write management events only when context asks', () => {
    assert.equal(resourcesOfType(synth().json, 'AWS::CloudTrail::Trail').length, 0);
    const { template } = synth({ createTrail: true, trailRetentionDays: 30 });
    template.hasResourceProperties('AWS::CloudTrail::Trail', {
      IsLogging: true,
      IncludeGlobalServiceEvents: true,
      // Global services' events happen in us-east-1: only a multi-Region trail records them from elsewhere.
      IsMultiRegionTrail: true,
      EventSelectors: Match.arrayWith([Match.objectLike({ IncludeManagementEvents: true, ReadWriteType: 'WriteOnly' })]),
    });
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: 30 })] },
    });
  });
});

describe('outputs', () => {
  it('name the bucket, the topic, the revert function and a ready dry-run invoke', () => {
    const { json } = synth();
    const outputs = json.Outputs!;
    assert.deepEqual(outputs.BucketName.Value, { Ref: logicalId(json, 'AWS::S3::Bucket', 'StorageBucket') });
    assert.deepEqual(outputs.TopicArn.Value, { Ref: logicalId(json, 'AWS::SNS::Topic', 'AlertsTopic') });
    const revert = { Ref: logicalId(json, 'AWS::Lambda::Function', 'RevertFunction') };
    assert.deepEqual(outputs.RevertFunctionName.Value, revert);
    const [sep, parts] = outputs.RevertDryRunCommand.Value['Fn::Join'];
    assert.equal(sep, '');
    assert.deepEqual(parts[1], revert);
    const command = parts.map((p: unknown) => (typeof p === 'string' ? p : 'FUNCTION')).join('');
    assert.equal(
      command,
      `aws lambda invoke --function-name FUNCTION --cli-binary-format raw-in-base64-out --payload '{"stack":"MyStack","dryRun":true}' revert-plan.json`,
    );
    assert.equal(outputs.SyncRoleArn, undefined);
  });
});
