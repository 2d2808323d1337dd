// Where a trigger that could not be delivered ends up: one dead-letter queue
// for every EventBridge target of the stack and (in the home stack) for the
// scan function's asynchronous invokes, with an alarm on its first message,
// and an alarm on the schedule's failed invocations. The us-east-1 forwarder
// stack has its own, because an EventBridge dead-letter queue must be in the
// rule's Region. docs/deploy.md ("Failure paths") says which alarm catches what.
import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cwActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/**
 * How long EventBridge keeps retrying a target, and how often, unless the
 * target sets its own: an hour-old change or schedule tick is superseded by
 * the next scan (EventBridge's default is 24 hours and 185 attempts).
 */
export const RULE_RETRY = { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 3600 };

/** The failed-trigger queue, its alarm, and the routing of every rule and of scan's async invokes to it. */
export class FailureRouting extends Construct {
  /** Events EventBridge could not deliver and scan invokes that failed every retry. */
  readonly queue: sqs.Queue;
  private readonly notify: cwActions.SnsAction;

  constructor(scope: Construct, id: string, props: { alarmTopic: sns.ITopic; scan?: lambda.Function }) {
    super(scope, id);
    this.notify = new cwActions.SnsAction(props.alarmTopic);
    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    new cloudwatch.Alarm(this, 'Depth', {
      alarmDescription: `realdrift: a ${props.scan ? 'schedule tick, change event or scan invoke' : 'forwarded change event'} could not be delivered (failed-trigger queue)`,
      metric: this.queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(this.notify);
    props.scan?.configureAsyncInvoke({
      onFailure: new destinations.SqsDestination(this.queue),
      retryAttempts: 2,
      maxEventAge: Duration.hours(1),
    });
  }

  /**
   * Gives every target of every EventBridge rule of the stack this queue as
   * its dead-letter queue and a retry policy (its own, or RULE_RETRY), lets
   * exactly those rules send to the queue, and alarms on the failed
   * invocations of schedule rules. Runs once every rule exists; it works on
   * the synthesized rules, so a rule added later in another file is covered too.
   *
   * Why only schedules: a failed invocation lands in this queue, whose alarm
   * fires; what the queue alone misses is an event EventBridge could not even
   * dead-letter. A change event lost that way is still found by the next
   * scheduled scan, a lost schedule tick by nothing else, so only schedules
   * pay for a per-rule alarm ($0.10 a month each).
   */
  routeRules(stack: Stack): void {
    const rules = stack.node.findAll().filter((c): c is events.CfnRule => c instanceof events.CfnRule);
    for (const rule of rules) {
      const targets = stack.resolve(rule.targets) as Record<string, unknown>[] | undefined;
      (targets ?? []).forEach((target, i) => {
        rule.addPropertyOverride(`Targets.${i}.DeadLetterConfig`, { Arn: this.queue.queueArn });
        if (!target.RetryPolicy) rule.addPropertyOverride(`Targets.${i}.RetryPolicy`, RULE_RETRY);
      });
      if (rule.scheduleExpression === undefined) continue;
      // The rule's construct path below the stack (`Triggers/Schedule`) names its
      // alarm; `Default` levels (the member in the one-account stack) are left out, as in logical ids.
      const where = rule.node.path.split('/').slice(1, -1).filter((c) => c !== 'Default');
      new cloudwatch.Alarm(this, `Failed${where.join('')}`, {
        alarmDescription: `realdrift: EventBridge could not invoke the target of rule ${where.join('/')}`,
        metric: new cloudwatch.Metric({
          namespace: 'AWS/Events',
          metricName: 'FailedInvocations',
          dimensionsMap: { RuleName: rule.ref },
          period: Duration.minutes(5),
          statistic: 'Sum',
        }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }).addAlarmAction(this.notify);
    }
    if (rules.length > 0) {
      this.queue.addToResourcePolicy(
        new iam.PolicyStatement({
          principals: [new iam.ServicePrincipal('events.amazonaws.com')],
          actions: ['sqs:SendMessage'],
          resources: [this.queue.queueArn],
          conditions: { ArnEquals: { 'aws:SourceArn': rules.map((r) => r.attrArn) } },
        }),
      );
    }
  }
}
