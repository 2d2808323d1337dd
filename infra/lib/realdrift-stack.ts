// The one-account install: a RealdriftHub (bucket, alert topic, Slack
// secret) and a RealdriftMember (the functions, queues, rules, roles) in one
// stack, the optional baselines sync role, and the outputs.
import { CfnElement, CfnOutput, Fn, Stack, StackProps } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { Alerts } from './alerts';
import { ChangePattern } from './change-patterns';
import { RealdriftConfig } from './config';
import { FailureRouting } from './failures';
import { RealdriftFunction } from './functions';
import { RealdriftHub } from './hub';
import { makeUniqueId } from './logical-ids';
import { RealdriftMember, RealdriftMemberProps } from './member';
import { ReadPolicies } from './permissions';
import { WorkQueue } from './queues';
import { Storage } from './storage';
import { SyncRole } from './sync-role';

/**
 * The hub's construct id in the one-account stack. Its level is left out of
 * the logical ids (allocateLogicalId), and the member's id is `Default`,
 * which CDK leaves out of every id: the stack keeps the logical ids it had
 * before the two constructs existed, so an existing install updates in place.
 */
const HUB_ID = 'Hub';

/** The member's props a context configuration gives (shared with the Organization app). */
export function memberSettings(config: RealdriftConfig, changePatterns: ChangePattern[]): Omit<RealdriftMemberProps, 'bucket' | 'findings'> {
  return {
    stacks: config.stacks,
    schedule: config.schedule,
    changePatterns,
    concurrency: config.concurrency,
    coverageLostAfter: config.coverageLostAfter,
    lookupCacheSeconds: config.lookupCacheSeconds,
    scanConcurrency: config.scanConcurrency,
    changeConcurrency: config.changeConcurrency,
    changeBatchSize: config.changeBatchSize,
    changeBatchWindowSeconds: config.changeBatchWindowSeconds,
    flapWindowSeconds: config.flapWindowSeconds,
    stormWindowSeconds: config.stormWindowSeconds,
    stormThreshold: config.stormThreshold,
    changeDelaySeconds: config.changeDelaySeconds,
    logLevel: config.logLevel,
    logRetentionDays: config.logRetentionDays,
    architecture: config.architecture,
    lambdaAssets: config.lambdaAssets,
    createTrail: config.createTrail,
    trailRetentionDays: config.trailRetentionDays,
    securityHub: config.securityHub,
    customMetrics: config.customMetrics,
    revert: {
      types: config.revertTypes,
      iamTypes: config.revertIamTypes,
      invokers: config.revertInvokers,
      passRoles: config.revertPassRoles,
      permissionsBoundary: config.revertPermissionsBoundary,
    },
  };
}

/** realdrift, installed in one account and Region. */
export class RealdriftStack extends Stack {
  readonly hub: RealdriftHub;
  readonly member: RealdriftMember;
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

  constructor(scope: Construct, id: string, config: RealdriftConfig, changePatterns: ChangePattern[], props?: StackProps) {
    super(scope, id, props);
    this.hub = new RealdriftHub(this, HUB_ID, {
      storage: config,
      alerts: config,
    });
    this.member = new RealdriftMember(this, 'Default', {
      ...memberSettings(config, changePatterns),
      bucket: this.hub.storage.bucket,
      findings: { alerts: this.hub.alerts },
    });
    ({ storage: this.storage, alerts: this.alerts } = this.hub);
    const m = this.member;
    this.scan = m.scan;
    this.onChange = m.onChange;
    this.revert = m.revert;
    this.scanQueue = m.scanQueue;
    this.changeQueue = m.changeQueue;
    this.readPolicies = m.readPolicies;
    this.failures = m.failures;
    this.changePatterns = m.changePatterns;
    this.addOutputs(config);
    m.finish();
  }

  /** Logical ids without the hub's level (see HUB_ID). */
  protected allocateLogicalId(element: CfnElement): string {
    const scopes = element.node.scopes;
    const ids = scopes.slice(scopes.indexOf(this) + 1).map((s) => s.node.id);
    if (ids.length > 1 && ids[0] === HUB_ID) return makeUniqueId(ids.slice(1));
    return super.allocateLogicalId(element);
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
