// The one realdrift stack: storage, alerts, queues, the three functions with
// their permissions, triggers, the optional baselines sync role, and outputs.
import { CfnOutput, Duration, Fn, Stack, StackProps, Validations } from 'aws-cdk-lib';
import * as cloudtrail from 'aws-cdk-lib/aws-cloudtrail';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { Alerts } from './alerts';
import { FailureRouting } from './failures';
import { RealdriftConfig } from './config';
import { ChangePattern, changePatterns, loadChangeRuleFacts } from './change-patterns';
import { loadEventNames } from './event-sources';
import { RealdriftFunction } from './functions';
import {
  ReadPolicies,
  denyDataPlaneStatements,
  denyOwnIamStatements,
  readerStatement,
  revertWriteStatements,
} from './permissions';
import { WorkQueue } from './queues';
import {
  RevertInvokePolicy,
  boundaryStatements,
  denyOwnResourcesStatement,
  ownPolicyName,
  ownResourceArns,
  policyArnByName,
} from './revert-guard';
import { Storage } from './storage';
import { SyncRole } from './sync-role';
import { Triggers } from './triggers';

/** Function timeouts; queue visibility follows AWS's advice of six times the consumer's timeout. */
const SCAN_TIMEOUT = Duration.minutes(15);
const ON_CHANGE_TIMEOUT = Duration.minutes(2);
const REVERT_TIMEOUT = Duration.minutes(10);

/** realdrift, installed in one account and region. */
export class RealdriftStack extends Stack {
  readonly storage: Storage;
  readonly alerts: Alerts;
  readonly scan: RealdriftFunction;
  readonly onChange: RealdriftFunction;
  readonly revert: RealdriftFunction;
  readonly scanQueue: WorkQueue;
  readonly changeQueue: WorkQueue;
  readonly readPolicies: ReadPolicies;
  readonly failures: FailureRouting;
  /** The change rules' patterns, generated from the event table. */
  readonly changePatterns: ChangePattern[];

  constructor(scope: Construct, id: string, config: RealdriftConfig, props?: StackProps) {
    super(scope, id, props);
    this.changePatterns = changePatterns(loadEventNames(config.cloudtrailEventsFile), loadChangeRuleFacts());

    this.storage = new Storage(this, 'Storage', config);
    this.alerts = new Alerts(this, 'Alerts', config);
    const topic = this.alerts.topic;

    const work = (this.scanQueue = new WorkQueue(this, 'ScanWork', {
      purpose: 'stack scans',
      visibilityTimeout: Duration.seconds(SCAN_TIMEOUT.toSeconds() * 6),
      maxReceiveCount: 3,
      maxAge: Duration.hours(2),
      alarmTopic: topic,
    }));
    const changes = (this.changeQueue = new WorkQueue(this, 'Changes', {
      purpose: 'change events',
      // Six times the timeout plus the batching window, as Lambda advises for SQS sources.
      visibilityTimeout: Duration.seconds(ON_CHANGE_TIMEOUT.toSeconds() * 6 + config.changeBatchWindowSeconds),
      deliveryDelay: Duration.seconds(config.changeDelaySeconds),
      maxReceiveCount: 3,
      maxAge: Duration.minutes(30),
      alarmTopic: topic,
    }));

    const common = {
      REALDRIFT_BUCKET: this.storage.bucket.bucketName,
      REALDRIFT_TOPIC_ARN: topic.topicArn,
      REALDRIFT_STACKS: config.stacks.join(','),
      RUST_LOG: config.logLevel,
    };
    const reading = {
      REALDRIFT_SLACK_SECRET_ID: this.alerts.slackSecretId,
      REALDRIFT_CONCURRENCY: String(config.concurrency),
      REALDRIFT_COVERAGE_LOST_AFTER: String(config.coverageLostAfter),
      REALDRIFT_FLAP_WINDOW_SECONDS: String(config.flapWindowSeconds),
    };

    this.revert = new RealdriftFunction(this, 'Revert', config, {
      binary: 'realdrift-revert',
      description: 'realdrift: writes the intended values back (dry run, then apply)',
      memorySize: 512,
      timeout: REVERT_TIMEOUT,
      // An applied revert queues its stack for a scan at once (the resolved alert follows).
      environment: { ...common, REALDRIFT_SCAN_QUEUE_URL: work.queue.queueUrl },
      alarmTopic: topic,
    });
    this.scan = new RealdriftFunction(this, 'Scan', config, {
      binary: 'realdrift-scan',
      description: 'realdrift: scheduled scan (dispatch one message per stack, then scan each)',
      memorySize: 512,
      timeout: SCAN_TIMEOUT,
      environment: {
        ...common,
        ...reading,
        REALDRIFT_SCAN_QUEUE_URL: work.queue.queueUrl,
        // How long dispatch treats a queued stack as in flight.
        REALDRIFT_SCAN_VISIBILITY_SECONDS: String(SCAN_TIMEOUT.toSeconds() * 6),
      },
      alarmTopic: topic,
    });
    this.onChange = new RealdriftFunction(this, 'OnChange', config, {
      binary: 'realdrift-on-change',
      description: 'realdrift: re-reads the resources a CloudTrail write event touched',
      memorySize: 256,
      timeout: ON_CHANGE_TIMEOUT,
      environment: {
        ...common,
        ...reading,
        REALDRIFT_REVERT_ROLE_ARN: this.revert.role.roleArn,
        REALDRIFT_LOOKUP_CACHE_SECONDS: String(config.lookupCacheSeconds),
      },
      alarmTopic: topic,
    });

    this.scan.function.addEventSource(
      new SqsEventSource(work.queue, { batchSize: 5, reportBatchItemFailures: true, maxConcurrency: config.scanConcurrency }),
    );
    work.queue.grantSendMessages(this.scan.role);
    work.queue.grantSendMessages(this.revert.role);
    this.onChange.function.addEventSource(
      new SqsEventSource(changes.queue, {
        batchSize: config.changeBatchSize,
        maxBatchingWindow: config.changeBatchWindowSeconds > 0 ? Duration.seconds(config.changeBatchWindowSeconds) : undefined,
        maxConcurrency: config.changeConcurrency,
        reportBatchItemFailures: true,
      }),
    );

    this.readPolicies = new ReadPolicies(this, 'ReadPolicies');
    this.grantPermissions(config);
    const triggers = new Triggers(this, 'Triggers', config, {
      scan: this.scan.function,
      changeQueue: changes.queue,
      patterns: this.changePatterns,
    });

    this.addOutputs(config);
    this.failures = new FailureRouting(this, 'FailedTriggers', { alarmTopic: topic, scan: this.scan.function });
    this.failures.routeRules(this);
    this.guardRevert(config, triggers.trail);
  }

  /**
   * Runs last, once every resource exists: the explicit deny of realdrift's
   * own resources for revert, who may invoke it, and (with the app's trail)
   * a data event for every invoke, which records the caller's identity the
   * function itself cannot see.
   */
  private guardRevert(config: RealdriftConfig, trail?: cloudtrail.Trail): void {
    new iam.ManagedPolicy(this, 'RevertGuard', {
      managedPolicyName: ownPolicyName(this, 'revert-guard'),
      description: "realdrift: denies revert everything on realdrift's own resources but reading its bucket, publishing and logging",
      statements: [denyOwnResourcesStatement(ownResourceArns(this))],
      roles: [this.revert.role],
    });
    new RevertInvokePolicy(this, 'RevertInvokers', this.revert.function, config.revertInvokers);
    trail?.addLambdaEventSelector([this.revert.function], {
      includeManagementEvents: false,
      readWriteType: cloudtrail.ReadWriteType.ALL,
    });
  }

  /** Each function's grants (reads for all three, writes for revert) and the explicit denies. */
  private grantPermissions(config: RealdriftConfig): void {
    const readPolicies = this.readPolicies;
    const all = [this.scan, this.onChange, this.revert];
    for (const fn of all) {
      readPolicies.attachTo(fn.role);
      fn.role.addToPrincipalPolicy(readerStatement());
    }
    this.storage.grant(this.scan.role, ['baselines', 'state', 'index', 'cache'], ['state', 'index', 'cache']);
    this.storage.grant(this.onChange.role, ['baselines', 'state', 'index', 'cache'], ['state', 'index', 'cache']);
    this.storage.grant(this.revert.role, ['baselines', 'state', 'index'], []);
    this.alerts.grant(this.scan.role, true);
    this.alerts.grant(this.onChange.role, true);
    this.alerts.grant(this.revert.role, false);
    for (const s of revertWriteStatements({
      types: config.revertTypes,
      iamTypes: config.revertIamTypes,
      passRoles: config.revertPassRoles,
      stacks: config.stacks,
    })) {
      this.revert.role.addToPrincipalPolicy(s);
    }

    const boundary = config.revertPermissionsBoundary
      ? config.revertPermissionsBoundary.startsWith('arn:')
        ? iam.ManagedPolicy.fromManagedPolicyArn(this, 'RevertBoundary', config.revertPermissionsBoundary)
        : iam.ManagedPolicy.fromManagedPolicyName(this, 'RevertBoundary', config.revertPermissionsBoundary)
      : new iam.ManagedPolicy(this, 'RevertBoundary', {
          managedPolicyName: ownPolicyName(this, 'revert-boundary'),
          description: 'realdrift: permissions boundary of the revert role (no IAM/STS/Organizations writes unless opted in, nothing on realdrift itself)',
          statements: boundaryStatements(config.revertIamTypes, config.revertPassRoles),
        });
    iam.PermissionsBoundary.of(this.revert.role).apply(boundary);
    if (boundary instanceof iam.ManagedPolicy) {
      Validations.of(boundary).acknowledge({
        id: 'CloudFormation-Validate::W2512',
        reason: 'a permissions boundary is a ceiling: NotAction allows all but IAM, STS, Organizations and account calls',
      });
    }

    const own = {
      roleArns: all.map((f) => f.role.roleArn),
      policyArns: [
        ...readPolicies.policies.map((p) => p.managedPolicyArn),
        boundary.managedPolicyArn,
        policyArnByName(ownPolicyName(this, 'revert-guard')),
      ],
    };
    for (const fn of all) {
      const slack = fn !== this.revert ? this.alerts.slackSecretPolicyArn : undefined;
      for (const s of [
        ...denyOwnIamStatements(own),
        ...denyDataPlaneStatements({ bucketObjects: this.storage.bucket.arnForObjects('*'), slackSecretArn: slack }),
      ]) {
        fn.role.addToPrincipalPolicy(s);
      }
    }

  }

  /** The outputs an operator needs after deploy. */
  private addOutputs(config: RealdriftConfig): void {
    const topic = this.alerts.topic;
    new CfnOutput(this, 'BucketName', {
      description: 'realdrift bucket (baselines/, state/, index/, cache/)',
      value: this.storage.bucket.bucketName,
    });
    new CfnOutput(this, 'TopicArn', { description: 'alert topic', value: topic.topicArn });
    new CfnOutput(this, 'SlackSecretId', {
      description: 'secret holding the Slack webhook URL',
      value: this.alerts.slackSecretId,
    });
    new CfnOutput(this, 'RevertFunctionName', {
      description: 'the revert function (invoke it directly)',
      value: this.revert.function.functionName,
    });
    new CfnOutput(this, 'RevertDryRunCommand', {
      description: 'plan a revert of one stack without writing anything (replace MyStack)',
      value: Fn.join('', [
        'aws lambda invoke --function-name ',
        this.revert.function.functionName,
        ` --cli-binary-format raw-in-base64-out --payload '{"stack":"MyStack","dryRun":true}' revert-plan.json`,
      ]),
    });

    if (config.githubRepository) {
      const sync = new SyncRole(this, 'BaselinesSync', { ...config, githubRepository: config.githubRepository }, this.storage.bucket);
      new CfnOutput(this, 'SyncRoleArn', {
        description: 'role the baselines sync workflow assumes (GitHub OIDC)',
        value: sync.role.roleArn,
      });
    }
  }
}
