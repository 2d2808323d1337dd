// The Organization install (docs/organization.md): a hub stack in the
// central account (RealdriftHub with the findings bus, the baselines bucket
// and its policies) and a service-managed StackSet that places the member
// stack in every account of the chosen OUs and Regions, auto-deployed to
// accounts that join them later.
//
// The member's template is synthesized by its own in-process App and
// uploaded as a file asset of the hub stack (TemplateURL). Its Lambda code
// cannot be a CDK asset: a StackSet instance deploys where no CDK bootstrap
// bucket exists, and Lambda reads code only from a bucket in the function's
// Region. So the zips are read from one bucket per Region named
// `<memberAssetBucketPrefix>-<region>`, under content-addressed keys
// (MEMBER_ASSET_KEY_PREFIX + binary + sha256), which the operator fills
// once per build (docs/organization.md, step 3).
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, CfnOutput, CfnParameter, DefaultStackSynthesizer, Fn, Stack, StackProps } from 'aws-cdk-lib';
import * as cfn from 'aws-cdk-lib/aws-cloudformation';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3assets from 'aws-cdk-lib/aws-s3-assets';
import { Construct } from 'constructs';
import { Alerts } from './alerts';
import { ChangePattern } from './change-patterns';
import { RealdriftConfig } from './config';
import { assetZip } from './functions';
import { HubOrganization, RealdriftHub } from './hub';
import { RealdriftMember } from './member';
import { checkString } from './member-props';
import { memberSettings } from './realdrift-stack';

/** The key prefix of member zips in the regional asset buckets. */
export const MEMBER_ASSET_KEY_PREFIX = 'realdrift/';
/** The member functions' binaries. */
export const MEMBER_BINARIES = ['realdrift-scan', 'realdrift-on-change', 'realdrift-revert'];

/** Where the member stacks go and where their code is. */
export interface StackSetPlacement {
  /** Organizational unit ids (`ou-...` or the root `r-...`) whose accounts get the member. */
  readonly organizationalUnits: string[];
  /** Regions each account gets the member in. */
  readonly regions: string[];
  /** Buckets `<prefix>-<region>` hold the member zips for each Region. */
  readonly assetBucketPrefix: string;
  /** DELEGATED_ADMIN when the hub account is a delegated StackSets administrator, SELF in the management account. */
  readonly callAs: 'SELF' | 'DELEGATED_ADMIN';
}

/** The regional-bucket key of a binary's zip (content-addressed: a new build is a new key, so CloudFormation updates the code). */
export function memberAssetKey(binary: string, zip: string): string {
  const sha = crypto.createHash('sha256').update(fs.readFileSync(zip)).digest('hex');
  return `${MEMBER_ASSET_KEY_PREFIX}${binary}-${sha}.zip`;
}

/** The member stack of a StackSet instance: its own bucket and topic, baselines and findings at the hub. */
export class RealdriftMemberStack extends Stack {
  readonly member: RealdriftMember;
  /** Binary -> the key its zip must have in each regional asset bucket. */
  readonly assetKeys: Record<string, string>;

  constructor(scope: Construct, id: string, config: RealdriftConfig, patterns: ChangePattern[], assetBucketPrefix: string, props?: StackProps) {
    super(scope, id, props);
    const hubBucket = new CfnParameter(this, 'HubBucketName', { description: "The hub's baselines bucket" });
    const busArn = new CfnParameter(this, 'FindingsBusArn', { description: "The hub's findings bus ARN" });
    this.assetKeys = {};
    for (const b of MEMBER_BINARIES) {
      const zip = assetZip(config, b);
      if (!zip) throw new Error(`the member StackSet needs built zips: ${b} not found in ${config.lambdaAssets} (scripts/build-functions.sh)`);
      this.assetKeys[b] = memberAssetKey(b, zip);
    }
    const assets = s3.Bucket.fromBucketName(this, 'RegionalAssets', Fn.sub(`${assetBucketPrefix}-\${AWS::Region}`));
    const local = new RealdriftHub(this, 'Hub', {
      // The member's own bucket keeps state/, index/, cache/; no baselines/ sync here.
      storage: { noncurrentVersionDays: config.noncurrentVersionDays, logRetentionDays: config.logRetentionDays, accessLogsBucket: config.accessLogsBucket },
      // Its topic takes the member's alarms; alerts reach people through the hub.
      alerts: { alertEmails: [] },
    });
    this.member = new RealdriftMember(this, 'Default', {
      ...memberSettings(config, patterns),
      bucket: local.storage.bucket,
      baselinesBucket: s3.Bucket.fromBucketName(this, 'HubBucket', hubBucket.valueAsString),
      findings: { alerts: local.alerts as Alerts, findingsBusArn: busArn.valueAsString },
      code: (binary) => lambda.Code.fromBucket(assets, this.assetKeys[binary]),
    });
    this.member.finish();
  }
}

/** The hub stack: the hub with its Organization, and the StackSet of the member. */
export class RealdriftOrganizationStack extends Stack {
  readonly hub: RealdriftHub;
  readonly stackSet: cfn.CfnStackSet;
  /** The member template the StackSet deploys (a file of the in-process member App). */
  readonly memberTemplateFile: string;

  constructor(
    scope: Construct,
    id: string,
    props: StackProps & { config: RealdriftConfig; patterns: ChangePattern[]; organization: HubOrganization; placement: StackSetPlacement },
  ) {
    super(scope, id, props);
    const { config, placement } = props;
    placement.organizationalUnits.forEach((ou, i) => checkString('StackSetPlacement', `organizationalUnits[${i}]`, ou, /^(ou-[a-z0-9]{4,32}-[a-z0-9]{8,32}|r-[a-z0-9]{4,32})$/));
    checkString('StackSetPlacement', 'assetBucketPrefix', placement.assetBucketPrefix, /^[a-z0-9][a-z0-9.-]{1,40}$/);
    if (placement.regions.length === 0) throw new Error('StackSetPlacement regions: at least one Region');
    this.hub = new RealdriftHub(this, 'Hub', { storage: config, alerts: config, organization: props.organization, functions: config });

    const member = memberTemplate(config, props.patterns, placement.assetBucketPrefix);
    this.memberTemplateFile = member.file;
    const template = new s3assets.Asset(this, 'MemberTemplate', { path: member.file });
    this.stackSet = new cfn.CfnStackSet(this, 'MemberStackSet', {
      stackSetName: `${config.stackName}-member`,
      description: 'realdrift member: scan, on-change and revert in every account and Region of the chosen OUs',
      permissionModel: 'SERVICE_MANAGED',
      callAs: placement.callAs,
      autoDeployment: { enabled: true, retainStacksOnAccountRemoval: false },
      capabilities: ['CAPABILITY_NAMED_IAM'],
      managedExecution: { Active: true },
      operationPreferences: { failureTolerancePercentage: 10, maxConcurrentPercentage: 25, regionConcurrencyType: 'PARALLEL' },
      templateUrl: template.httpUrl,
      parameters: [
        { parameterKey: 'HubBucketName', parameterValue: this.hub.storage.bucket.bucketName },
        { parameterKey: 'FindingsBusArn', parameterValue: this.hub.findingsBus!.eventBusArn },
      ],
      stackInstancesGroup: [
        { deploymentTargets: { organizationalUnitIds: placement.organizationalUnits }, regions: placement.regions },
      ],
    });
    new CfnOutput(this, 'FindingsBusArn', { description: 'the findings bus members put transitions on', value: this.hub.findingsBus!.eventBusArn });
    new CfnOutput(this, 'BucketName', { description: 'the baselines bucket (baselines/<stack>.<account>.<region>.json)', value: this.hub.storage.bucket.bucketName });
    new CfnOutput(this, 'MemberAssetKeys', {
      description: `keys the member zips must have in every ${placement.assetBucketPrefix}-<region> bucket`,
      value: Object.entries(member.assetKeys).map(([b, k]) => `${b}=${k}`).join(' '),
    });
  }
}

/** Synthesizes the member stack in its own App and returns its template file and zip keys. */
export function memberTemplate(config: RealdriftConfig, patterns: ChangePattern[], assetBucketPrefix: string): { file: string; assetKeys: Record<string, string> } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'realdrift-member-'));
  const app = new App({ outdir });
  // No bootstrap version rule: a StackSet instance's account need not be bootstrapped.
  const stack = new RealdriftMemberStack(app, 'RealdriftMember', config, patterns, assetBucketPrefix, {
    synthesizer: new DefaultStackSynthesizer({ generateBootstrapVersionRule: false }),
    description: 'realdrift member (StackSet instance): scan, on-change and revert',
  });
  const assembly = app.synth();
  return { file: path.join(assembly.directory, stack.templateFile), assetKeys: stack.assetKeys };
}

/** The Organization's context keys (docs/organization.md); undefined when `organizationId` is not set. */
export interface OrganizationContext {
  readonly organization: HubOrganization;
  readonly placement: StackSetPlacement;
}

/** Reads the Organization context keys; throws naming a key that is missing or malformed. */
export function loadOrganizationContext(get: (key: string) => unknown): OrganizationContext | undefined {
  const raw = (k: string) => {
    const v = get(k);
    return v === '' || v === null ? undefined : v;
  };
  const organizationId = raw('organizationId');
  if (organizationId === undefined) return undefined;
  const list = (k: string): string[] => {
    const v = raw(k);
    const items = typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter((s) => s !== '') : v;
    if (!Array.isArray(items) || items.length === 0 || items.some((i) => typeof i !== 'string')) {
      throw new Error(`context ${k}: ${JSON.stringify(v)} is not a non-empty list of strings (needed with organizationId)`);
    }
    return items as string[];
  };
  const names = raw('accountNames') ?? {};
  const accountNames = typeof names === 'string' ? JSON.parse(names) : names;
  if (typeof accountNames !== 'object' || Array.isArray(accountNames)) throw new Error('context accountNames: not a JSON object of account id -> name');
  const prefix = raw('memberAssetBucketPrefix');
  if (typeof prefix !== 'string') throw new Error('context memberAssetBucketPrefix: required with organizationId (docs/organization.md, step 3)');
  const callAs = raw('stackSetCallAs') ?? 'DELEGATED_ADMIN';
  if (callAs !== 'SELF' && callAs !== 'DELEGATED_ADMIN') throw new Error(`context stackSetCallAs: ${JSON.stringify(callAs)} is not SELF or DELEGATED_ADMIN`);
  const summarySchedule = raw('hubSummarySchedule');
  if (summarySchedule !== undefined && typeof summarySchedule !== 'string') throw new Error('context hubSummarySchedule: not a rate(...) or cron(...) expression');
  return {
    organization: { organizationId: String(organizationId), accountNames: accountNames as Record<string, string>, summarySchedule },
    placement: {
      organizationalUnits: list('stackSetOrganizationalUnits'),
      regions: list('stackSetRegions'),
      assetBucketPrefix: prefix,
      callAs,
    },
  };
}
