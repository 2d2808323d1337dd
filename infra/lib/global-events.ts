// Global services (IAM, CloudFront, Route 53) deliver their CloudTrail events
// to EventBridge in us-east-1 only. Outside it, a small us-east-1 stack
// forwards the ones on-change maps to the home Region's default bus, where
// the main stack's change rules pick them up like any other event. A
// forward that fails every retry lands in this stack's own dead-letter queue
// and raises an alarm on this stack's own topic: EventBridge takes a
// dead-letter queue in the rule's Region only, and CloudWatch alarms notify a
// topic in their own Region only (docs/deploy.md, "Failures").
import { Arn, Aws, Stack, StackProps } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subs from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { ChangePattern, ChangeRuleFacts, patternId } from './change-patterns';
import { FailureRouting } from './failures';
import { changeRule } from './triggers';

/** The context keys the decision reads, named in its errors. */
const REGION_KEY = 'region';
const FORWARDER_KEY = 'globalEventsForwarder';

/** What the app must do about global services' events. */
export type GlobalEventsPlan =
  | { readonly kind: 'none'; readonly why: string }
  | { readonly kind: 'forward'; readonly from: string; readonly to: string; readonly patterns: ChangePattern[] };

/** The inputs of the decision. */
export interface GlobalEventsInputs {
  /** The home Region, when known (`-c region`, else CDK_DEFAULT_REGION). */
  readonly homeRegion?: string;
  /** `globalEventsForwarder`: false = the user accepts that global changes reach scans only. */
  readonly forwarder: boolean;
  /** The change patterns of the whole event table. */
  readonly patterns: ChangePattern[];
  /** The global services of the engine's record facts. */
  readonly globalSources: string[];
  readonly facts: ChangeRuleFacts;
}

/**
 * Decides whether a forwarder is needed, or refuses (throws) when it is
 * needed and cannot be placed: the home Region is unknown, or in a partition
 * whose global-events Region the facts do not state.
 */
export function planGlobalEvents(i: GlobalEventsInputs): GlobalEventsPlan {
  const global = i.patterns.filter((p) => i.globalSources.includes(p.eventSource));
  const services = [...new Set(global.map((p) => p.eventSource))].join(', ');
  if (global.length === 0) return { kind: 'none', why: 'the event table maps no global service' };
  if (!i.forwarder) return { kind: 'none', why: `${FORWARDER_KEY}=false: changes through ${services} reach the scan only` };
  const optOut = `or -c ${FORWARDER_KEY}=false to accept that their changes are seen by the scheduled scan only`;
  if (i.homeRegion === undefined) {
    throw new Error(
      `context ${REGION_KEY}: the home Region is unknown (no -c ${REGION_KEY}=R and CDK_DEFAULT_REGION is unset). ` +
        `realdrift watches ${services}, whose CloudTrail events EventBridge delivers in ${i.facts.globalEventsRegion} only, ` +
        `and must know whether to forward them: set -c ${REGION_KEY}=<the Region you deploy to>, ${optOut}`,
    );
  }
  if (i.facts.otherPartitionRegionPrefixes.some((prefix) => i.homeRegion!.startsWith(prefix))) {
    throw new Error(
      `context ${REGION_KEY}: ${i.homeRegion} is outside the commercial partition, where realdrift does not know ` +
        `which Region receives the events of ${services}; set -c ${FORWARDER_KEY}=false to accept that their ` +
        `changes are seen by the scheduled scan only`,
    );
  }
  if (i.homeRegion === i.facts.globalEventsRegion) return { kind: 'none', why: `the home Region is ${i.homeRegion}` };
  return { kind: 'forward', from: i.facts.globalEventsRegion, to: i.homeRegion, patterns: global };
}

/** Props of the forwarder stack. */
export interface GlobalEventsStackProps extends StackProps {
  /** The Region whose default bus receives the events (the home Region). */
  readonly homeRegion: string;
  /** The global services' change patterns (the same ones the home stack's rules match). */
  readonly patterns: ChangePattern[];
  /** Email addresses subscribed to this stack's alarm topic (default: none; the home stack's `alertEmails`). */
  readonly alertEmails?: string[];
}

/** The us-east-1 stack: one rule per global pattern, targeting the home Region's default bus. */
export class GlobalEventsStack extends Stack {
  /** The role EventBridge assumes to put events on the home bus. */
  readonly role: iam.Role;
  readonly rules: events.Rule[];
  /** Where this stack's alarms notify (subscribe to it as to the home alert topic). */
  readonly alarmTopic: sns.Topic;
  /** The dead-letter queue of every forwarder rule, with its alarms. */
  readonly failures: FailureRouting;

  constructor(scope: Construct, id: string, props: GlobalEventsStackProps) {
    super(scope, id, props);
    if (props.patterns.length === 0) throw new Error(`${id}: patterns is empty; nothing to forward`);
    const homeBus = events.EventBus.fromEventBusArn(
      this,
      'HomeBus',
      Arn.format({ service: 'events', region: props.homeRegion, resource: 'event-bus', resourceName: 'default' }, this),
    );
    // Only EventBridge rules of this account may assume it (confused deputy).
    this.role = new iam.Role(this, 'ForwarderRole', {
      description: `realdrift: lets EventBridge put global services' change events on the ${props.homeRegion} default bus`,
      assumedBy: new iam.ServicePrincipal('events.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
      }),
    });
    homeBus.grantPutEventsTo(this.role);
    const target = new targets.EventBus(homeBus, { role: this.role });
    this.rules = props.patterns.map((p) => changeRule(this, `Forward${patternId(p)}`, p, `forwards to ${props.homeRegion}`, target));
    this.alarmTopic = alarmTopic(this, props.alertEmails ?? []);
    this.failures = new FailureRouting(this, 'FailedForwards', { alarmTopic: this.alarmTopic });
    this.failures.routeRules(this);
  }
}

/**
 * The forwarder's alarm topic. It carries only CloudWatch alarm state changes
 * about the forwarder (no drift, no resource data), so it is not encrypted
 * with a customer managed key (which CloudWatch would need, at a key-month
 * each); TLS is enforced.
 */
function alarmTopic(scope: Construct, emails: string[]): sns.Topic {
  const topic = new sns.Topic(scope, 'AlarmTopic', { displayName: 'realdrift forwarder alarms', enforceSSL: true });
  // enforceSSL's topic policy replaces SNS's default one: allow this account's alarms.
  topic.addToResourcePolicy(
    new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
    }),
  );
  for (const email of emails) topic.addSubscription(new subs.EmailSubscription(email));
  return topic;
}
