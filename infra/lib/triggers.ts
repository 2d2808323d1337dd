// What starts the functions: the scan schedule, the CloudTrail change rules
// feeding on-change's queue, and the optional trail that makes CloudTrail
// events reach EventBridge in an account without one.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudtrail from 'aws-cdk-lib/aws-cloudtrail';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { RealdriftConfig } from './config';

/**
 * EventBridge caps an event pattern at 4,096 characters; sources are split
 * over several rules well below that.
 */
export const PATTERN_SOURCES_BUDGET = 3000;

/** Splits event sources into groups whose JSON list stays under the budget. */
export function groupSources(sources: string[], budget: number = PATTERN_SOURCES_BUDGET): string[][] {
  const groups: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const s of sources) {
    const cost = s.length + 3;
    if (size + cost > budget && current.length > 0) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(s);
    size += cost;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** The schedule, the change rules, and the optional trail. */
export class Triggers extends Construct {
  readonly schedule: events.Rule;
  readonly changeRules: events.Rule[];
  readonly trail?: cloudtrail.Trail;

  constructor(
    scope: Construct,
    id: string,
    config: RealdriftConfig,
    props: { scan: lambda.IFunction; changeQueue: sqs.IQueue; eventSources: string[] },
  ) {
    super(scope, id);
    this.schedule = new events.Rule(this, 'Schedule', {
      description: 'realdrift: full scan of every stack in scope',
      schedule: events.Schedule.expression(config.schedule),
      targets: [new targets.LambdaFunction(props.scan, { retryAttempts: 2, maxEventAge: Duration.hours(1) })],
    });

    // Write calls only: a read changes nothing. Each message is one whole
    // EventBridge event; on-change filters CloudFormation's and revert's own calls.
    const groups = groupSources(props.eventSources);
    this.changeRules = groups.map(
      (sources, i) =>
        new events.Rule(this, groups.length === 1 ? 'Changes' : `Changes${i + 1}`, {
          description: `realdrift: write API calls of the services on-change maps${groups.length === 1 ? '' : ` (part ${i + 1})`}`,
          eventPattern: {
            detailType: ['AWS API Call via CloudTrail'],
            detail: { readOnly: [false], eventSource: sources },
          },
          targets: [new targets.SqsQueue(props.changeQueue)],
        }),
    );

    if (config.createTrail) {
      const logs = new s3.Bucket(this, 'TrailLogs', {
        encryption: s3.BucketEncryption.S3_MANAGED,
        blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
        enforceSSL: true,
        objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
        lifecycleRules: [{ expiration: Duration.days(config.trailRetentionDays) }],
        removalPolicy: RemovalPolicy.RETAIN,
      });
      this.trail = new cloudtrail.Trail(this, 'Trail', {
        bucket: logs,
        // Write management events are what EventBridge forwards to on-change.
        managementEvents: cloudtrail.ReadWriteType.WRITE_ONLY,
        includeGlobalServiceEvents: true,
        isMultiRegionTrail: false,
        enableFileValidation: true,
      });
    }
  }
}
