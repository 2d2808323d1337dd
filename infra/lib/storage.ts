// The realdrift bucket and the deploy-time sync of the repository's
// baselines/ into it.
import * as fs from 'fs';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { RealdriftConfig } from './config';

/** The S3 prefixes of the realdrift bucket (DESIGN.md, S3 layout). */
export const PREFIXES = {
  /** Synced from git; read by every function, written only by the sync. */
  baselines: 'baselines/',
  /** Last findings per stack; read/write by scan and on-change, read by revert. */
  state: 'state/',
  /** Physical id -> stack index; read/write by scan and on-change, read by revert. */
  index: 'index/',
  /** Schema and other caches; read/write by scan and on-change. */
  cache: 'cache/',
} as const;

/** A prefix name of the realdrift bucket. */
export type Prefix = keyof typeof PREFIXES;

/**
 * What the bucket is made from (context noncurrentVersionDays, logRetentionDays,
 * accessLogsBucket); `baselinesDir` undefined = no baselines/ sync on deploy
 * (a member's own bucket: its baselines live in the hub's).
 */
export type StorageSettings = Pick<RealdriftConfig, 'noncurrentVersionDays' | 'logRetentionDays' | 'accessLogsBucket'> & {
  readonly baselinesDir?: string;
};

/** The versioned, encrypted, TLS-only bucket, and the BucketDeployment of baselines/. */
export class Storage extends Construct {
  /** The realdrift bucket. */
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string, config: StorageSettings) {
    super(scope, id);
    const accessLogs = config.accessLogsBucket
      ? s3.Bucket.fromBucketName(this, 'AccessLogs', config.accessLogsBucket)
      : undefined;
    this.bucket = new s3.Bucket(this, 'Bucket', {
      versioned: true,
      // SSE-S3: the functions and the sync need no KMS permission for it, and a
      // retained bucket never outlives a key it depends on.
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [
        {
          id: 'ExpireNoncurrentVersions',
          noncurrentVersionExpiration: Duration.days(config.noncurrentVersionDays),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: accessLogs ? 'realdrift/' : undefined,
      // Baselines and findings history outlive the stack: `cdk destroy` keeps them.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    if (config.baselinesDir !== undefined) this.syncBaselines(config.baselinesDir, config.logRetentionDays);
  }

  /** The deploy-time mirror of the repository's baselines/ into baselines/ of the bucket. */
  private syncBaselines(baselinesDir: string, logRetentionDays: number): void {
    if (!fs.existsSync(baselinesDir) || !fs.statSync(baselinesDir).isDirectory()) {
      throw new Error(`context baselinesDir: ${baselinesDir} is not a directory`);
    }
    // Mirrors baselines/ on every deploy. prune deletes keys that left git, but
    // only under the destination prefix: state/, index/ and cache/ are untouched.
    const deployment = new s3deploy.BucketDeployment(this, 'Baselines', {
      sources: [s3deploy.Source.asset(baselinesDir, { exclude: ['.gitkeep'] })],
      destinationBucket: this.bucket,
      destinationKeyPrefix: PREFIXES.baselines,
      prune: true,
      retainOnDelete: true,
      memoryLimit: 256,
      logGroup: new logs.LogGroup(this, 'BaselinesLogs', {
        retention: logRetentionDays as logs.RetentionDays,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
    });
    // aws-cdk-lib grants its handler writes on every object of the bucket;
    // the deny keeps them under baselines/ (state/, index/, cache/ are the functions').
    deployment.handlerRole.addToPrincipalPolicy(
      new iam.PolicyStatement({
        effect: iam.Effect.DENY,
        actions: ['s3:PutObject*', 's3:DeleteObject*', 's3:Abort*'],
        notResources: [this.bucket.arnForObjects(`${PREFIXES.baselines}*`)],
      }),
    );
  }

  /** ARN pattern of every object under the given prefixes. */
  objectArns(prefixes: Prefix[]): string[] {
    return objectArns(this.bucket, prefixes);
  }

  /** See `grantPrefixes`. */
  grant(grantee: iam.IGrantable, read: Prefix[], write: Prefix[]): void {
    grantPrefixes(grantee, this.bucket, read, write);
  }
}

/** ARN pattern of every object under the given prefixes of a bucket. */
export function objectArns(bucket: s3.IBucket, prefixes: Prefix[]): string[] {
  return prefixes.map((p) => bucket.arnForObjects(`${PREFIXES[p]}*`));
}

/**
 * Object reads under `read`, writes under `write`, and ListBucket (so a
 * missing key answers 404, not 403: a stack without a baseline is not an
 * access error).
 */
export function grantPrefixes(grantee: iam.IGrantable, bucket: s3.IBucket, read: Prefix[], write: Prefix[]): void {
  grantee.grantPrincipal.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }),
  );
  if (read.length > 0) {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: objectArns(bucket, read) }),
    );
  }
  if (write.length > 0) {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['s3:PutObject', 's3:DeleteObject'], resources: objectArns(bucket, write) }),
    );
  }
}
