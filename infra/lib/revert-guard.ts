// What keeps revert's writes away from realdrift itself and from anyone not
// named: an explicit deny on every realdrift resource, the permissions
// boundary the app ships, and the function's resource policy that only the
// configured invokers get past.
import { Aws, Fn, Stack } from 'aws-cdk-lib';
import * as cloudtrail from 'aws-cdk-lib/aws-cloudtrail';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { CfnResource } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { typeWriterActions, writePatterns, writeSetFor } from './permission-data';

/**
 * What revert does on realdrift's own resources: read its bucket, publish
 * its notice (through the topic's key), queue the reverted stack's re-check
 * (its Allow names the scan work queue only), write its log. Everything
 * else is denied there.
 */
export const REVERT_OWN_ACTIONS = [
  's3:GetObject',
  's3:ListBucket',
  'sns:Publish',
  'sqs:SendMessage',
  'kms:Decrypt',
  'kms:GenerateDataKey*',
  'logs:CreateLogStream',
  'logs:PutLogEvents',
];

/** ARNs of every resource of a stack a revert could damage: functions, roles, rules, queues, topics, buckets, keys, log groups, secrets, trails, managed policies. */
export function ownResourceArns(stack: Stack): string[] {
  const out: string[] = [];
  for (const c of stack.node.findAll()) {
    if (!(c instanceof CfnResource)) continue;
    if (c instanceof lambda.CfnFunction) {
      out.push(c.attrArn);
      // Functions without their own log group write to the default one.
      out.push(Fn.join('', [`arn:${Aws.PARTITION}:logs:${Aws.REGION}:${Aws.ACCOUNT_ID}:log-group:/aws/lambda/`, c.ref, ':*']));
    } else if (c instanceof iam.CfnRole) out.push(c.attrArn);
    else if (c instanceof iam.CfnManagedPolicy) out.push(c.ref);
    else if (c instanceof events.CfnRule) out.push(c.attrArn);
    else if (c instanceof sqs.CfnQueue) out.push(c.attrArn);
    else if (c instanceof sns.CfnTopic) out.push(c.ref);
    else if (c instanceof s3.CfnBucket) out.push(c.attrArn, Fn.join('', [c.attrArn, '/*']));
    else if (c instanceof kms.CfnKey) out.push(c.attrArn);
    else if (c instanceof logs.CfnLogGroup) out.push(c.attrArn);
    else if (c instanceof secretsmanager.CfnSecret) out.push(c.ref);
    else if (c instanceof cloudtrail.CfnTrail) out.push(c.attrArn);
  }
  return out;
}

/** The explicit deny of everything but REVERT_OWN_ACTIONS on realdrift's resources. */
export function denyOwnResourcesStatement(arns: string[]): iam.PolicyStatement {
  return new iam.PolicyStatement({ effect: iam.Effect.DENY, notActions: REVERT_OWN_ACTIONS, resources: arns });
}

/** The boundary's ceiling: no IAM, STS, Organizations or account write unless opted into. */
export const BOUNDARY_EXCLUDED = ['iam:*', 'sts:*', 'organizations:*', 'account:*'];

/**
 * The permissions boundary the app ships for revert: everything but IAM, STS,
 * Organizations and account calls; IAM reads; the opted-in IAM types' writes
 * and PassRole on the listed roles; and a deny of everything but
 * REVERT_OWN_ACTIONS on resources tagged with realdrift's own stack name (the
 * boundary cannot name the role's own resources: the role depends on it). A
 * later edit of the role's policies cannot get past it.
 */
export function boundaryStatements(iamTypes: string[], passRoles: string[]): iam.PolicyStatement[] {
  const out = [
    new iam.PolicyStatement({ notActions: BOUNDARY_EXCLUDED, resources: ['*'] }),
    new iam.PolicyStatement({ actions: ['iam:Get*', 'iam:List*'], resources: ['*'] }),
  ];
  // The opted-in types' handler actions, and their service writers' (a type with no handler has only those).
  const iamWrites = [...new Set([...writePatterns(writeSetFor(iamTypes, 'revertIamTypes')), ...typeWriterActions(iamTypes).map((w) => w.action)])].sort();
  if (iamWrites.length > 0) {
    out.push(new iam.PolicyStatement({ actions: iamWrites, resources: ['*'] }));
  }
  if (passRoles.length > 0) out.push(new iam.PolicyStatement({ actions: ['iam:PassRole'], resources: passRoles }));
  out.push(
    new iam.PolicyStatement({
      effect: iam.Effect.DENY,
      notActions: REVERT_OWN_ACTIONS,
      resources: ['*'],
      conditions: { StringEquals: { 'aws:ResourceTag/aws:cloudformation:stack-name': Aws.STACK_NAME } },
    }),
  );
  return out;
}

/** Fixed policy names (IAM names are account-wide: stack and region keep them apart). */
export function ownPolicyName(stack: Stack, what: string): string {
  return `${stack.stackName}-${stack.region}-${what}`;
}

/** The ARN of a customer managed policy by name, without a reference to the policy (no dependency cycle). */
export function policyArnByName(name: string): string {
  return `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:policy/${name}`;
}

/**
 * The revert function's resource policy: the invokers may invoke it (also
 * from another account), and a deny stops every other principal, however
 * broad its own policies (an explicit deny wins). No invokers: nobody can.
 */
export function invokePolicy(functionArn: string, invokers: string[]): Record<string, unknown> {
  const statements: Record<string, unknown>[] = [];
  if (invokers.length > 0) {
    statements.push({
      Sid: 'RevertInvokers',
      Effect: 'Allow',
      Principal: { AWS: invokers },
      Action: 'lambda:InvokeFunction',
      Resource: functionArn,
    });
  }
  statements.push({
    Sid: 'NobodyElseInvokes',
    Effect: 'Deny',
    Principal: '*',
    Action: 'lambda:InvokeFunction',
    Resource: functionArn,
    ...(invokers.length > 0 ? { Condition: { ArnNotLike: { 'aws:PrincipalArn': invokers } } } : {}),
  });
  return { Version: '2012-10-17', Statement: statements };
}

/** Attaches the invoke policy to the revert function. */
export class RevertInvokePolicy extends Construct {
  constructor(scope: Construct, id: string, fn: lambda.IFunction, invokers: string[]) {
    super(scope, id);
    new lambda.CfnResourcePolicy(this, 'Resource', {
      resourceArn: fn.functionArn,
      policyDocument: invokePolicy(fn.functionArn, invokers),
    });
  }
}
