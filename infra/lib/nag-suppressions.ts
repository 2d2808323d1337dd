// cdk-nag (AwsSolutions) findings realdrift accepts, each with its reason.
// A finding is acknowledged only when both its id and the construct path of
// the resource match an entry below; anything else stays an error and fails
// synth (bin/realdrift.ts) and the tests.
import { Stack, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { IConstruct } from 'constructs';

/** One accepted kind of finding. */
export interface Acceptance {
  /** Matches the finding id, e.g. `AwsSolutions-IAM5[Resource::*]`. */
  readonly finding: RegExp;
  /** Matches the construct path of the flagged resource, below the stack. */
  readonly path: RegExp;
  /** Why realdrift accepts it. */
  readonly reason: string;
}

const FUNCTION_POLICY = /^\/(Scan|OnChange|Revert)\/Role\/DefaultPolicy\/Resource$/;
const READ_FUNCTION_POLICY = /^\/(Scan|OnChange)\/Role\/DefaultPolicy\/Resource$/;
const BUCKET_DEPLOYMENT = /^\/Custom::CDKBucketDeployment[0-9A-Za-z]+\//;

/** Every finding realdrift accepts. */
export const ACCEPTED: Acceptance[] = [
  {
    finding: /^AwsSolutions-S1$/,
    path: /^\/(Storage\/Bucket|Triggers\/TrailLogs)\/Resource$/,
    reason:
      'Server access logging needs a separate log bucket; pass -c accessLogsBucket=NAME to send the realdrift ' +
      "bucket's logs to your central one. Object-level API calls are otherwise visible as CloudTrail data events.",
  },
  {
    finding: /^AwsSolutions-SQS3$/,
    path: /^\/(FailedTriggers|FailedForwards)\/Queue\/Resource$/,
    reason:
      'This queue is itself the dead-letter queue: EventBridge targets and the scan function\'s asynchronous invokes ' +
      'send what they could not deliver here, and an alarm fires on its first message.',
  },
  {
    finding: /^AwsSolutions-SMG4$/,
    path: /^\/Alerts\/SlackWebhook\/Resource$/,
    reason:
      'The secret holds a Slack incoming-webhook URL, which only Slack can reissue; a rotation Lambda has nothing to rotate.',
  },
  {
    finding: /^AwsSolutions-(IAM4\[Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AWSLambdaBasicExecutionRole\]|L1)$/,
    path: BUCKET_DEPLOYMENT,
    reason:
      "The handler of aws-cdk-lib's BucketDeployment (baselines/ sync on deploy): its runtime and role are owned and " +
      'updated by aws-cdk-lib, not by realdrift.',
  },
  {
    finding: /^AwsSolutions-IAM5\[Resource::(arn:(<AWS::Partition>|aws):s3:::cdk-[a-z0-9]+-assets-<AWS::AccountId>-(<AWS::Region>|[a-z0-9-]+)\/\*|<(Hub)?StorageBucket[0-9A-F]+\.Arn>\/\*)\]$/,
    path: BUCKET_DEPLOYMENT,
    reason:
      'BucketDeployment reads the CDK asset bucket and is granted the realdrift bucket by aws-cdk-lib; it writes and ' +
      'prunes only under its destination prefix baselines/.',
  },
  {
    finding: /^AwsSolutions-IAM5\[Action::s3:(GetObject|GetBucket|List|DeleteObject|Abort)\*\]$/,
    path: BUCKET_DEPLOYMENT,
    reason:
      "aws-cdk-lib's bucket grants for the BucketDeployment handler (read the asset, write and prune the destination).",
  },
  {
    finding: /^AwsSolutions-IAM5\[Resource::arn:[a-z-]+:iam::(\d{12}|\*):role\/[^\]]+\]$/,
    path: /^\/Revert\/Role\/DefaultPolicy\/Resource$/,
    reason: 'iam:PassRole on exactly the role patterns the operator listed in context revertPassRoles.',
  },
  {
    finding: /^AwsSolutions-IAM5\[Resource::\*\]$/,
    path: /^\/ReadPolicies\/Part\d+\/Resource$/,
    reason:
      'Read handler permissions apply to any resource of the stacks in scope, which are not known at deploy time; ' +
      'every action here is IAM access level Read or List.',
  },
  {
    finding: /^AwsSolutions-IAM5\[Action::[a-z0-9-]+:[A-Za-z0-9]+\*\]$/,
    path: /^\/ReadPolicies\/Part\d+\/Resource$/,
    reason:
      'Generated prefix patterns (infra/data/read-permissions.json) that match, in the pinned IAM action catalogue, ' +
      'only Read/List actions that CloudFormation registry read/list handlers need; the tests re-expand every pattern.',
  },
  {
    finding: /^AwsSolutions-IAM5\[Resource::\*\]$/,
    path: READ_FUNCTION_POLICY,
    reason:
      'CloudFormation, Cloud Control and per-type reader calls on any stack or resource in scope (read-only); the ' +
      'explicit denies in the same policy keep object contents, secret and parameter values and table items out.',
  },
  {
    finding: /^AwsSolutions-IAM5\[Resource::\*\]$/,
    path: /^\/Revert\/Role\/DefaultPolicy\/Resource$/,
    reason:
      'Revert reads like scan and writes through Cloud Control with the update handler actions of the types in ' +
      'context revertTypes on resources tagged with a watched stack name (where IAM can match the tag), and the ' +
      'delete handler actions of out-of-band child types; the guard policy and the boundary deny realdrift itself.',
  },
  {
    finding: /^AwsSolutions-IAM5(\[(Resource::\*|Action::iam:(Get|List)\*)\])?$/,
    path: /^\/RevertBoundary\/Resource$/,
    reason:
      "The revert role's permissions boundary is a ceiling, not a grant: it allows everything but IAM, STS, " +
      'Organizations and account calls (NotAction) plus IAM reads, and denies everything on realdrift itself; what ' +
      'revert may really do is its identity policy, intersected with this.',
  },
  {
    finding: /^AwsSolutions-IAM5\[Action::[a-z0-9-]+:[A-Za-z0-9]+\*\]$/,
    path: /^\/Revert\/Role\/DefaultPolicy\/Resource$/,
    reason:
      'Generated prefix patterns (infra/data/write-permissions.json) that match, in the pinned IAM action catalogue, ' +
      'only the update/delete handler actions of the revertTypes types; data-plane actions are excluded.',
  },
  {
    finding: /^AwsSolutions-IAM5\[Resource::<StorageBucket[0-9A-F]+\.Arn>\/(baselines|state|index|cache)\/\*\]$/,
    path: FUNCTION_POLICY,
    reason: "Object access under the function's own prefixes of the realdrift bucket (DESIGN.md S3 layout).",
  },
  {
    finding: /^AwsSolutions-IAM5\[Action::kms:GenerateDataKey\*\]$/,
    path: FUNCTION_POLICY,
    reason: "Publishing to the alert topic encrypts with the topic's own key (Topic.grantPublish); the resource is that key.",
  },
  {
    finding: /^AwsSolutions-IAM5\[(Action::kms:GenerateDataKey\*|Resource::<HubStorageBucket[0-9A-F]+\.Arn>\/org\/\*|Resource::arn:<AWS::Partition>:organizations::\*:account\/o-[a-z0-9]+\/\*)\]$/,
    path: /^\/Delivery\/Function\/Role\/DefaultPolicy\/Resource$/,
    reason:
      "The hub function publishes with the alert topic's own key (Topic.grantPublish; the resource is that key), reads " +
      'the status documents under org/ of the hub bucket, and names accounts with DescribeAccount on the accounts of ' +
      'its own Organization (the management account in the ARN is not known at synth).',
  },
  {
    finding: /^AwsSolutions-IAM5\[Resource::<StorageBucket[0-9A-F]+\.Arn>\/baselines\/\*\]$/,
    path: /^\/BaselinesSync\/Role\/DefaultPolicy\/Resource$/,
    reason: 'The baselines sync reads, writes and deletes objects under baselines/ and nowhere else.',
  },
];

/**
 * A path below the stack without the constructs' own levels (the member's
 * `Default`, the hub's `Hub`), as logical ids leave them out: one entry
 * covers the one-account stack and the Organization's stacks alike.
 */
export function belowLevels(relative: string): string {
  const parts = relative.split('/');
  const kept = parts.filter((c, i) => c !== 'Default' && !(i === 1 && c === 'Hub'));
  return kept.join('/');
}

/**
 * Runs the AwsSolutions pack once over the stack and acknowledges each finding
 * that an ACCEPTED entry covers, with that entry's reason.
 */
export function acknowledgeAccepted(stack: Stack): void {
  const report = new AwsSolutionsChecks(stack).validateScope(stack);
  const byPath = new Map<string, IConstruct>(stack.node.findAll().map((c) => [c.node.path, c]));
  const prefix = stack.node.path;
  for (const violation of report.violations) {
    for (const resource of violation.violatingResources) {
      const fullPath = resource.constructPath ?? '';
      const relative = belowLevels(fullPath.startsWith(prefix) ? fullPath.slice(prefix.length) : fullPath);
      const accepted = ACCEPTED.find((a) => a.finding.test(violation.ruleName) && a.path.test(relative));
      const construct = byPath.get(fullPath);
      if (accepted && construct) {
        Validations.of(construct).acknowledge({ id: violation.ruleName, reason: accepted.reason });
      }
    }
  }
}
