// data/sdk-actions.json against the Rust sources, both ways: every AWS SDK
// call the engine and the functions make has its IAM action granted (or is on
// realdrift's own resources), and every granted reader action is still called.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sdkActions } from '../lib/permission-data';
import { IamCatalogue } from '../tools/iam-catalogue';
import { sdkCalls } from './rust-sdk-calls';

describe('data/sdk-actions.json', () => {
  const table = sdkActions();
  const catalogue = new IamCatalogue();
  const calls = sdkCalls(table.clientPrefixes, catalogue);
  const rows = [...table.readers, ...table.writers];

  it('finds the engine\'s SDK calls (the scan is looking in the right place)', () => {
    assert.ok(calls.has('cloudcontrol.get_resource'), [...calls.keys()].join(', '));
    assert.ok(calls.size >= 10);
  });

  it('has a row for every SDK call in the Rust sources', () => {
    const known = new Set([...rows.map((r) => r.sdk), ...table.ownResources.map((o) => o.sdk)]);
    const missing = [...calls.entries()].filter(([k]) => !known.has(k)).map(([k, files]) => `${k} (${[...new Set(files)].join(', ')})`);
    assert.deepEqual(missing, [], 'add these calls and their IAM actions to infra/data/sdk-actions.json');
  });

  it('grants nothing that is no longer called, unless the row says why it is pending', () => {
    const stale = rows.filter((r) => !calls.has(r.sdk) && !r.pending).map((r) => r.sdk);
    assert.deepEqual(stale, []);
  });

  it('names real IAM actions, with the SDK client\'s service prefix and a reason', () => {
    for (const r of rows) {
      const [client] = r.sdk.split('.');
      assert.ok(catalogue.lookup(r.action), `${r.action} is not an IAM action`);
      assert.equal(r.action.split(':')[0], table.clientPrefixes[client], r.sdk);
      assert.ok(r.reason.length > 10, `${r.sdk} needs a reason`);
    }
  });
});
