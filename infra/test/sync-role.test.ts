// Point 9 (infra side): the role the GitHub Actions sync workflow assumes.
import assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { describe, it } from 'node:test';
import { logicalId, REPO, resourcesOfType, synth } from './helpers';

const REPOSITORY = 'acme/platform';

describe('baselines sync role', () => {
  it('exists only when context names a GitHub repository', () => {
    assert.equal(resourcesOfType(synth().json, 'AWS::IAM::OIDCProvider').length, 0);
    assert.equal(synth().json.Outputs!.SyncRoleArn, undefined);
  });

  it('trusts GitHub OIDC tokens of that repository and ref only', () => {
    const { json } = synth({ githubRepository: REPOSITORY });
    const provider = logicalId(json, 'AWS::IAM::OIDCProvider', 'BaselinesSyncGitHubOidc');
    assert.equal(json.Resources[provider].Properties.Url, 'https://token.actions.githubusercontent.com');
    const role = json.Resources[logicalId(json, 'AWS::IAM::Role', 'BaselinesSyncRole')];
    const [trust] = role.Properties.AssumeRolePolicyDocument.Statement;
    assert.equal(trust.Action, 'sts:AssumeRoleWithWebIdentity');
    assert.deepEqual(trust.Principal, { Federated: { Ref: provider } });
    assert.deepEqual(trust.Condition, {
      StringEquals: { 'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com' },
      StringLike: { 'token.actions.githubusercontent.com:sub': `repo:${REPOSITORY}:ref:refs/heads/main` },
    });
    assert.deepEqual(json.Outputs!.SyncRoleArn.Value, { 'Fn::GetAtt': [logicalId(json, 'AWS::IAM::Role', 'BaselinesSyncRole'), 'Arn'] });
  });

  it('can list, read, write and delete under baselines/ and nothing else (no KMS: the bucket uses SSE-S3)', () => {
    const { json } = synth({ githubRepository: REPOSITORY });
    const roleId = logicalId(json, 'AWS::IAM::Role', 'BaselinesSyncRole');
    const policies = resourcesOfType(json, 'AWS::IAM::Policy').filter(([, p]) => p.Properties.Roles.some((r: any) => r.Ref === roleId));
    assert.equal(policies.length, 1);
    const bucket = logicalId(json, 'AWS::S3::Bucket', 'StorageBucket');
    assert.deepEqual(policies[0][1].Properties.PolicyDocument.Statement, [
      {
        Action: 's3:ListBucket',
        Condition: { StringLike: { 's3:prefix': ['baselines/*'] } },
        Effect: 'Allow',
        Resource: { 'Fn::GetAtt': [bucket, 'Arn'] },
      },
      {
        Action: ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'],
        Effect: 'Allow',
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucket, 'Arn'] }, '/baselines/*']] },
      },
    ]);
    assert.equal(json.Resources[roleId].Properties.ManagedPolicyArns, undefined);
  });

  it('reuses an existing OIDC provider and another ref from context', () => {
    const arn = 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com';
    const { json } = synth({ githubRepository: REPOSITORY, githubOidcProviderArn: arn, githubRef: 'refs/heads/release' });
    assert.equal(resourcesOfType(json, 'AWS::IAM::OIDCProvider').length, 0);
    const [trust] = json.Resources[logicalId(json, 'AWS::IAM::Role', 'BaselinesSyncRole')].Properties.AssumeRolePolicyDocument.Statement;
    assert.deepEqual(trust.Principal, { Federated: arn });
    assert.equal(trust.Condition.StringLike['token.actions.githubusercontent.com:sub'], `repo:${REPOSITORY}:ref:refs/heads/release`);
  });

  it('matches the workflow example: OIDC role assumption, then realdrift baselines sync --bucket', () => {
    const workflow = fs.readFileSync(path.join(REPO, '.github', 'workflows', 'baselines-sync.yml'), 'utf8');
    assert.match(workflow, /id-token: write/);
    assert.match(workflow, /aws-actions\/configure-aws-credentials@v\d+/);
    assert.match(workflow, /role-to-assume: \$\{\{ vars\.REALDRIFT_SYNC_ROLE_ARN \}\}/);
    assert.match(workflow, /realdrift baselines sync --bucket "\$BUCKET"/);
    assert.match(workflow, /branches: \[main\]/);
    assert.match(workflow, /paths: \['baselines\/\*\*'\]/);
  });
});
