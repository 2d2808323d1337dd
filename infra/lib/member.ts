// RealdriftMember: what runs in each watched account and Region — the scan,
// on-change and revert functions with their permissions, their queues, the
// schedule and change rules, and the revert guard. It keeps no alert channel
// or baselines of its own: the props name where they live (the hub's, or an
// account's own in the one-stack install).
import { Aws, Duration, Stack, Validations } from 'aws-cdk-lib';
import * as cloudtrail from 'aws-cdk-lib/aws-cloudtrail';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { Alerts } from './alerts';
import { ChangePattern } from './change-patterns';
import { Architecture } from './config';
import { FailureRouting } from './failures';
import { RealdriftFunction } from './functions';
import { ReadPolicies, denyDataPlaneStatements, denyOwnIamStatements, readerStatement, revertWriteStatements } from './permissions';
import { WorkQueue } from './queues';
import {
  RevertInvokePolicy,
  boundaryStatements,
  denyOwnResourcesStatement,
  ownPolicyName,
  ownResourceArns,
  policyArnByName,
} from './revert-guard';
import { grantPrefixes } from './storage';
import { Triggers } from './triggers';
import { validateMemberProps } from './member-props';

/** Function timeouts; queue visibility follows AWS's advice of six times the consumer's timeout. */
const SCAN_TIMEOUT = Duration.minutes(15);
const ON_CHANGE_TIMEOUT = Duration.minutes(2);
const REVERT_TIMEOUT = Duration.minutes(10);

/** What revert may write and who may ask it to (docs/deploy.md, "Revert"). */
export interface RevertSettings {
  /** Non-IAM resource types revert may write (update handler actions; delete only for out-of-band child types). */
  readonly types: string[];
  /** IAM resource types a team opts into. */
  readonly iamTypes: string[];
  /** Role ARNs (globs allowed) that may invoke revert; empty = nobody. */
  readonly invokers: string[];
  /** Role ARNs (globs allowed) revert may pass to a service. */
  readonly passRoles: string[];
  /** Managed policy (name or ARN) used as the revert role's boundary; undefined = the one the member ships. */
  readonly permissionsBoundary?: string;
}

/** Where a member's findings go. */
export interface MemberFindingsTarget {
  /**
   * Alert topic and Slack secret the functions publish to directly (the
   * one-stack install; in an Organization, the member's own topic, which
   * also receives its alarms).
   */
  readonly alerts: Alerts;
  /** The hub's findings bus: every transition is also put there as an event (docs/organization.md). */
  readonly findingsBusArn?: string;
}

/** Typed, validated props of a member. */
export interface RealdriftMemberProps {
  /** The bucket of state/, index/ and cache/ (and of baselines/ unless `baselinesBucket` is given). */
  readonly bucket: s3.IBucket;
  /** The hub's bucket holding baselines/ when it is not `bucket` (read only: the member's own account's files). */
  readonly baselinesBucket?: s3.IBucket;
  /** Where alerts and findings go. */
  readonly findings: MemberFindingsTarget;
  /** Stack-name globs watched; empty = every CDK stack of the Region. */
  readonly stacks: string[];
  /** EventBridge schedule expression of the full scan (`rate(1 hour)`). */
  readonly schedule: string;
  /** The change rules' patterns (change-patterns.ts, from the engine's event table the app loads). */
  readonly changePatterns: ChangePattern[];
  /** Parallel resource reads per stack, 1-128. */
  readonly concurrency: number;
  /** Consecutive failed reads of a resource before coverage-lost, 1-100. */
  readonly coverageLostAfter: number;
  /** Seconds on-change remembers that no stack owns a physical id, 0-86400. */
  readonly lookupCacheSeconds: number;
  /** Seconds a change event waits before on-change reads, 0-900. */
  readonly changeDelaySeconds: number;
  /** Parallel scan workers (the work queue's event source maximum concurrency), 2-1000. */
  readonly scanConcurrency: number;
  /** On-change's event source maximum concurrency, 2-1000 (Lambda ScalingConfig). */
  readonly changeConcurrency: number;
  /** Change events per on-change invocation, 1-10000. */
  readonly changeBatchSize: number;
  /** Seconds the event source gathers a batch, 0-300 (at least 1 above 10 messages). */
  readonly changeBatchWindowSeconds: number;
  /** Seconds in which a value flipped back and forth is announced once then summarized, 0-86400. */
  readonly flapWindowSeconds: number;
  /** Seconds in which a burst of changed resources opens a storm, and the quiet that closes it, 0-3600 (0: off). */
  readonly stormWindowSeconds: number;
  /** Changed resources inside one storm window that open a storm, 0-10000 (0: off). */
  readonly stormThreshold: number;
  /** RUST_LOG of the functions. */
  readonly logLevel: string;
  /** Days the functions' logs are kept (a CloudWatch Logs retention value). */
  readonly logRetentionDays: number;
  /** Lambda architecture. */
  readonly architecture: Architecture;
  /** Directory holding <binary>/bootstrap.zip; ignored for binaries `code` answers. */
  readonly lambdaAssets: string;
  /** Where each function's code comes from instead (a StackSet member reads it from a regional bucket). */
  readonly code?: (binary: string) => lambda.Code | undefined;
  /** Create a multi-Region trail for management events (accounts without one). */
  readonly createTrail: boolean;
  /** Days the trail's log files are kept. */
  readonly trailRetentionDays: number;
  /** What revert may write and who may invoke it. */
  readonly revert: RevertSettings;
  /**
   * Import each drift transition into this account's Security Hub as ASFF
   * findings (one per drifted property; Security Hub must be enabled in the
   * account and Region). Default false.
   */
  readonly securityHub?: boolean;
  /**
   * Declare scan's and on-change's 3 custom metrics in CloudWatch
   * (`REALDRIFT_CUSTOM_METRICS=1`, docs/functions.md "Metrics"; each billed
   * as a custom metric). Default false: every figure is a log field only.
   */
  readonly customMetrics?: boolean;
}

/** scan, on-change and revert with their queues, rules, roles and guards, in one account and Region. */
export class RealdriftMember extends Construct {
  readonly scan: RealdriftFunction;
  readonly onChange: RealdriftFunction;
  readonly revert: RealdriftFunction;
  readonly scanQueue: WorkQueue;
  readonly changeQueue: WorkQueue;
  readonly readPolicies: ReadPolicies;
  readonly failures: FailureRouting;
  readonly triggers: Triggers;
  /** The change rules' patterns. */
  readonly changePatterns: ChangePattern[];
  private readonly props: RealdriftMemberProps;

  constructor(scope: Construct, id: string, props: RealdriftMemberProps) {
    super(scope, id);
    validateMemberProps(props);
    this.props = props;
    this.changePatterns = props.changePatterns;
    const alerts = props.findings.alerts;
    const topic = alerts.topic;

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
      visibilityTimeout: Duration.seconds(ON_CHANGE_TIMEOUT.toSeconds() * 6 + props.changeBatchWindowSeconds),
      deliveryDelay: Duration.seconds(props.changeDelaySeconds),
      maxReceiveCount: 3,
      maxAge: Duration.minutes(30),
      alarmTopic: topic,
    }));

    const common: Record<string, string> = {
      REALDRIFT_BUCKET: props.bucket.bucketName,
      REALDRIFT_TOPIC_ARN: topic.topicArn,
      REALDRIFT_STACKS: props.stacks.join(','),
      RUST_LOG: props.logLevel,
      ...this.orgEnvironment(),
    };
    const reading = {
      REALDRIFT_SLACK_SECRET_ID: alerts.slackSecretId,
      REALDRIFT_CONCURRENCY: String(props.concurrency),
      REALDRIFT_COVERAGE_LOST_AFTER: String(props.coverageLostAfter),
      REALDRIFT_FLAP_WINDOW_SECONDS: String(props.flapWindowSeconds),
      REALDRIFT_STORM_WINDOW_SECONDS: String(props.stormWindowSeconds),
      REALDRIFT_STORM_THRESHOLD: String(props.stormThreshold),
      // Security Hub import; the partition of the product ARN, which the function cannot tell on its own.
      ...(props.securityHub ? { REALDRIFT_SECURITY_HUB: '1', REALDRIFT_PARTITION: Aws.PARTITION } : {}),
      // Off (unset): the figures stay log fields and no custom metric is billed.
      ...(props.customMetrics ? { REALDRIFT_CUSTOM_METRICS: '1' } : {}),
    };
    const settings = { architecture: props.architecture, lambdaAssets: props.lambdaAssets, logRetentionDays: props.logRetentionDays };

    this.revert = new RealdriftFunction(this, 'Revert', settings, {
      binary: 'realdrift-revert',
      description: 'realdrift: writes the intended values back (dry run, then apply)',
      memorySize: 512,
      timeout: REVERT_TIMEOUT,
      // An applied revert queues its stack for a scan at once (the resolved alert follows).
      environment: { ...common, REALDRIFT_SCAN_QUEUE_URL: work.queue.queueUrl },
      alarmTopic: topic,
      code: props.code?.('realdrift-revert'),
    });
    this.scan = new RealdriftFunction(this, 'Scan', settings, {
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
      code: props.code?.('realdrift-scan'),
    });
    this.onChange = new RealdriftFunction(this, 'OnChange', settings, {
      binary: 'realdrift-on-change',
      description: 'realdrift: re-reads the resources a CloudTrail write event touched',
      memorySize: 256,
      timeout: ON_CHANGE_TIMEOUT,
      environment: {
        ...common,
        ...reading,
        REALDRIFT_REVERT_ROLE_ARN: this.revert.role.roleArn,
        REALDRIFT_LOOKUP_CACHE_SECONDS: String(props.lookupCacheSeconds),
        // A held storm's delayed flush goes to on-change's own queue.
        REALDRIFT_CHANGE_QUEUE_URL: changes.queue.queueUrl,
      },
      alarmTopic: topic,
      code: props.code?.('realdrift-on-change'),
    });

    this.scan.function.addEventSource(
      new SqsEventSource(work.queue, { batchSize: 5, reportBatchItemFailures: true, maxConcurrency: props.scanConcurrency }),
    );
    work.queue.grantSendMessages(this.scan.role);
    work.queue.grantSendMessages(this.revert.role);
    // On-change sends a held storm's flush to its own queue, and nowhere else.
    changes.queue.grantSendMessages(this.onChange.role);
    this.onChange.function.addEventSource(
      new SqsEventSource(changes.queue, {
        batchSize: props.changeBatchSize,
        maxBatchingWindow: props.changeBatchWindowSeconds > 0 ? Duration.seconds(props.changeBatchWindowSeconds) : undefined,
        maxConcurrency: props.changeConcurrency,
        reportBatchItemFailures: true,
      }),
    );

    this.readPolicies = new ReadPolicies(this, 'ReadPolicies');
    this.grantPermissions();
    this.triggers = new Triggers(this, 'Triggers', props, {
      scan: this.scan.function,
      changeQueue: changes.queue,
      patterns: this.changePatterns,
    });
    this.failures = new FailureRouting(this, 'FailedTriggers', { alarmTopic: topic, scan: this.scan.function });
  }

  /**
   * Runs once every resource of the stack exists (the stack calls it last):
   * dead-letter routing of every rule, the explicit deny of realdrift's own
   * resources for revert, who may invoke it, and (with the member's trail) a
   * data event for every invoke, which records the caller's identity the
   * function itself cannot see.
   */
  finish(): void {
    const stack = Stack.of(this);
    this.failures.routeRules(stack);
    new iam.ManagedPolicy(this, 'RevertGuard', {
      managedPolicyName: ownPolicyName(stack, 'revert-guard'),
      description: "realdrift: denies revert everything on realdrift's own resources but reading its bucket, publishing and logging",
      statements: [denyOwnResourcesStatement(ownResourceArns(stack))],
      roles: [this.revert.role],
    });
    new RevertInvokePolicy(this, 'RevertInvokers', this.revert.function, this.props.revert.invokers);
    this.triggers.trail?.addLambdaEventSelector([this.revert.function], {
      includeManagementEvents: false,
      readWriteType: cloudtrail.ReadWriteType.ALL,
    });
  }

  /** The variables that send findings to the hub's bus and read baselines from its bucket, when set. */
  private orgEnvironment(): Record<string, string> {
    const p = this.props;
    const env: Record<string, string> = {};
    if (p.findings.findingsBusArn) env.REALDRIFT_EVENT_BUS_ARN = p.findings.findingsBusArn;
    if (p.baselinesBucket) env.REALDRIFT_BASELINES_BUCKET = p.baselinesBucket.bucketName;
    return env;
  }

  /** Each function's grants (reads for all three, writes for revert) and the explicit denies. */
  private grantPermissions(): void {
    const p = this.props;
    const alerts = p.findings.alerts;
    const readPolicies = this.readPolicies;
    const all = [this.scan, this.onChange, this.revert];
    for (const fn of all) {
      readPolicies.attachTo(fn.role);
      fn.role.addToPrincipalPolicy(readerStatement());
    }
    const own = p.baselinesBucket ? [] : (['baselines'] as const);
    grantPrefixes(this.scan.role, p.bucket, [...own, 'state', 'index', 'cache'], ['state', 'index', 'cache']);
    grantPrefixes(this.onChange.role, p.bucket, [...own, 'state', 'index', 'cache'], ['state', 'index', 'cache']);
    grantPrefixes(this.revert.role, p.bucket, [...own, 'state', 'index'], []);
    if (p.baselinesBucket) {
      for (const fn of all) grantPrefixes(fn.role, p.baselinesBucket, ['baselines'], []);
      // The scan writes each stack's status document for the hub's report.
      this.scan.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
          resources: [p.baselinesBucket.arnForObjects(`org/${Stack.of(this).account}/*`)],
        }),
      );
    }
    alerts.grant(this.scan.role, true);
    alerts.grant(this.onChange.role, true);
    alerts.grant(this.revert.role, false);
    this.grantFindingsTargets([this.scan, this.onChange]);
    for (const s of revertWriteStatements({
      types: p.revert.types,
      iamTypes: p.revert.iamTypes,
      passRoles: p.revert.passRoles,
      stacks: p.stacks,
    })) {
      this.revert.role.addToPrincipalPolicy(s);
    }
    const boundary = this.revertBoundary();
    const ownIam = {
      roleArns: all.map((f) => f.role.roleArn),
      policyArns: [
        ...readPolicies.policies.map((x) => x.managedPolicyArn),
        boundary.managedPolicyArn,
        policyArnByName(ownPolicyName(Stack.of(this), 'revert-guard')),
      ],
    };
    for (const fn of all) {
      const slack = fn !== this.revert ? alerts.slackSecretPolicyArn : undefined;
      for (const s of [
        ...denyOwnIamStatements(ownIam),
        ...denyDataPlaneStatements({
          bucketObjects: p.bucket.arnForObjects('*'),
          baselineObjects: p.baselinesBucket?.arnForObjects('baselines/*'),
          slackSecretArn: slack,
        }),
      ]) {
        fn.role.addToPrincipalPolicy(s);
      }
    }
  }

  /**
   * PutEvents on the hub's bus and, with `securityHub`, BatchImportFindings
   * on the account's own default product (the only product an account may
   * import its own findings into), for the functions that announce transitions.
   */
  private grantFindingsTargets(fns: RealdriftFunction[]): void {
    const f = this.props.findings;
    for (const fn of fns) {
      if (f.findingsBusArn) {
        events.EventBus.fromEventBusArn(this, `${fn.node.id}FindingsBus`, f.findingsBusArn).grantPutEventsTo(fn.role);
      }
      if (this.props.securityHub) {
        fn.role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            actions: ['securityhub:BatchImportFindings'],
            resources: [`arn:${Aws.PARTITION}:securityhub:${Aws.REGION}:${Aws.ACCOUNT_ID}:product/${Aws.ACCOUNT_ID}/default`],
          }),
        );
      }
    }
  }

  /** The revert role's permissions boundary: the one named in props, or the one the member ships. */
  private revertBoundary(): iam.IManagedPolicy {
    const r = this.props.revert;
    const boundary = r.permissionsBoundary
      ? r.permissionsBoundary.startsWith('arn:')
        ? iam.ManagedPolicy.fromManagedPolicyArn(this, 'RevertBoundary', r.permissionsBoundary)
        : iam.ManagedPolicy.fromManagedPolicyName(this, 'RevertBoundary', r.permissionsBoundary)
      : new iam.ManagedPolicy(this, 'RevertBoundary', {
          managedPolicyName: ownPolicyName(Stack.of(this), 'revert-boundary'),
          description: 'realdrift: permissions boundary of the revert role (no IAM/STS/Organizations writes unless opted in, nothing on realdrift itself)',
          statements: boundaryStatements(r.iamTypes, r.passRoles),
        });
    iam.PermissionsBoundary.of(this.revert.role).apply(boundary);
    if (boundary instanceof iam.ManagedPolicy) {
      Validations.of(boundary).acknowledge({
        id: 'CloudFormation-Validate::W2512',
        reason: 'a permissions boundary is a ceiling: NotAction allows all but IAM, STS, Organizations and account calls',
      });
    }
    return boundary;
  }
}
