// The app's configuration: CDK context values (cdk.json, or `-c key=value`),
// validated once, with every default in one place. docs/deploy.md documents
// each key; a bad value fails synth with an error naming the key.
import * as path from 'path';

/** Lambda architecture of the three functions. */
export type Architecture = 'arm64' | 'x86_64';

/** Everything the stack reads from context. */
export interface RealdriftConfig {
  /** CloudFormation stack name of realdrift itself. */
  readonly stackName: string;
  /** Stack-name globs the functions watch; empty = every CDK stack of the region. */
  readonly stacks: string[];
  /** EventBridge schedule expression of the full scan. */
  readonly schedule: string;
  /** Email addresses subscribed to the alert topic. */
  readonly alertEmails: string[];
  /** Name or ARN of an existing Slack webhook secret; undefined = create an empty one. */
  readonly slackSecret?: string;
  /** KMS key ARN of an existing Slack secret encrypted with a customer managed key. */
  readonly slackSecretKmsKeyArn?: string;
  /** Days between rotations of the alert topic's key (90–2560; 365 is KMS's own default). */
  readonly topicKeyRotationDays: number;
  /** Create a CloudTrail trail for management events (for accounts without one). */
  readonly createTrail: boolean;
  /** Days the optional trail's log files are kept. */
  readonly trailRetentionDays: number;
  /** Import drift transitions into each member account's Security Hub as ASFF findings (docs/organization.md). */
  readonly securityHub: boolean;
  /** Declare the functions' 3 custom metrics in CloudWatch (REALDRIFT_CUSTOM_METRICS=1; billed per metric); false = log fields only. */
  readonly customMetrics: boolean;
  /** Parallel resource reads per stack (REALDRIFT_CONCURRENCY). */
  readonly concurrency: number;
  /** Consecutive failed reads of a resource before coverage-lost (REALDRIFT_COVERAGE_LOST_AFTER). */
  readonly coverageLostAfter: number;
  /** Seconds on-change remembers that no stack owns a physical id (REALDRIFT_LOOKUP_CACHE_SECONDS). */
  readonly lookupCacheSeconds: number;
  /** Managed policy (name or ARN) used as the revert role's permissions boundary; undefined = the one the app ships. */
  readonly revertPermissionsBoundary?: string;
  /** Non-IAM resource types revert may write (update handler actions; delete only for out-of-band child types). */
  readonly revertTypes: string[];
  /** IAM resource types a team opts into (revert may then rewrite their policies and trust). */
  readonly revertIamTypes: string[];
  /** Role ARNs (globs allowed) that may invoke revert; nobody else can. Empty = nobody. */
  readonly revertInvokers: string[];
  /** Role ARNs (globs allowed) revert may pass to a service when it restores a role property. */
  readonly revertPassRoles: string[];
  /** Lambda architecture. */
  readonly architecture: Architecture;
  /** Directory holding <binary>/bootstrap.zip from `cargo lambda build --output-format zip` (default ../target/lambda/<architecture>). */
  readonly lambdaAssets: string;
  /** The repository's baselines directory, synced to s3://bucket/baselines/ on deploy. */
  readonly baselinesDir: string;
  /** The on-change event table (core/data/cloudtrail-events.json). */
  readonly cloudtrailEventsFile: string;
  /** Days a replaced or deleted object version is kept in the bucket. */
  readonly noncurrentVersionDays: number;
  /** Days the functions' logs are kept. */
  readonly logRetentionDays: number;
  /** Seconds a change event waits in the queue before on-change reads (lets changes settle). */
  readonly changeDelaySeconds: number;
  /** Most on-change invocations the change queue runs at once (ScalingConfig MaximumConcurrency, 2-1000). */
  readonly changeConcurrency: number;
  /** Most change events per on-change invocation (BatchSize; above 10 needs a batching window). */
  readonly changeBatchSize: number;
  /** Seconds the change queue's event source gathers events before invoking on-change (MaximumBatchingWindowInSeconds, 0-300). */
  readonly changeBatchWindowSeconds: number;
  /** Most scan workers the scan queue runs at once (ScalingConfig MaximumConcurrency, 2-1000). */
  readonly scanConcurrency: number;
  /** Seconds in which a value flipped back and forth is announced once, then summarized (REALDRIFT_FLAP_WINDOW_SECONDS; 0 = off). */
  readonly flapWindowSeconds: number;
  /** Seconds in which a burst of changed resources opens a storm (one alert), and the quiet that closes it (REALDRIFT_STORM_WINDOW_SECONDS; 0 = off). */
  readonly stormWindowSeconds: number;
  /** Changed resources inside one storm window that open a storm (REALDRIFT_STORM_THRESHOLD; 0 = off). */
  readonly stormThreshold: number;
  /** RUST_LOG of the functions. */
  readonly logLevel: string;
  /** Existing bucket receiving the realdrift bucket's server access logs; undefined = none. */
  readonly accessLogsBucket?: string;
  /** `owner/repo` allowed to sync baselines through GitHub OIDC; undefined = no sync role. */
  readonly githubRepository?: string;
  /** Git ref of that repository allowed to sync (`refs/heads/main`). */
  readonly githubRef: string;
  /** ARN of the account's existing GitHub OIDC provider; undefined = create one. */
  readonly githubOidcProviderArn?: string;
  /** The on-change record facts (core/data/cloudtrail-facts.json): which services are global. */
  readonly cloudtrailFactsFile: string;
  /** The home Region: `-c region`, else CDK_DEFAULT_REGION (the CLI's); undefined = unknown. */
  readonly region?: string;
  /** True when `region` came from context: the stack is then pinned to it. */
  readonly regionFromContext: boolean;
  /** Deploy the us-east-1 forwarder of global services' events when the home Region is elsewhere. */
  readonly globalEventsForwarder: boolean;
  /** Emit CDK's bootstrap-version check (off only for the local emulator, which cannot evaluate it). */
  readonly bootstrapVersionRule: boolean;
  /** CloudFormation termination protection of the realdrift stack. */
  readonly terminationProtection: boolean;
}

/** Where relative paths in context are anchored: the infra/ directory. */
export const INFRA_DIR = path.resolve(__dirname, '..');

/** The types revert may write unless `revertTypes` says otherwise (IAM types are opt-in: revertIamTypes). */
export const DEFAULT_REVERT_TYPES = [
  'AWS::DynamoDB::Table',
  'AWS::Events::Rule',
  'AWS::Lambda::Function',
  'AWS::Lambda::Permission',
  'AWS::Logs::LogGroup',
  'AWS::S3::Bucket',
  'AWS::S3::BucketPolicy',
  'AWS::SNS::Subscription',
  'AWS::SNS::Topic',
  'AWS::SNS::TopicPolicy',
  'AWS::SQS::Queue',
  'AWS::SQS::QueuePolicy',
];

/** The retention periods CloudWatch Logs accepts. */
const LOG_RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653];

type Lookup = (key: string) => unknown;

/**
 * Where scripts/build-functions.sh writes the zips by default:
 * `${CARGO_TARGET_DIR:-target}/lambda/<architecture>`, a relative target
 * directory taken from the repository root, where the script runs cargo.
 */
export function defaultLambdaAssets(architecture: Architecture, cargoTargetDir?: string): string {
  const target = cargoTargetDir ? path.resolve(INFRA_DIR, '..', cargoTargetDir) : path.join('..', 'target');
  return path.join(target, 'lambda', architecture);
}

/** A Region name (`eu-west-1`, `us-gov-west-1`). */
const REGION = /^[a-z]{2}(-[a-z]+)+-\d$/;

/**
 * Reads and validates the configuration through a context lookup
 * (`node.tryGetContext`); `defaultRegion` is the CLI's CDK_DEFAULT_REGION,
 * `cargoTargetDir` cargo's CARGO_TARGET_DIR (where the zips are by default).
 */
export function loadConfig(get: Lookup, defaultRegion?: string, cargoTargetDir?: string): RealdriftConfig {
  const r = new Reader(get);
  // x86_64 by default: the architecture the project builds and tests here.
  const architecture = r.oneOf('architecture', 'x86_64', ['arm64', 'x86_64']) as Architecture;
  const contextRegion = r.optional('region', REGION);
  const region = contextRegion ?? (defaultRegion && REGION.test(defaultRegion) ? defaultRegion : undefined);
  const config: RealdriftConfig = {
    stackName: r.string('stackName', 'Realdrift', /^[A-Za-z][A-Za-z0-9-]{0,127}$/),
    stacks: r.list('stacks', []),
    schedule: r.string('schedule', 'rate(1 hour)', /^(rate|cron)\(.+\)$/),
    alertEmails: r.list('alertEmails', [], /^[^@\s]+@[^@\s]+\.[^@\s]+$/),
    slackSecret: r.optional('slackSecret', /^(arn:aws[a-z-]*:secretsmanager:.+|[A-Za-z0-9/_+=.@-]{1,512})$/),
    topicKeyRotationDays: r.int('topicKeyRotationDays', 365, 90, 2560),
    slackSecretKmsKeyArn: r.optional('slackSecretKmsKeyArn', /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/.+$/),
    createTrail: r.bool('createTrail', false),
    trailRetentionDays: r.int('trailRetentionDays', 90, 1, 3650),
    securityHub: r.bool('securityHub', false),
    customMetrics: r.bool('customMetrics', false),
    concurrency: r.int('concurrency', 16, 1, 128),
    coverageLostAfter: r.int('coverageLostAfter', 2, 1, 100),
    lookupCacheSeconds: r.int('lookupCacheSeconds', 300, 0, 86400),
    revertPermissionsBoundary: r.optional('revertPermissionsBoundary', /^(arn:aws[a-z-]*:iam::\d{12}:policy\/.+|[\w+=,.@/-]{1,128})$/),
    revertTypes: r.list('revertTypes', DEFAULT_REVERT_TYPES, /^[A-Za-z0-9]+::[A-Za-z0-9]+::[A-Za-z0-9]+$/),
    revertIamTypes: r.list('revertIamTypes', [], /^AWS::IAM::[A-Za-z0-9]+$/),
    revertInvokers: r.list('revertInvokers', [], /^arn:aws[a-z-]*:iam::\d{12}:role\/.+$/),
    revertPassRoles: r.list('revertPassRoles', [], /^arn:aws[a-z-]*:iam::(\d{12}|\*):role\/.+$/),
    architecture,
    lambdaAssets: r.path('lambdaAssets', defaultLambdaAssets(architecture, cargoTargetDir)),
    baselinesDir: r.path('baselinesDir', '../baselines'),
    cloudtrailEventsFile: r.path('cloudtrailEventsFile', '../core/data/cloudtrail-events.json'),
    noncurrentVersionDays: r.int('noncurrentVersionDays', 90, 1, 3650),
    logRetentionDays: r.intOneOf('logRetentionDays', 30, LOG_RETENTION_DAYS),
    changeDelaySeconds: r.int('changeDelaySeconds', 30, 0, 900),
    changeConcurrency: r.int('changeConcurrency', 5, 2, 1000),
    changeBatchSize: r.int('changeBatchSize', 100, 1, 10000),
    changeBatchWindowSeconds: r.int('changeBatchWindowSeconds', 10, 0, 300),
    scanConcurrency: r.int('scanConcurrency', 5, 2, 1000),
    flapWindowSeconds: r.int('flapWindowSeconds', 600, 0, 86400),
    stormWindowSeconds: r.int('stormWindowSeconds', 300, 0, 3600),
    stormThreshold: r.int('stormThreshold', 10, 0, 10000),
    logLevel: r.string('logLevel', 'info', /^[A-Za-z0-9_=,:.-]+$/),
    accessLogsBucket: r.optional('accessLogsBucket', /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/),
    githubRepository: r.optional('githubRepository', /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/),
    githubRef: r.string('githubRef', 'refs/heads/main', /^refs\/[A-Za-z0-9_./*-]+$/),
    githubOidcProviderArn: r.optional('githubOidcProviderArn', /^arn:aws[a-z-]*:iam::\d{12}:oidc-provider\/.+$/),
    cloudtrailFactsFile: r.path('cloudtrailFactsFile', '../core/data/cloudtrail-facts.json'),
    region,
    regionFromContext: contextRegion !== undefined,
    globalEventsForwarder: r.bool('globalEventsForwarder', true),
    bootstrapVersionRule: r.bool('bootstrapVersionRule', true),
    terminationProtection: r.bool('terminationProtection', false),
  };
  if (config.changeBatchSize > 10 && config.changeBatchWindowSeconds < 1) {
    // Lambda refuses a BatchSize above 10 without a batching window of at least 1 s.
    throw new Error(
      `context changeBatchSize: ${config.changeBatchSize} needs changeBatchWindowSeconds of at least 1 (Lambda requires a batching window above 10 messages); set changeBatchSize to 10 or less, or a window`,
    );
  }
  return config;
}

/** Typed access to context values, which arrive as JSON from cdk.json and as strings from `-c`. */
class Reader {
  constructor(private readonly get: Lookup) {}

  private raw(key: string): unknown {
    const v = this.get(key);
    return v === '' ? undefined : v;
  }

  private fail(key: string, value: unknown, want: string): never {
    throw new Error(`context ${key}: ${JSON.stringify(value)} is not ${want}`);
  }

  string(key: string, fallback: string, re: RegExp): string {
    return this.optional(key, re) ?? fallback;
  }

  optional(key: string, re: RegExp): string | undefined {
    const v = this.raw(key);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string' || !re.test(v)) this.fail(key, v, `a string matching ${re}`);
    return v;
  }

  oneOf(key: string, fallback: string, allowed: string[]): string {
    const v = this.raw(key) ?? fallback;
    if (typeof v !== 'string' || !allowed.includes(v)) this.fail(key, v, `one of ${allowed.join(', ')}`);
    return v;
  }

  bool(key: string, fallback: boolean): boolean {
    const v = this.raw(key);
    if (v === undefined || v === null) return fallback;
    if (v === true || v === 'true') return true;
    if (v === false || v === 'false') return false;
    return this.fail(key, v, 'true or false');
  }

  int(key: string, fallback: number, min: number, max: number): number {
    const v = this.raw(key);
    if (v === undefined || v === null) return fallback;
    const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
      this.fail(key, v, `an integer from ${min} to ${max}`);
    }
    return n;
  }

  intOneOf(key: string, fallback: number, allowed: number[]): number {
    const n = this.int(key, fallback, Math.min(...allowed), Math.max(...allowed));
    if (!allowed.includes(n)) this.fail(key, n, `one of ${allowed.join(', ')}`);
    return n;
  }

  /** A JSON list, or a comma-separated string (`-c stacks=Prod*,Api*`). */
  list(key: string, fallback: string[], re?: RegExp): string[] {
    const v = this.raw(key);
    if (v === undefined || v === null) return [...fallback];
    const items = typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter((s) => s !== '') : v;
    if (!Array.isArray(items) || items.some((i) => typeof i !== 'string' || (re !== undefined && !re.test(i)))) {
      this.fail(key, v, re ? `a list of strings matching ${re}` : 'a list of strings');
    }
    return items as string[];
  }

  /** A path, relative ones anchored at infra/. */
  path(key: string, fallback: string): string {
    const v = this.raw(key) ?? fallback;
    if (typeof v !== 'string') this.fail(key, v, 'a path');
    return path.resolve(INFRA_DIR, v);
  }
}
