// An SQS work queue with its dead-letter queue and the alarms that say work
// is failing (messages in the DLQ) or piling up (oldest message too old).
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cwActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** How one work queue behaves. */
export interface WorkQueueProps {
  /** At least the consuming function's timeout; AWS recommends six times it. */
  readonly visibilityTimeout: Duration;
  /** Delay before a message becomes visible (lets changes settle). */
  readonly deliveryDelay?: Duration;
  /** Receives before a message moves to the DLQ. */
  readonly maxReceiveCount: number;
  /** Backlog alarm: the oldest message is older than this. */
  readonly maxAge: Duration;
  /** Where alarms notify. */
  readonly alarmTopic: sns.ITopic;
  /** What the queue carries, for alarm descriptions. */
  readonly purpose: string;
}

/** A queue, its DLQ, and their alarms. */
export class WorkQueue extends Construct {
  /** The work queue. */
  readonly queue: sqs.Queue;
  /** Its dead-letter queue. */
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: WorkQueueProps) {
    super(scope, id);
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetter', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: props.visibilityTimeout,
      deliveryDelay: props.deliveryDelay,
      // A scan or a change older than a day has been superseded by later scans.
      retentionPeriod: Duration.days(1),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.maxReceiveCount },
    });

    const notify = new cwActions.SnsAction(props.alarmTopic);
    new cloudwatch.Alarm(this, 'DeadLetterDepth', {
      alarmDescription: `realdrift: ${props.purpose} failed repeatedly and reached the dead-letter queue`,
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(notify);
    new cloudwatch.Alarm(this, 'Backlog', {
      alarmDescription: `realdrift: ${props.purpose} are not being processed (oldest message older than ${props.maxAge.toHumanString()})`,
      metric: this.queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: props.maxAge.toSeconds(),
      evaluationPeriods: 3,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(notify);
  }
}
