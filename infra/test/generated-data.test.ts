// The committed permission sets are exactly what the generator produces from
// the pinned schemas and catalogue (scripts/gen-permissions.sh --check).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'path';
import { describe, it } from 'node:test';
import { CFN_LINT_MISSING, INFRA, cfnLintPath } from './helpers';

describe('generated permission data', () => {
  it('infra/data/*-permissions.json are current', () => {
    const cfnLint = cfnLintPath();
    assert.ok(cfnLint, CFN_LINT_MISSING);
    // The script finds cfn-lint's data through the python next to cfn-lint.
    const python = path.join(path.dirname(cfnLint!), 'python');
    const data = spawnSync(python, ['-c', 'import cfnlint, os; print(os.path.join(os.path.dirname(cfnlint.__file__), "data"))'], {
      encoding: 'utf8',
    });
    assert.equal(data.status, 0, data.stderr);
    const result = spawnSync(path.join(INFRA, 'scripts', 'gen-permissions.sh'), ['--check'], {
      encoding: 'utf8',
      env: { ...process.env, CFNLINT_DATA_DIR: data.stdout.trim() },
    });
    assert.equal(result.status, 0, result.stdout + result.stderr);
  });
});
