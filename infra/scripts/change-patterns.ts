// Prints the change rules' event patterns as JSON, the same ones the app
// synthesizes (change-patterns.ts), for tests that evaluate them with a real
// matcher (tests/emulator/test_change_rules.py):
//   npx ts-node --transpile-only scripts/change-patterns.ts [events.json]
import * as path from 'path';
import { changePatterns, loadChangeRuleFacts, patternId } from '../lib/change-patterns';
import { loadEventNames } from '../lib/event-sources';

const table = process.argv[2] ?? path.resolve(__dirname, '..', '..', 'core', 'data', 'cloudtrail-events.json');
const patterns = changePatterns(loadEventNames(table), loadChangeRuleFacts());
process.stdout.write(JSON.stringify(patterns.map((p) => ({ id: `Changes${patternId(p)}`, eventSource: p.eventSource, pattern: p.pattern }))) + '\n');
