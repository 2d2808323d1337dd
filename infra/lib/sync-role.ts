// The role a GitHub Actions workflow assumes through OIDC to run
// `realdrift baselines sync`: it can list, read, write and delete objects
// under baselines/ of the realdrift bucket, and nothing else.
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { RealdriftConfig } from './config';
import { PREFIXES } from './storage';

const GITHUB_OIDC_HOST = 'token.actions.githubusercontent.com';

/**
 * The sync's whole permission set. The bucket uses SSE-S3, so no KMS
 * permission is needed.
 */
export function syncStatements(bucket: s3.IBucket): iam.PolicyStatement[] {
  return [
    new iam.PolicyStatement({
      actions: ['s3:ListBucket'],
      resources: [bucket.bucketArn],
      conditions: { StringLike: { 's3:prefix': [`${PREFIXES.baselines}*`] } },
    }),
    new iam.PolicyStatement({
      actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
      resources: [bucket.arnForObjects(`${PREFIXES.baselines}*`)],
    }),
  ];
}

/** The OIDC-assumable sync role for one repository and ref. */
export class SyncRole extends Construct {
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, config: RealdriftConfig & { githubRepository: string }, bucket: s3.IBucket) {
    super(scope, id);
    const providerArn =
      config.githubOidcProviderArn ??
      new iam.OidcProviderNative(this, 'GitHubOidc', {
        url: `https://${GITHUB_OIDC_HOST}`,
        clientIds: ['sts.amazonaws.com'],
      }).oidcProviderArn;
    this.role = new iam.Role(this, 'Role', {
      description: `realdrift: baselines sync from ${config.githubRepository} (${config.githubRef})`,
      assumedBy: new iam.WebIdentityPrincipal(providerArn, {
        StringEquals: { [`${GITHUB_OIDC_HOST}:aud`]: 'sts.amazonaws.com' },
        StringLike: { [`${GITHUB_OIDC_HOST}:sub`]: `repo:${config.githubRepository}:ref:${config.githubRef}` },
      }),
    });
    for (const s of syncStatements(bucket)) this.role.addToPrincipalPolicy(s);
  }
}
