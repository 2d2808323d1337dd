// Where drift is announced: an encrypted SNS topic (with optional email
// subscriptions) and the Secrets Manager secret holding the Slack webhook URL.
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subs from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { RealdriftConfig } from './config';
import { checkInt } from './member-props';

/** KMS rotates a customer managed key's material every 365 days unless told otherwise (EnableKeyRotation). */
export const KMS_DEFAULT_ROTATION_DAYS = 365;

/** What the alert topic and the Slack secret are made from (context alertEmails, slackSecret, slackSecretKmsKeyArn, topicKeyRotationDays). */
export type AlertSettings = Pick<RealdriftConfig, 'alertEmails' | 'slackSecret' | 'slackSecretKmsKeyArn'> & {
  /** Days between rotations of the topic key's material (90–2560; default 365). Each of the first two rotations adds $1 a month (docs/deploy.md). */
  readonly topicKeyRotationDays?: number;
};

/** The alert topic, its key, and the Slack secret. */
export class Alerts extends Construct {
  /** Customer managed key of the topic (CloudWatch alarms can publish to it, unlike aws/sns). */
  readonly key: kms.Key;
  /** The alert topic. */
  readonly topic: sns.Topic;
  /** The Slack webhook secret (created empty, or the existing one named in context). */
  readonly slackSecret: secretsmanager.ISecret;
  /** The value the functions get as REALDRIFT_SLACK_SECRET_ID (ARN, or the name given in context). */
  readonly slackSecretId: string;
  /** The Slack secret's ARN as IAM policies match it (a name-only import ends in `-??????`). */
  readonly slackSecretPolicyArn: string;
  /** Customer managed key of an existing Slack secret, when context names one. */
  readonly slackSecretKmsKeyArn?: string;

  constructor(scope: Construct, id: string, config: AlertSettings) {
    super(scope, id);
    const rotationDays = config.topicKeyRotationDays ?? KMS_DEFAULT_ROTATION_DAYS;
    checkInt('Alerts', 'topicKeyRotationDays', rotationDays, 90, 2560);
    this.key = new kms.Key(this, 'Key', {
      description: 'realdrift: encrypts the alert topic',
      enableKeyRotation: true,
      // Left out at the default, so the template stays as it was.
      rotationPeriod: rotationDays === KMS_DEFAULT_ROTATION_DAYS ? undefined : Duration.days(rotationDays),
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    // Alarms publish to the topic through the CloudWatch service principal,
    // on behalf of this account's alarms only (confused deputy).
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    );
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: 'realdrift drift alerts',
      masterKey: this.key,
      enforceSSL: true,
    });
    // The topic policy CDK writes for enforceSSL replaces SNS's default one,
    // so the alarms' publisher is allowed explicitly.
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    );
    for (const email of config.alertEmails) {
      this.topic.addSubscription(new subs.EmailSubscription(email));
    }

    if (config.slackSecret?.startsWith('arn:')) {
      this.slackSecret = secretsmanager.Secret.fromSecretCompleteArn(this, 'SlackWebhook', config.slackSecret);
      this.slackSecretId = config.slackSecret;
      this.slackSecretPolicyArn = config.slackSecret;
    } else if (config.slackSecret) {
      this.slackSecret = secretsmanager.Secret.fromSecretNameV2(this, 'SlackWebhook', config.slackSecret);
      this.slackSecretId = config.slackSecret;
      // Secrets Manager appends six random characters to a secret's ARN.
      this.slackSecretPolicyArn = `${this.slackSecret.secretArn}-??????`;
    } else {
      const secret = new secretsmanager.Secret(this, 'SlackWebhook', {
        description: 'realdrift: the Slack incoming-webhook URL (set its value after deploy; empty = no Slack)',
        removalPolicy: RemovalPolicy.DESTROY,
      });
      // Created without a value: no generated password to mistake for a URL.
      (secret.node.defaultChild as secretsmanager.CfnSecret).addPropertyDeletionOverride('GenerateSecretString');
      this.slackSecret = secret;
      this.slackSecretId = secret.secretArn;
      this.slackSecretPolicyArn = secret.secretArn;
    }
    this.slackSecretKmsKeyArn = config.slackSecretKmsKeyArn;
  }

  /** Publish to the topic (with its key) and, when `slack`, read the Slack secret. */
  grant(grantee: iam.IGrantable, slack: boolean): void {
    this.topic.grantPublish(grantee);
    if (!slack) return;
    this.slackSecret.grantRead(grantee);
    if (this.slackSecretKmsKeyArn) {
      grantee.grantPrincipal.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: ['kms:Decrypt'],
          resources: [this.slackSecretKmsKeyArn],
          conditions: { StringLike: { 'kms:ViaService': 'secretsmanager.*.amazonaws.com' } },
        }),
      );
    }
  }
}
