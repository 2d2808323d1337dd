"""Source `docs`: defaults and compare rules stated by the CloudFormation documentation of a property."""
import json
import os
import re

from .blocks import enum_member_default, single_member_default
from .botocore_reader import Botocore, api_enum, strip_html
from .paths import DATA
from .registry import kind_of, writable
from .rules import CHOSEN_EITHER, HOUR_FLOOR, LATEST_SENTINEL, ORDERED, ORDER_FREE, ORDER_OF_LISTED, PREFIXED_NAME, STANDARD_UNPREFIXED, USER_PREFIX, bag_defaults, bag_kind_defaults, chosen_sentence, cleared_sentinel_default, conditioned_defaults, enum_phrase_default, forced_sibling_defaults, header_name_sentence, kind_defaults, latest_version_sentence, lowercase_sentence, managed_key_default, managed_policy_default, member_defaults, member_kind_defaults, overridden_items_sentence, phrase_kind_defaults, product_list_defaults, restated_switch, self_named_default, sentences, sibling_named_default, squash, stated_default, unless_sibling_defaults, using_kind_defaults, valid_for_default, value_bullet_defaults


def mine_overridden_items(m, tf, pf):
    """A collection whose items override another source's values: each item
    left out holds the value that source chose at create."""
    s = overridden_items_sentence(pf.text)
    if s:
        m.add_default(tf.t, pf.path + ".*", None, "docs", s, chosen=True)


def mine_one_member_items(m, tf, pf):
    """A list of one-member objects whose documentation names one of that
    member's enum values as the default ("By default, the value is
    Detective evaluation mode only." on Config `EvaluationModes`, items
    `{Mode}`): the default is the list of the one item holding it."""
    t = pf.p.get("type") or {}
    member = tf.spec.single_member({"type": t.get("element") or {}}) if t.get("type") == "array" else None
    if member is None or m.known(tf.t, pf.path):
        return
    q = pf.path + ".*." + member[0]
    enum = tf.enums_of(q) or api_enum(tf.boto, tf.create, q)
    hit = enum_phrase_default(pf.text, enum, pf.name) if isinstance(enum, list) else None
    if hit:
        m.add_default(tf.t, pf.path, [{member[0]: hit[0]}], "docs", hit[1])


def mine_bag_key(m, tf, pf):
    """A `{Key, Value}` list's key: its documentation states the defaults
    of the keys, not of the key itself."""
    bag = pf.path[: -len(".*.Key")]
    for key, v in sorted(bag_defaults(pf.text).items()):
        line = next((ln.strip() for ln in pf.text.split("\n") if ln.strip().startswith("- `%s`" % key)), "")
        m.add_default(tf.t, "%s[%s]" % (bag, key), v, "docs", line)
    for key, when, v, quote in bag_kind_defaults(pf.text, tf.noun, tf.sibling_enums):
        m.add_default(tf.t, "%s[%s]" % (bag, key), v, "docs", quote, when=when)


def mine_docs_defaults(m, tf, pf):
    """The defaults the CloudFormation documentation states."""
    t, path, name, text, kind, enum = tf.t, pf.path, pf.name, pf.text, pf.kind, pf.enum
    if pf.single:
        single_member_default(m, tf, pf, text, "docs")
    elif kind not in ("string", "integer", "number", "boolean", "array"):
        enum_member_default(m, tf, pf, text, "docs")
    for mname, v, quote in member_defaults(text, path, tf.props, tf.doc):
        m.add_default(t, path + "." + mname, v, "docs", quote)
    named = self_named_default(text, kind, tf.noun, tf.doc)
    if named:
        m.add_default(t, path, named[0], "docs", named[1])
    valid = valid_for_default(text, kind, name, [q for q, _, _ in tf.props]) if "." not in path else None
    if valid:
        m.add_default(t, path, valid[1], "docs", valid[2], when=valid[0])
    for hit in (
        stated_default(text, kind, enum, name, pf.item_kind, pf.spelled),
        enum_phrase_default(text, enum or pf.spelled, name) if kind == "string" else None,
        restated_switch(text, name) if kind == "boolean" and not m.known(t, path) else None,
        cleared_sentinel_default(text, kind, name),
    ):
        if hit:
            m.add_default(t, path, hit[0], "docs", hit[1])
    managed = managed_key_default(text, name) if kind == "string" else None
    if managed and not m.known(t, path):
        m.add_default(t, path, None, "docs", managed[1], values=managed[0])
    policy = managed_policy_default(text, name) if kind == "array" and pf.item_kind == "string" else None
    if policy:
        m.add_default(t, path, policy[0], "docs", policy[1])
    elif "." not in path:
        for when, v, quote in conditioned_defaults(text, kind, enum, name, tf.top_props, tf.enums_of):
            m.add_default(t, path, v, "docs", quote, when=when)
        for when, v, quote in kind_defaults(text, kind, enum, name, tf.noun, tf.sibling_enums):
            m.add_default(t, path, v, "docs", quote, when=when)
        for when, v, quote in product_list_defaults(text, kind, enum, name, tf.sibling_values(name)):
            m.add_default(t, path, v, "docs", quote, when=when)
        for when, v, quote in unless_sibling_defaults(text, kind, enum, name, tf.top_props, pf.item_kind):
            m.add_default(t, path, v, "docs", quote, when=when)
    if not managed and "*" not in path:
        for when, v, quote in phrase_kind_defaults(text, kind, enum, name, tf.defined):
            m.add_default(t, path, v, "docs", quote, when=when)
    if not managed and kind in ("integer", "number"):
        for when, v, quote in using_kind_defaults(text, kind, enum, name, tf.noun, tf.sibling_enums):
            m.add_default(t, path, v, "docs", quote, when=when)
    if not managed and "." in path:
        for when, v, quote in member_kind_defaults(text, kind, enum, name, lambda: tf.member_enums(path)):
            m.add_default(t, path, v, "docs", quote, when=when)
    named_sib = sibling_named_default(text, name, tf.top_props) if "." not in path else None
    if named_sib:
        m.add_default(t, path, None, "docs", named_sib[1], same_as=named_sib[0])
    if "." in path:
        siblings = [n for q, n, _ in tf.props if q.rsplit(".", 1)[0] == path.rsplit(".", 1)[0] and n != name]
        for when, sib, quote in forced_sibling_defaults(text, name, siblings, tf.top_props, tf.enums_of):
            m.add_default(t, path, None, "docs", quote, when=when, same_as="./" + sib)
    if "." not in path:
        tf.cross.extend(value_bullet_defaults(text, name, enum, tf.top_spec))
    if not m.known(t, path) and "*" not in path:
        mine_chosen_at_create(m, tf, pf)


def mine_chosen_at_create(m, tf, pf):
    """A value AWS picks itself ("AWS selects a window at random"), or the
    newest version, from the documentation, else from the create
    operation's own documentation of the member (RDS
    PreferredBackupWindow)."""
    s = chosen_sentence(pf.text) or latest_version_sentence(pf.text, pf.name)
    if s:
        m.add_default(tf.t, pf.path, None, "docs", s, chosen=True, values=chosen_form(s, pf))
        return
    member = Botocore.member_at(tf.create, pf.path) if tf.create else None
    if member is not None:
        api_text = strip_html(member.get("documentation"))
        s = chosen_sentence(api_text) or latest_version_sentence(api_text, pf.name)
        if s:
            m.add_default(tf.t, pf.path, None, "api-model", s, chosen=True, values=chosen_form(s, pf))


# "the default security group for the VPC is used": one group, by id.
ONE_DEFAULT_GROUP = re.compile(r"\bthe\s+(?:vpc'?s\s+)?default\s+(?:ec2\s+)?(?:vpc\s+)?security\s+group\b(?!s)", re.I)
SECURITY_GROUP_ID = "re:^sg-[0-9a-f]{8,17}$"


def chosen_form(sentence, pf):
    """The form a value chosen at create takes, when the sentence says:
    a list of group ids that gets "the default security group" holds that
    one group (so a second group added out of band still surfaces); a
    string chosen "from either `A` or `B`" is one of the two. None
    when the sentence states no form, or the property holds no ids."""
    if pf.kind == "array" and pf.item_kind == "string" and pf.name.endswith("Ids") and ONE_DEFAULT_GROUP.search(sentence):
        return [[SECURITY_GROUP_ID]]
    either = CHOSEN_EITHER.search(sentence)
    if either and pf.kind == "string":
        return [either.group(1), either.group(2)]
    return None


# "It can be expressed as an integer using CPU units (for example, `1024`)
# or as a string using vCPUs (for example, `1 vCPU` or `1 vcpu`) in a task
# definition. String values are converted to an integer indicating the CPU
# units when the task definition is registered." The unit is the first
# example's; its size in the stored unit is every "N (M <unit>)" pair the
# text quotes ("`128` CPU units ( `0.125` vCPUs)", "512 (0.5 GB)"), which
# must all agree.
UNIT_EXAMPLE = re.compile(r"as\s+a\s+string\s+using\s+[A-Za-z]+\s+\(for\s+example,\s*`\d+(?:\.\d+)?\s*(?P<unit>[A-Za-z]+)`", re.I)
UNIT_CONVERTED = re.compile(r"string\s+values\s+are\s+converted\s+to\s+an\s+integer\s+indicating\s+the\s+", re.I)


def unit_scale(api_text, docs):
    """(unit, factor, sentence) when the API text says a string in `unit` is
    converted to the stored integer and the quoted pairs fix one factor."""
    u = UNIT_EXAMPLE.search(api_text)
    conv = next((x for x in sentences(api_text) if UNIT_CONVERTED.search(x)), None)
    if not u or not conv:
        return None
    unit = u.group("unit")
    pair = re.compile(r"`?(\d+)`?(?:\s+[A-Za-z ]+?)?\s*\(\s*`?(\d*\.?\d+)`?\s*%ss?\s*\)" % re.escape(unit), re.I)
    ratios = {float(a) / float(b) for text in docs for a, b in pair.findall(text) if float(b) > 0}
    if len(ratios) != 1:
        return None
    factor = ratios.pop()
    return (unit, int(factor), conv) if factor == int(factor) and factor > 1 else None


def mine_unit_strings(m, tf, pf):
    """A string in a larger unit that the service stores as the integer
    it converts to."""
    member = Botocore.member_at(tf.create, pf.path) if tf.create and pf.kind == "string" else None
    api_text = strip_html(member.get("documentation")) if member else ""
    hit = unit_scale(api_text, [api_text, pf.text]) if api_text else None
    if hit:
        unit, factor, sent = hit
        m.rule("equivalences", {"type": tf.t, "path": pf.path, "rule": "unitString", "unit": unit, "factor": factor,
                                "source": "api-model", "reason": sent})


def mine_docs_rules(m, tf, pf):
    """Compare rules the documentation states: case-insensitive
    identifiers, an epoch-hour floor, a `LATEST` sentinel, an unordered
    array, a keyed set of prefixed names."""
    t, path, kind, text = tf.t, pf.path, pf.kind, pf.text

    def first(rx):
        return next((x for x in sentences(text) if rx.search(x)), None)

    if kind == "string" and "*" not in path.split(".")[-1:]:
        s = lowercase_sentence(text) or header_name_sentence(text)
        if s:
            m.rule("caseInsensitive", {"type": t, "path": path, "source": "docs", "reason": s})
    s = first(HOUR_FLOOR) if kind in ("number", "integer") else None
    if s:
        m.rule("equivalences", {"type": t, "path": path, "rule": "epochHourFloor", "source": "docs", "reason": s})
    s = first(LATEST_SENTINEL) if kind == "string" and path.split(".")[-1].endswith("Version") else None
    if s:
        m.rule("latestSentinel", {"type": t, "path": path, "source": "docs", "reason": s})
    s = first(ORDER_FREE) if kind == "array" else None
    if s and writable(tf.doc, path):
        m.rule("unorderedArrays", {"type": t, "path": path, "source": "docs", "reason": s})
    if kind == "string" and path.endswith(".*.Name"):
        hit = next((x for x in PREFIXED_NAME.finditer(text) if "`" + x.group("name") + "`" in text), None)
        if hit:
            why = hit.group(0).strip("`") + ": " + next(x for x in sentences(text) if hit.group(0) in x)
            rule = {"type": t, "path": path[: -len(".*.Name")], "keys": ["Name"], "idPrefix": hit.group("prefix"),
                    "splitUndeclared": True, "source": "docs", "reason": why}
            standard = first(STANDARD_UNPREFIXED)
            if standard:
                rule["userPrefixes"] = sorted({x.group("prefix") for x in USER_PREFIX.finditer(standard)})
                rule["reason"] = why + " " + standard
            m.rule("keyedSets", rule)


def mine_ordered(m, tf, path, text):
    """A list whose documentation says its order carries meaning: in its own
    text, in the create or read operation's text of the same member, or in a
    member's text naming the list ("in the order in which cache behaviors
    are listed")."""
    def hit(doc):
        return next((x for x in sentences(doc) if ORDERED.search(x) and not ORDER_FREE.search(x)), None)
    s = hit(text)
    if s:
        m.rule("orderedArrays", {"type": tf.t, "path": path, "source": "docs", "reason": s})
        return
    for op in (tf.create, tf.read):
        member = Botocore.member_at(op, path) if op else None
        s = hit(strip_html(member.get("documentation"))) if member else None
        if s:
            m.rule("orderedArrays", {"type": tf.t, "path": path, "source": "api-model", "reason": s})
            return
    own = path.split(".")[-1]
    for sub, _, p in tf.props:
        if not sub.startswith(path + ".*.") or "." in sub[len(path) + 3 :]:
            continue
        for x in sentences(p.get("documentation") or ""):
            n = ORDER_OF_LISTED.search(x)
            if n and "".join(w.capitalize() for w in n.group("noun").split()) == own:
                m.rule("orderedArrays", {"type": tf.t, "path": path, "source": "docs", "reason": x})
                return


# A structure whose text says "Any components that you do not modify retain
# their original values." and lists reserved keywords ("#{host}", "#{path}
# (the leading "/" is removed)") that stand for those original values
# (ELBv2's redirect action): a component left out holds its keyword, the
# removed leading "/" restored.
RETAINED = re.compile(r"\bcomponents?\s+that\s+you\s+do\s+not\s+modify\s+retain\s+their\s+original\s+values?\b", re.I)
RESERVED_KEYWORD = re.compile(r"#\{(?P<k>[a-z]+)\}(?P<slash>\s*\(the\s+leading\s+\"?/\"?\s+is\s+removed\))?", re.I)


# "The AWS account ID associated with the registry that contains the
# repository. If you do not specify a registry, the default registry is
# assumed." (ECR): an account id whose default is the caller's own thing,
# so the stack's own account.
OWN_ACCOUNT_ID = re.compile(r"^the\s+(?:aws\s+)?account\s+id\b", re.I)
DEFAULT_ASSUMED = re.compile(r"^if\s+you\s+do\s+not\s+specify\s+an?\s+(?P<noun>[a-z]+),\s+the\s+default\s+(?P=noun)\s+is\s+assumed\s*\.?$", re.I)


def mine_default_account(m, tf, pf):
    """An account id that defaults to the caller's own (see `OWN_ACCOUNT_ID`)."""
    said = list(sentences(pf.text))
    if pf.kind != "string" or m.known(tf.t, pf.path) or not said or not OWN_ACCOUNT_ID.match(said[0]):
        return
    hit = next((x for x in said if DEFAULT_ASSUMED.match(x)), None)
    if hit:
        m.add_default(tf.t, pf.path, "${AccountId}", "docs", hit)


# "- *Amazon Simple Queue Service* – Default 10. For standard queues ..." in
# a per-service list (Lambda's `BatchSize`): a default per kind of source,
# conditioned on the service namespace of the resource's one `...SourceArn`.
SERVICE_DEFAULT = re.compile(r"^\s*[-*]\s*\*(?P<svc>[^*]+?)\*\s*[–-]\s*Default\s+(?P<v>[0-9]+)\s*\.", re.M)
ARN_NAMESPACES = {
    e["name"]: e["namespace"]
    for e in json.load(open(os.path.join(DATA, "arn-namespaces.json")))["services"]
}


# "*Default ( Kinesis , DynamoDB , Amazon SQS event sources)* : 0" (Lambda's
# `MaximumBatchingWindowInSeconds`): one default for the services named in
# the parentheses. The value must be a bare number in the property's own
# unit ("... : 500 ms" for a property in seconds is not taken).
SERVICES_DEFAULT = re.compile(
    r"^\*?Default\s*\(\s*(?P<svcs>[^)]+?)\s+event\s+sources\s*\)\*?\s*:\s*(?P<v>[0-9]+)\s*$", re.M
)


def service_default_hits(text):
    """(service as the docs name it, value, quoted line) for each per-service
    default in `text` (see `SERVICE_DEFAULT`, `SERVICES_DEFAULT`)."""
    hits = [(h.group("svc").strip(), int(h.group("v")), h.group(0).strip()) for h in SERVICE_DEFAULT.finditer(text)]
    for h in SERVICES_DEFAULT.finditer(text):
        for svc in h.group("svcs").split(","):
            hits.append((svc.strip(), int(h.group("v")), h.group(0).strip()))
    return hits


def mine_service_defaults(m, tf, pf):
    """A default per source service (see `service_default_hits`)."""
    if pf.kind not in ("integer", "number") or "." in pf.path:
        return
    arns = [path for path, _, _ in tf.props if "." not in path and path.endswith("SourceArn")]
    hits = service_default_hits(pf.text)
    if len(arns) != 1 or not hits:
        return
    by_value = {}
    for svc, v, line in hits:
        if svc in ARN_NAMESPACES:
            by_value.setdefault(v, []).append((ARN_NAMESPACES[svc], line))
    for v, found in sorted(by_value.items()):
        spaces = "|".join(sorted({ns for ns, _ in found}))
        quote = " ".join(dict.fromkeys(line for _, line in found))
        m.add_default(tf.t, pf.path, v, "docs", quote, when={arns[0]: ["re:^arn:aws[a-z-]*:(?:%s):" % spaces]})


def mine_retained_component(m, tf, pf):
    """A component of a URI-like structure left as it was: its reserved
    keyword (see `RETAINED`)."""
    parent, _, name = pf.path.rpartition(".")
    if pf.kind != "string" or not parent or m.known(tf.t, pf.path):
        return
    shape = tf.boto.shape_at(tf.create, parent)
    text = strip_html((shape or {}).get("documentation"))
    said = next((x for x in sentences(text) if RETAINED.search(x)), None)
    if not said:
        return
    for k in RESERVED_KEYWORD.finditer(text):
        if k.group("k").lower() == name.lower():
            value = ("/" if k.group("slash") else "") + "#{" + k.group("k") + "}"
            m.add_default(tf.t, pf.path, value, "api-model", "%s Reserved keyword: %s" % (said, k.group(0).strip()))
            return


# "The `AvailabilityZone` parameter can't be specified if the DB instance is
# a Multi-AZ deployment." (RDS): in the mode a boolean sibling names, only
# AWS sets the value (a Multi-AZ failover moves the instance), so any value
# is AWS's there.
UNSETTABLE_IN_MODE = re.compile(
    r"\bcan'?t\s+be\s+specified\s+if\s+the\s+[a-z ]+?\s+is\s+an?\s+(?P<mode>[A-Za-z0-9-]+)\s+deployment\b", re.I
)


def mine_unsettable_in_mode(m, tf, pf):
    """A value only AWS sets in a mode (see `UNSETTABLE_IN_MODE`)."""
    if "." in pf.path:
        return
    for said in sentences(pf.text):
        hit = UNSETTABLE_IN_MODE.search(said)
        if not hit:
            continue
        modes = [n for n in sorted(tf.top_props) if squash(n) == squash(hit.group("mode")) and tf.top_spec.get(n, (None,))[0] == "boolean"]
        if len(modes) == 1:
            m.add_default(tf.t, pf.path, None, "docs", said.strip(), when={modes[0]: [True]}, any_value=True)
            return


# "Either `AvailabilityZone` or `AvailabilityZoneId` must be specified, but
# not both." (EC2 volumes) / "Specify either `HostedZoneName` or
# `HostedZoneId` , but not both." (Route 53): one setting named two ways, by
# name and by id. The one left out is AWS's resolution of the one declared,
# fixed at create. Only a pair that differs by an identifier suffix (`Id`,
# `Name`, `Arn`, `Identifier`, `ResourceId`) is one setting; other pairs
# (`Statistic` / `ExtendedStatistic`, `InternetGatewayId` / `VpnGatewayId`)
# are alternatives, and AWS fills in neither.
EITHER_NOT_BOTH = re.compile(
    r"\b(?:either\s+)?(?:the\s+)?`(?P<a>[A-Za-z0-9]+)`\s+or\s+(?:the\s+)?`(?P<b>[A-Za-z0-9]+)`\s*"
    r"(?:(?:must|can)\s+be\s+specified(?:\s+in\s+the\s+request)?\s*)?,?\s*(?:\(\s*but\s+not\s+both\s*\)|but\s+not\s+both)",
    re.I,
)
ID_SUFFIX = re.compile(r"(?:ResourceId|Identifier|Id|Name|Arn)$")


def one_setting_two_names(a, b):
    """True when `a` and `b` name one thing by name and by id
    (`AvailabilityZone` / `AvailabilityZoneId`, `HostedZoneName` /
    `HostedZoneId`)."""
    stem_a, stem_b = ID_SUFFIX.sub("", a), ID_SUFFIX.sub("", b)
    suffixed = stem_a != a or stem_b != b
    return a.lower() != b.lower() and suffixed and stem_a != "" and stem_a.lower() == stem_b.lower()


def mine_name_or_id(m, tf):
    """Each of a pair the documentation says to give one of, by name or by
    id (see `EITHER_NOT_BOTH`): the one left out is chosen at create."""
    props = {path for path, _, _ in tf.props}
    for path, _, p in tf.props:
        parent = path.rsplit(".", 1)[0] + "." if "." in path else ""
        for sent in sentences(p.get("documentation") or ""):
            hit = EITHER_NOT_BOTH.search(sent)
            if not hit or not re.search(r"\bspecif", sent, re.I) or not one_setting_two_names(hit.group("a"), hit.group("b")):
                continue
            for name in (hit.group("a"), hit.group("b")):
                q = parent + name
                if q in props and writable(tf.doc, q):
                    m.add_default(tf.t, q, None, "docs", sent, chosen=True)


# "If enabled (true), server-side encryption type is set to `KMS` and an AWS
# managed key is used" on a boolean: the sibling the phrase names (by the
# opening words of its own text, "Server-side encryption type.") holds that
# value while the switch is on.
SWITCH_SETS = re.compile(
    r"^if\s+enabled\s+\(true\),\s+(?P<phrase>[a-z][a-z -]{2,60}?)\s+is\s+set\s+to\s+`(?P<v>[^`]+)`", re.I
)


def mine_switch_sets_sibling(m, tf):
    """A sibling whose value a boolean's documentation states for `true`
    (see `SWITCH_SETS`); conditioned on that switch."""
    props = {path: (name, p) for path, name, p in tf.props}
    for path, (name, p) in props.items():
        if "*" in path or kind_of(p) != "boolean":
            continue
        parent = path.rpartition(".")[0]
        for x in sentences(p.get("documentation") or ""):
            hit = SWITCH_SETS.match(x)
            if not hit:
                continue
            phrase = hit.group("phrase").lower()
            sibs = [
                sp for sp, (_, q) in props.items()
                if sp.rpartition(".")[0] == parent and sp != path
                and next(iter(sentences(q.get("documentation") or "")), "").rstrip(" .").lower() == phrase
            ]
            if len(sibs) == 1 and writable(tf.doc, sibs[0]):
                m.add_default(tf.t, sibs[0], hit.group("v"), "docs", x, when={path: [True]})


def mine_cross_defaults(m, tf):
    """Sibling defaults stated under a listed value, unless the sibling has
    an unconditioned default of its own."""
    for sib, when, v, quote in tf.cross:
        if not m.unconditioned(tf.t, sib):
            m.add_default(tf.t, sib, v, "docs", quote, when=when)


# "When authorizing security group rules, specifying `-1` or a protocol
# number other than `tcp`, ... allows traffic on all ports, regardless of
# any port range you specify." on a rule's protocol: its sibling ends of the
# port range hold their own "all" spelling, "-1 (all ICMP types)" or "A
# value of `-1` indicates all ICMP/ICMPv6 types".
ALL_PORTS = re.compile(r"specifying\s+`(?P<v>-1)`\s+or\s+[^.]*?allows\s+traffic\s+on\s+all\s+ports,\s+regardless\s+of\s+any\s+port\s+range\s+you\s+specify", re.I)
PORT_RANGE_END = re.compile(r"\b(?:start|end)\s+of\s+(?:the\s+)?port\s+range\b", re.I)
ALL_SPELLING = re.compile(r"(?:`?(?P<a>-1)`?\s+\(all\s|a\s+value\s+of\s+`(?P<b>-1)`\s+indicates\s+all\s)", re.I)


def mine_all_ports(m, tf):
    """The ends of a port range on a rule whose protocol allows every port:
    each holds the value its own documentation names as "all", which says
    nothing the protocol does not (a value the service attaches, dropped)."""
    for path, name, p in tf.props:
        sent = next((s for s in sentences(p.get("documentation")) if ALL_PORTS.search(s)), None)
        if not sent or not writable(tf.doc, path):
            continue
        parent = path[: -len(name)]
        for sib, sname, sp in tf.props:
            doc = sp.get("documentation") or ""
            if sib == path or sib[: -len(sname)] != parent or "." in sname or not PORT_RANGE_END.search(doc):
                continue
            spelled = ALL_SPELLING.search(doc)
            if spelled and kind_of(sp) == "integer":
                prop = ("./" + name) if parent else name
                m.rule("serviceAttached", {"type": tf.t, "path": sib, "values": [-1], "when": {prop: [ALL_PORTS.search(sent).group("v")]},
                                           "source": "docs", "reason": sent})
