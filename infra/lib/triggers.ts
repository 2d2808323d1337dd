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
import { ChangePattern, patternId } from './change-patterns';
import { RealdriftConfig } from './config';

/** A rule on the default bus matching one change pattern. */
export function changeRule(scope: Construct, id: string, p: ChangePattern, verb: string, target: events.IRuleTarget): events.Rule {
  const part = p.parts === 1 ? '' : ` (part ${p.part} of ${p.parts})`;
  return new events.Rule(scope, id, {
    description: `realdrift: ${verb} the ${p.eventSource} calls on-change maps${part}`,
    eventPattern: p.pattern as events.EventPattern,
    targets: [target],
  });
}

/** The schedule, the change rules, and the optional trail. */
export class Triggers extends Construct {
  readonly schedule: events.Rule;
  readonly changeRules: events.Rule[];
  readonly trail?: cloudtrail.Trail;

  constructor(
    scope: Construct,
    id: string,
    config: Pick<RealdriftConfig, 'schedule' | 'createTrail' | 'trailRetentionDays'>,
    props: { scan: lambda.IFunction; changeQueue: sqs.IQueue; patterns: ChangePattern[] },
  ) {
    super(scope, id);
    this.schedule = new events.Rule(this, 'Schedule', {
      description: 'realdrift: full scan of every stack in scope',
      schedule: events.Schedule.expression(config.schedule),
      targets: [new targets.LambdaFunction(props.scan, { retryAttempts: 2, maxEventAge: Duration.hours(1) })],
    });

    // One rule per service (more where its names pass the pattern size
    // limit), generated from the event table (change-patterns.ts). Each
    // message is one whole EventBridge event; on-change screens out
    // CloudFormation's and revert's own calls.
    const target = new targets.SqsQueue(props.changeQueue);
    this.changeRules = props.patterns.map((p) => changeRule(this, `Changes${patternId(p)}`, p, 'queues for on-change', target));

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
        // Global services' events happen in us-east-1: a single-Region trail
        // elsewhere does not record them (docs/on-change-events.md).
        includeGlobalServiceEvents: true,
        isMultiRegionTrail: true,
        enableFileValidation: true,
      });
    }
  }
}
