// Validation of the constructs' props, so a team placing RealdriftMember or
// RealdriftHub in its own app gets the errors the context keys give: each
// names the prop and what it must be.
import { Token } from 'aws-cdk-lib';

/** The retention periods CloudWatch Logs accepts. */
export const LOG_RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653];

/** An AWS Organizations organization id (`o-` and 10 to 32 lower-case letters or digits). */
export const ORGANIZATION_ID = /^o-[a-z0-9]{10,32}$/;

/** A 12-digit AWS account id. */
export const ACCOUNT_ID = /^\d{12}$/;

function fail(construct: string, prop: string, value: unknown, want: string): never {
  throw new Error(`${construct} props.${prop}: ${JSON.stringify(value)} is not ${want}`);
}

/** Throws unless `value` is an integer in [min, max] (tokens pass: they resolve at deploy). */
export function checkInt(construct: string, prop: string, value: number, min: number, max: number): void {
  if (Token.isUnresolved(value)) return;
  if (!Number.isInteger(value) || value < min || value > max) fail(construct, prop, value, `an integer from ${min} to ${max}`);
}

/** Throws unless `value` matches `re` (tokens pass). */
export function checkString(construct: string, prop: string, value: string, re: RegExp): void {
  if (Token.isUnresolved(value)) return;
  if (typeof value !== 'string' || !re.test(value)) fail(construct, prop, value, `a string matching ${re}`);
}

/** What `validateMemberProps` reads. */
interface MemberNumbers {
  readonly schedule: string;
  readonly concurrency: number;
  readonly coverageLostAfter: number;
  readonly lookupCacheSeconds: number;
  readonly changeDelaySeconds: number;
  readonly scanConcurrency: number;
  readonly changeConcurrency: number;
  readonly changeBatchSize: number;
  readonly changeBatchWindowSeconds: number;
  readonly flapWindowSeconds: number;
  readonly stormWindowSeconds: number;
  readonly stormThreshold: number;
  readonly logRetentionDays: number;
  readonly trailRetentionDays: number;
  readonly stacks: string[];
  readonly architecture: string;
  readonly logLevel: string;
}

/** Throws naming the first RealdriftMember prop out of range. */
export function validateMemberProps(p: MemberNumbers): void {
  const c = 'RealdriftMember';
  checkString(c, 'schedule', p.schedule, /^(rate|cron)\(.+\)$/);
  checkInt(c, 'concurrency', p.concurrency, 1, 128);
  checkInt(c, 'coverageLostAfter', p.coverageLostAfter, 1, 100);
  checkInt(c, 'lookupCacheSeconds', p.lookupCacheSeconds, 0, 86400);
  checkInt(c, 'changeDelaySeconds', p.changeDelaySeconds, 0, 900);
  checkInt(c, 'scanConcurrency', p.scanConcurrency, 2, 1000);
  checkInt(c, 'changeConcurrency', p.changeConcurrency, 2, 1000);
  checkInt(c, 'changeBatchSize', p.changeBatchSize, 1, 10000);
  checkInt(c, 'changeBatchWindowSeconds', p.changeBatchWindowSeconds, 0, 300);
  checkInt(c, 'flapWindowSeconds', p.flapWindowSeconds, 0, 86400);
  checkInt(c, 'stormWindowSeconds', p.stormWindowSeconds, 0, 3600);
  checkInt(c, 'stormThreshold', p.stormThreshold, 0, 10000);
  if (!Token.isUnresolved(p.changeBatchSize) && p.changeBatchSize > 10 && p.changeBatchWindowSeconds < 1) {
    fail(c, 'changeBatchWindowSeconds', p.changeBatchWindowSeconds, 'at least 1 when changeBatchSize is above 10 (Lambda requires a batching window there)');
  }
  checkInt(c, 'trailRetentionDays', p.trailRetentionDays, 1, 3650);
  checkString(c, 'logLevel', p.logLevel, /^[A-Za-z0-9_=,:.-]+$/);
  if (!LOG_RETENTION_DAYS.includes(p.logRetentionDays)) fail(c, 'logRetentionDays', p.logRetentionDays, `one of ${LOG_RETENTION_DAYS.join(', ')}`);
  if (!['arm64', 'x86_64'].includes(p.architecture)) fail(c, 'architecture', p.architecture, 'arm64 or x86_64');
  p.stacks.forEach((s, i) => checkString(c, `stacks[${i}]`, s, /^[^\s,]+$/));
}
