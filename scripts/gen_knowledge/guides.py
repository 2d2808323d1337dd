"""Source `guide`: defaults stated by the AWS developer and user guides (archived mid-2023).

The input is ../shared/knowledge/aws-guides/ (its README): one row per
default-stating sentence, list item or table row of each guide, pinned by
repository and commit. A row becomes a default only under the rules the
`docs` source follows (rules.stated_default: one unconditioned default per
sentence, a value that fits the property's type and enum), and only when
the row names exactly one property:

- the CloudFormation reference (`aws-cloudformation-user-guide`): the page
  title names the type (`AWS::RDS::DBCluster`) or the type and the property
  type (`AWS::AutoScaling::AutoScalingGroup LifecycleHookSpecification`),
  and the row's term names the property;
- a service guide: the sentence names, in backticks, exactly one property
  of the namespaces the guide covers (`repos.tsv`), in any case (the API
  spells `maximumPercent`), or names none and the row's term does
  (`cpuArchitecture` over "Default: X86_64"), and that name belongs to
  exactly one property there.

A sentence about the console's pre-filled choice is not an AWS default:
a row whose text, heading or page title speaks of the console (a console,
wizard, page, field, check box, or the verbs choose / select / click) is
skipped unless its text also names the API, the CLI, an SDK or
CloudFormation, which call the API.

The guides are from 2023: guide entries are mined after every other source,
so a default the registry schema, the documentation or the API model states
wins; where such a newer source states another value, the guide's value is
not taken and the disagreement is reported (guide-disagreements.json).
"""
import json
import os
import re

from .api_model import same_default
from .botocore_reader import Botocore, strip_html
from .facts import PropFacts
from .registry import writable
from .rules import sentences, stated_default, valid_values

# The reference of every CloudFormation type (not a service guide).
REFERENCE_REPO = "awsdocs/aws-cloudformation-user-guide"
TYPE_TITLE = re.compile(r"^(?P<type>AWS::[A-Za-z0-9]+::[A-Za-z0-9]+)(?:\s+(?P<def>[A-Za-z0-9]+))?$")
BACKTICKED = re.compile(r"`([A-Za-z][A-Za-z0-9]*)`")
# The console's own choices: a pre-filled field is what the console sends,
# not what the API does without the property.
CONSOLE = re.compile(
    r"\bconsole\b|\bwizard\b|\bpages?\b|\bfields?\b|\bcheck\s*box\b|\bchoose\b|\bselect(?:ed|s)?\b|\bclick\b|\bpre-?(?:selected|filled|populated)\b",
    re.I,
)
CALLS_API = re.compile(r"\bAPI\b|\bCLI\b|\bSDKs?\b|\bCloudFormation\b", re.I)
# A guide sentence leans on its page more than a property's own text does:
# one that continues an argument ("Thus, ... is turned off by default for
# secondary clusters") or names a case ("for", "except", "only when",
# "when" other than "when not specified") is conditioned, so not taken.
CONDITIONED = re.compile(
    r"^(?:thus|therefore|however|otherwise|also|then|similarly|in\s+(?:this|that|which)\s+case)\b"
    r"|\bfor\s+(?!example\b)[a-z]|\bexcept\b|\bunless\b|\bonly\s+(?:if|when|for)\b|\bwhen\b(?!\s+not\b)",
    re.I,
)
# Newer text that speaks of a default at all: where the rules refuse it
# (two values, a condition, a slip the valid-values list exposes), the
# guide's older, simpler sentence must not decide in its place.
SPEAKS_OF_DEFAULT = re.compile(r"\bdefault|\bif\s+(?:you\s+)?(?:do\s+not|don't|omit)|\bnot\s+specified\b", re.I)


def console_only(row):
    """True when a row speaks of the console and not of the API."""
    said = " ".join((row.get("title") or "", row.get("heading") or "", row["text"]))
    return bool(CONSOLE.search(said)) and not CALLS_API.search(row["text"])


def term_name(row):
    """The property a row's term names (`HeartbeatTimeout`), if any."""
    t = (row.get("term") or "").strip().strip("`")
    return t if re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", t) else None


class Guides:
    """The pinned guide rows, indexed for lookup by type and namespace."""

    def __init__(self, root):
        self.by_type = {}
        self.by_namespace = {}
        self.rows = 0
        namespaces = {}
        with open(os.path.join(root, "repos.tsv"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                cols = line.rstrip("\n").split("\t")
                if cols[0] != "(all)":
                    namespaces["awsdocs/" + cols[1].split("/")[-1]] = cols[0].split()
        for name in sorted(os.listdir(root)):
            if not name.endswith(".jsonl"):
                continue
            with open(os.path.join(root, name), encoding="utf-8") as f:
                for line in f:
                    self.add(json.loads(line), namespaces)

    def add(self, row, namespaces):
        """Indexes one row: by (type, property type) when it is the
        CloudFormation reference's, else by each namespace its guide covers."""
        self.rows += 1
        if row["repo"] == REFERENCE_REPO:
            m = TYPE_TITLE.match(row.get("title") or "")
            if m and term_name(row):
                self.by_type.setdefault(m.group("type"), []).append((m.group("def") or "", row))
            return
        for ns in namespaces.get(row["repo"], []):
            self.by_namespace.setdefault(ns, []).append(row)


def owners(spec, resources):
    """{namespace: {property name, lower-cased: [(type, path)]}} over every
    property of every type, so a service guide's name (the API's spelling,
    `maximumPercent` for `MaximumPercent`) maps to one property or none."""
    out = {}
    for r in resources:
        t = r["cloudFormationType"]
        props = []
        spec.walk(r.get("properties") or {}, "", 0, props)
        names = out.setdefault(t.split("::")[1], {})
        for path, name, _ in props:
            names.setdefault(name.lower(), []).append((t, path))
    return out


def definition_paths(spec, r):
    """{(property type name or "", member): [paths]} of one type, so the
    reference's page of a property type finds its members."""
    out = {}

    def walk(props, path, def_name, depth, seen):
        for name, p in sorted(props.items()):
            full = path + "." + name if path else name
            out.setdefault((def_name, name), []).append(full)
            if depth >= 6:
                continue
            t = p.get("type") or {}
            suffix = ""
            while t.get("type") in ("array", "map"):
                suffix += ".*"
                t = t.get("element") or {}
            rid = (t.get("reference") or {}).get("$ref") if t.get("type") == "ref" else None
            if rid in spec.types and rid not in seen:
                d = spec.types[rid]
                walk(d.get("properties") or {}, full + suffix, d.get("name") or "", depth + 1, seen + (rid,))

    walk(r.get("properties") or {}, "", "", 0, ())
    return out


def quote_of(row):
    """The evidence: the sentence and where the guide says it."""
    return "%s (%s@%s %s)" % (row["text"], row["repo"], row["commit"][:12], row["file"])


def candidates(tf, guides, names, r):
    """(path, row) pairs: each guide row that names one writable property
    of this type."""
    found = []
    by_def = definition_paths(tf.spec, r)
    for def_name, row in guides.by_type.get(tf.t, []):
        paths = by_def.get((def_name, term_name(row)), [])
        if len(paths) == 1:
            found.append((paths[0], row))
    ns = tf.t.split("::")[1]
    for row in guides.by_namespace.get(ns, []):
        named = {n.lower() for n in BACKTICKED.findall(row["text"]) if n.lower() in names.get(ns, {})}
        if not named and term_name(row) and term_name(row).lower() in names.get(ns, {}):
            named = {term_name(row).lower()}
        if len(named) != 1:
            continue
        owners_of = names[ns][named.pop()]
        if len(owners_of) == 1 and owners_of[0][0] == tf.t:
            found.append((owners_of[0][1], row))
    return found


def mine_guides(m, tf, guides, names, r):
    """Guide defaults for one type, after every newer source."""
    props = {path: (name, p) for path, name, p in tf.props}
    for path, row in candidates(tf, guides, names, r):
        if path not in props or console_only(row) or not writable(tf.doc, path):
            continue
        name, p = props[path]
        pf = PropFacts(tf, path, name, p)
        if not pf.minable():
            continue
        hit = stated_default(row["text"], pf.kind, pf.enum, name, pf.item_kind, pf.spelled)
        if not hit or CONDITIONED.search(hit[1].strip()):
            continue
        guide = {"type": tf.t, "path": path, "values": [hit[0]], "quote": quote_of(row)}
        newer = m.defaults.get((tf.t, path, "null")) or dropped(m, tf.t, path)
        if newer and "values" in newer and not any(same_default(hit[0], v) for v in newer["values"]):
            m.disagree(guide, newer)
            continue
        listed = valid_values(pf.text)
        if pf.kind == "string" and listed and str(hit[0]).lower() not in listed:
            # The newer text's own list of valid values leaves it out: a
            # slip of the text (DMS `TimeFormat`'s "It defaults to 10.").
            continue
        said = None if m.known(tf.t, path) else newer_default_text(tf, pf, hit[0])
        if said:
            m.disagree(guide, {"source": said[0], "quote": said[1]})
            continue
        m.add_default(tf.t, path, hit[0], "guide", quote_of(row))


def dropped(m, t, path):
    """A default a newer source stated and the API model contradicted (the
    value is unknown): the guide does not bring it back."""
    for x in m.contradicted:
        if x["entry"]["type"] == t and x["entry"]["path"] == path:
            return x["contradictedBy"]
    return None


def newer_default_text(tf, pf, value):
    """(source, sentence) where the property's newer text (its
    CloudFormation documentation, the create or read operation's member)
    speaks of a default otherwise than the guide's `value` (see
    `newer_agrees`), else None."""
    texts = [("docs", pf.text)]
    for op in (tf.create, tf.read):
        member = Botocore.member_at(op, pf.path) if op else None
        if member is not None:
            texts.append(("api-model", strip_html(member.get("documentation"))))
    for source, text in texts:
        for x in sentences(text):
            if SPEAKS_OF_DEFAULT.search(x) and not newer_agrees(x, value):
                return source, x.strip()
    return None


# A newer sentence that says only that some default exists ("the queue
# uses a default value"): it names no value the guide could contradict.
UNNAMED_DEFAULT = re.compile(r"\b(?:uses|use|with|has)\s+a\s+default\s+value\b", re.I)
VALUE_TOKEN = re.compile(r"`([^`]+)`|(?<![\w.])(-?[0-9](?:[0-9]|,(?=[0-9]))*(?:\.[0-9]+)?)(?!\w|\.[0-9])|\b(true|false|enabled|disabled)\b", re.I)


def newer_agrees(sentence, value):
    """True when a newer default-speaking sentence leaves the guide's value
    standing: it names that value, unconditioned, or only says that some
    default exists. A sentence that names another value, a condition, or
    describes the default behaviour in words ("AWS will automatically apply
    optimal price protection") does not: the behaviour may have changed."""
    if CONDITIONED.search(sentence.strip()):
        return False
    tokens = [a or b.replace(",", "") or c for a, b, c in VALUE_TOKEN.findall(sentence)]
    if not tokens:
        return bool(UNNAMED_DEFAULT.search(sentence))
    words = {True: ("true", "enabled"), False: ("false", "disabled")}
    for tok in tokens:
        if isinstance(value, bool):
            if tok.lower() in words[value]:
                return True
            continue
        try:
            parsed = float(tok) if isinstance(value, (int, float)) else tok
        except ValueError:
            continue
        if same_default(parsed, value):
            return True
    return False
