// CloudFormation logical ids as aws-cdk-lib computes them from a construct
// path (its private makeUniqueId, which it does not export): a readable part
// and a hash of the path. Used where a stack leaves a construct level out of
// its ids, so the ids stay what they were before that level existed.
import { createHash } from 'crypto';

/** Left out of ids everywhere (CDK: the default child of a construct). */
const HIDDEN_ID = 'Default';
/** Left out of the readable part only. */
const HIDDEN_FROM_HUMAN_ID = 'Resource';
const HASH_LEN = 8;
const MAX_HUMAN_LEN = 240;
const MAX_ID_LEN = 255;

const alnum = (s: string) => s.replace(/[^A-Za-z0-9]/g, '');

/** Consecutive components where the later ends the earlier are kept once. */
function removeDupes(path: string[]): string[] {
  const out: string[] = [];
  for (const c of path) if (out.length === 0 || !out[out.length - 1].endsWith(c)) out.push(c);
  return out;
}

/** The logical id of the path `components` below the stack. */
export function makeUniqueId(components: string[]): string {
  const path = components.filter((c) => c !== HIDDEN_ID);
  if (path.length === 0) throw new Error('makeUniqueId: no path components');
  if (path.length === 1 && alnum(path[0]).length <= MAX_ID_LEN) return alnum(path[0]);
  const hash = createHash('md5').update(path.join('/')).digest('hex').slice(0, HASH_LEN).toUpperCase();
  const human = removeDupes(path)
    .filter((c) => c !== HIDDEN_FROM_HUMAN_ID)
    .map(alnum)
    .join('')
    .slice(0, MAX_HUMAN_LEN);
  return human + hash;
}
