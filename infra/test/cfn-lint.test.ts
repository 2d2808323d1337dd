// cfn-lint (pinned in requirements.txt) finds nothing in the synthesized
// templates: the default app and one with every option on.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { describe, it } from 'node:test';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { globalEventsStackName } from '../lib/app';
import { CFN_LINT_MISSING, cfnLintPath, synth } from './helpers';

const VARIANTS: Record<string, unknown>[] = [
  {},
  {
    createTrail: true,
    alertEmails: ['ops@example.com'],
    githubRepository: 'acme/platform',
    revertPermissionsBoundary: 'RealdriftRevertBoundary',
    revertPassRoles: ['arn:aws:iam::123456789012:role/app-*'],
    accessLogsBucket: 'central-logs',
  },
];

describe('cfn-lint', () => {
  it('is clean on the synthesized templates', () => {
    const cfnLint = cfnLintPath();
    assert.ok(cfnLint, CFN_LINT_MISSING);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'realdrift-cfnlint-'));
    const files = VARIANTS.map((context, i) => {
      const file = path.join(dir, `Realdrift${i}.template.json`);
      fs.writeFileSync(file, JSON.stringify(synth(context).json, null, 1));
      return file;
    });
    // The us-east-1 forwarder of a home Region elsewhere.
    const forwarder = synth({ region: 'eu-west-1' }).app.node.findChild(globalEventsStackName('Realdrift')) as Stack;
    const forwarderFile = path.join(dir, 'RealdriftGlobalEvents.template.json');
    fs.writeFileSync(forwarderFile, JSON.stringify(Template.fromStack(forwarder).toJSON(), null, 1));
    files.push(forwarderFile);
    // W3005 (a DependsOn that a GetAtt already implies) is how aws-cdk-lib
    // writes every Lambda function's dependency on its role, including its own
    // BucketDeployment handler; the redundancy is harmless and not ours to edit.
    const result = spawnSync(cfnLint, ['--format', 'parseable', '--ignore-checks', 'W3005', '--', ...files], {
      encoding: 'utf8',
    });
    assert.equal(result.error, undefined);
    assert.equal(result.stdout + result.stderr, '');
    assert.equal(result.status, 0);
  });
});
