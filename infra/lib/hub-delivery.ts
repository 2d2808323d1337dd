// The hub's function (realdrift-hub) and what feeds it: ONE rule on the
// findings bus sends every member transition to an SQS queue (with its
// dead-letter queue and alarms) that the function consumes with partial
// batch failures; it names the account (the operator's map, else
// Organizations DescribeAccount), publishes to the alert topic and posts to
// Slack. A schedule invokes it for the Organization summary, which it
// writes to the hub bucket as org/summary.html and announces.
//
// Its role: the queue (the event source grants it), publish to the topic
// with its key, read the Slack secret (and its key when given),
// organizations:DescribeAccount on the Organization's accounts only, list
// the bucket, read org/ and write org/summary.html. Nothing else.
import { Aws, Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { Alerts } from './alerts';
import { FunctionSettings, RealdriftFunction } from './functions';
import { WorkQueue } from './queues';

/** The hub function's binary. */
export const HUB_BINARY = 'realdrift-hub';
/** The summary page's key in the hub bucket: outside `org/<account>/`, so no member may write it. */
export const SUMMARY_KEY = 'org/summary.html';
/** The schedule's input that asks for the summary. */
export const SUMMARY_INPUT = { realdrift: 'summary' };
/** Slack is paced at one post a second (with retries): a batch of 10 fits well within this. */
const HUB_TIMEOUT = Duration.minutes(2);

/** What the hub's delivery needs. */
export interface HubDeliveryProps {
  readonly bus: events.IEventBus;
  readonly pattern: events.EventPattern;
  readonly alerts: Alerts;
  readonly bucket: s3.IBucket;
  readonly organizationId: string;
  readonly accountNames: Record<string, string>;
  /** The summary's schedule (an EventBridge `rate(...)` or `cron(...)` expression). */
  readonly summarySchedule: string;
  readonly functions: FunctionSettings;
  readonly logLevel: string;
}

/** The delivery queue, the hub function, its bus rule and its summary schedule. */
export class HubDelivery extends Construct {
  readonly queue: WorkQueue;
  readonly fn: RealdriftFunction;

  constructor(scope: Construct, id: string, props: HubDeliveryProps) {
    super(scope, id);
    const topic = props.alerts.topic;
    this.queue = new WorkQueue(this, 'Queue', {
      purpose: 'member transitions at the hub',
      // Six times the timeout, as Lambda advises for SQS sources.
      visibilityTimeout: Duration.seconds(HUB_TIMEOUT.toSeconds() * 6),
      maxReceiveCount: 3,
      maxAge: Duration.minutes(30),
      alarmTopic: topic,
    });
    this.fn = new RealdriftFunction(this, 'Function', props.functions, {
      binary: HUB_BINARY,
      description: "realdrift hub: delivers members' transitions to the topic and Slack with the account's name; the scheduled summary",
      memorySize: 256,
      timeout: HUB_TIMEOUT,
      environment: {
        REALDRIFT_BUCKET: props.bucket.bucketName,
        REALDRIFT_TOPIC_ARN: topic.topicArn,
        REALDRIFT_SLACK_SECRET_ID: props.alerts.slackSecretId,
        REALDRIFT_ACCOUNT_NAMES: JSON.stringify(props.accountNames),
        RUST_LOG: props.logLevel,
      },
      alarmTopic: topic,
    });
    this.fn.function.addEventSource(new SqsEventSource(this.queue.queue, { batchSize: 10, reportBatchItemFailures: true }));
    new events.Rule(this, 'Deliver', {
      eventBus: props.bus,
      description: 'realdrift: member transitions to the hub function (names, topic, Slack)',
      eventPattern: props.pattern,
      targets: [new targets.SqsQueue(this.queue.queue, { deadLetterQueue: this.queue.deadLetterQueue })],
    });
    new events.Rule(this, 'Summary', {
      description: 'realdrift: the Organization summary (org/summary.html, topic, Slack)',
      schedule: events.Schedule.expression(props.summarySchedule),
      targets: [new targets.LambdaFunction(this.fn.function, { event: events.RuleTargetInput.fromObject(SUMMARY_INPUT), retryAttempts: 2 })],
    });
    this.grant(props);
  }

  /** The role's grants beyond the queue's (the event source adds those). */
  private grant(props: HubDeliveryProps): void {
    const role = this.fn.role;
    props.alerts.grant(role, true);
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['organizations:DescribeAccount'],
        // arn:<partition>:organizations::<management account>:account/<org id>/<account>
        // (the management account is not known at synth: any, within this Organization).
        resources: [`arn:${Aws.PARTITION}:organizations::*:account/${props.organizationId}/*`],
      }),
    );
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [props.bucket.bucketArn] }));
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [props.bucket.arnForObjects('org/*')] }));
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [props.bucket.arnForObjects(SUMMARY_KEY)] }));
  }
}
