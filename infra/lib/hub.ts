// RealdriftHub: the central account's part — the one baselines bucket, the
// alert topic and Slack secret, and, for an Organization, the findings bus
// members put their transitions on (admitting only the Organization), the
// hub function that delivers them to the topic and Slack with the
// account's name and writes the scheduled summary (hub-delivery.ts), and
// the bucket policy that lets each member read its own account's baselines only.
import { Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { AlertSettings, Alerts } from './alerts';
import { FunctionSettings } from './functions';
import { HubDelivery } from './hub-delivery';
import { ACCOUNT_ID, ORGANIZATION_ID, checkString } from './member-props';
import { PREFIXES, Storage, StorageSettings } from './storage';

/** The detail-type of a member's transition on the findings bus (docs/json-output.md). */
export const TRANSITION_DETAIL_TYPE = 'realdrift drift transition';
/** The source of a member's transition event. */
export const TRANSITION_SOURCE = 'realdrift';

/** The Organization a hub serves. */
export interface HubOrganization {
  /** The Organization's id (`o-...`): the only principals the bus and the bucket admit. */
  readonly organizationId: string;
  /**
   * Account id -> readable name, put beside the account id in every alert the
   * hub delivers; overrides the name the hub reads from Organizations.
   */
  readonly accountNames?: Record<string, string>;
  /** When the hub's Organization summary runs: an EventBridge `rate(...)` or `cron(...)` expression (default `rate(1 day)`). */
  readonly summarySchedule?: string;
  /** The findings bus name (default `realdrift-findings`). */
  readonly busName?: string;
}

/** Typed props of a hub. */
export interface RealdriftHubProps {
  /** The bucket (baselines/ synced from `baselinesDir` on deploy). */
  readonly storage: StorageSettings;
  /** The alert topic and the Slack secret. */
  readonly alerts: AlertSettings;
  /** Serve an Organization: the findings bus, its delivery, the members' bucket access. Undefined = one account. */
  readonly organization?: HubOrganization;
  /** The hub function's settings (architecture, zips, log retention, log level); required with `organization`. */
  readonly functions?: FunctionSettings & { readonly logLevel: string };
}

/** The bucket, the alert channels and, for an Organization, the findings bus. */
export class RealdriftHub extends Construct {
  readonly storage: Storage;
  readonly alerts: Alerts;
  /** The findings bus (Organization only). */
  readonly findingsBus?: events.EventBus;
  /** The hub function, its queue and rules (Organization only). */
  readonly delivery?: HubDelivery;

  constructor(scope: Construct, id: string, props: RealdriftHubProps) {
    super(scope, id);
    this.storage = new Storage(this, 'Storage', props.storage);
    this.alerts = new Alerts(this, 'Alerts', props.alerts);
    const org = props.organization;
    if (!org) return;
    checkString('RealdriftHub', 'organization.organizationId', org.organizationId, ORGANIZATION_ID);
    for (const [account, name] of Object.entries(org.accountNames ?? {})) {
      checkString('RealdriftHub', `organization.accountNames[${account}]`, account, ACCOUNT_ID);
      checkString('RealdriftHub', `organization.accountNames[${account}]`, name, /^[^"\\<>\n\r\t]{1,50}$/);
    }
    this.findingsBus = new events.EventBus(this, 'FindingsBus', { eventBusName: org.busName ?? 'realdrift-findings' });
    this.findingsBus.addToResourcePolicy(busPolicyStatement(this.findingsBus.eventBusArn, org.organizationId));
    if (!props.functions) throw new Error('RealdriftHub functions: required with organization (the hub function delivers transitions)');
    const schedule = org.summarySchedule ?? 'rate(1 day)';
    checkString('RealdriftHub', 'organization.summarySchedule', schedule, /^(rate|cron)\([^()]{1,200}\)$/);
    this.delivery = new HubDelivery(this, 'Delivery', {
      bus: this.findingsBus,
      pattern: { source: [TRANSITION_SOURCE], detailType: [TRANSITION_DETAIL_TYPE] },
      alerts: this.alerts,
      bucket: this.storage.bucket,
      organizationId: org.organizationId,
      accountNames: org.accountNames ?? {},
      summarySchedule: schedule,
      functions: props.functions,
      logLevel: props.functions.logLevel,
    });
    for (const s of bucketPolicyStatements(this.storage.bucket.bucketArn, org.organizationId)) {
      this.storage.bucket.addToResourcePolicy(s);
    }
  }
}

/** The bus policy: PutEvents by any principal of the Organization, nobody else. */
export function busPolicyStatement(busArn: string, organizationId: string): iam.PolicyStatement {
  return new iam.PolicyStatement({
    sid: 'OrganizationMembersPutTransitions',
    principals: [new iam.AnyPrincipal()],
    actions: ['events:PutEvents'],
    resources: [busArn],
    conditions: { StringEquals: { 'aws:PrincipalOrgID': organizationId } },
  });
}

/**
 * The bucket policy for members: principals of the Organization may list
 * the bucket (so a missing baseline answers 404, not 403) and read the
 * shared ignore file and the baselines whose file name carries their own
 * account (`baselines/<stack>.<account>.<region>.json`, through the policy
 * variable `${aws:PrincipalAccount}`); and read, write and delete the status
 * documents of their own account (`org/<account>/...`, read by
 * `realdrift report --hub-bucket`); nothing else.
 */
export function bucketPolicyStatements(bucketArn: string, organizationId: string): iam.PolicyStatement[] {
  const org = { StringEquals: { 'aws:PrincipalOrgID': organizationId } };
  const any = [new iam.AnyPrincipal()];
  return [
    new iam.PolicyStatement({
      sid: 'OrganizationMembersList',
      principals: any,
      actions: ['s3:ListBucket'],
      resources: [bucketArn],
      conditions: org,
    }),
    new iam.PolicyStatement({
      sid: 'OrganizationMembersReadOwnBaselines',
      principals: any,
      actions: ['s3:GetObject'],
      resources: [
        `${bucketArn}/${PREFIXES.baselines}*.\${aws:PrincipalAccount}.*`,
        `${bucketArn}/${PREFIXES.baselines}ignore.yaml`,
      ],
      conditions: org,
    }),
    new iam.PolicyStatement({
      sid: 'OrganizationMembersWriteOwnStatus',
      principals: any,
      actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
      resources: [`${bucketArn}/org/\${aws:PrincipalAccount}/*`],
      conditions: org,
    }),
  ];
}

/** The ARN of the findings bus a member puts events on, from the hub's account, Region and bus name. */
export function findingsBusArn(scope: Construct, hubAccount: string, hubRegion: string, busName = 'realdrift-findings'): string {
  return `arn:${Stack.of(scope).partition}:events:${hubRegion}:${hubAccount}:event-bus/${busName}`;
}
