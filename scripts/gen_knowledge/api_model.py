"""Source `api-model`: defaults and compare rules stated by the service API models (botocore)."""
import json
import re

from .blocks import single_member_default
from .botocore_reader import Botocore, api_enum, strip_html
from .registry import schema_node_at
from .rules import enum_phrase_default, managed_key_default, name_parts, names_this, restated_switch, sentences, stated_default


def mine_create_member(m, tf, pf):
    """The create operation's documentation of the same member."""
    t, path, name, kind, enum = tf.t, pf.path, pf.name, pf.kind, pf.enum
    member = Botocore.member_at(tf.create, path) if tf.create else None
    if member is None:
        return
    api_text = strip_html(member.get("documentation"))
    hit = stated_default(api_text, kind, enum, name, pf.item_kind, pf.spelled)
    if not hit and kind == "string":
        hit = enum_phrase_default(api_text, enum or pf.spelled or api_enum(tf.boto, tf.create, path), name)
    if not hit and kind == "boolean":
        hit = restated_switch(api_text, name)
    if hit:
        m.add_default(t, path, hit[0], "api-model", hit[1])
    managed = managed_key_default(api_text, name) if kind == "string" else None
    if managed and not m.known(t, path):
        m.add_default(t, path, None, "api-model", managed[1], values=managed[0])
    if pf.single and not m.known(t, path + "." + pf.single[0]):
        # "If no deployment controller is specified, the default value of
        # `ECS` is used." for `DeploymentController.Type`.
        single_member_default(m, tf, pf, api_text, "api-model")


# "The default status for new keys is Active." (IAM `CreateAccessKey`), "By
# default, AutoUpdate is set to DISABLED." (Textract `CreateAdapter`): the
# create operation's own text, not a member's, names a property's default.
OPERATION_DEFAULT = re.compile(
    r"^(?:the\s+default\s+(?P<subj>[a-z][a-z ]{1,40}?)(?:\s+for\s+new\s+[a-z]+)?\s+is"
    r"|by\s+default,\s+`?(?P<own>[A-Z][A-Za-z0-9]+)`?\s+is\s+set\s+to)"
    r"\s+`?(?P<v>[A-Za-z][A-Za-z0-9_-]*)`?\.$",
    re.I,
)


def mine_create_operation(m, tf, pf):
    """A top-level string's default stated by the create operation's own
    documentation, naming the property, when the value is one the
    property's enum or its own documentation names."""
    if "." in pf.path or pf.kind != "string":
        return
    found = tf.boto.create_op(tf.t)
    if not found:
        return
    op = found[1]
    named = set(pf.enum or pf.spelled or re.findall(r"`([^`]+)`", pf.text))
    for said in sentences(strip_html(op.get("documentation"))):
        hit = OPERATION_DEFAULT.match(said.strip())
        if hit and names_this(hit, pf.name) and hit.group("v") in named:
            m.add_default(tf.t, pf.path, hit.group("v"), "api-model", "%s: %s" % (op.get("name"), said.strip()))
            return


def mine_read_member(m, tf, pf):
    """The same member as the read operation's answer documents it."""
    member = Botocore.member_at(tf.read, pf.path) if tf.read else None
    if member is not None:
        hit = stated_default(strip_html(member.get("documentation")), pf.kind, pf.enum, pf.name, pf.item_kind, pf.spelled)
        if hit:
            m.add_default(tf.t, pf.path, hit[0], "api-model", hit[1])


def mine_setter_members(m, tf, pf):
    """The same member in another operation that writes the type
    (`<Verb>...<Name>...`) or this property's own block
    (`<Verb><Property>`), when every such operation that documents a
    default states the same one."""
    hits = []
    for op_name, model, shape, prop in tf.setter_ops:
        segs = pf.path.split(".")
        if prop is not None:
            if segs[0] != prop or len(segs) < 2:
                continue
            segs = segs[1:]
        member = None
        for seg in segs:
            member, shape = Botocore.member(model, shape, seg)
            if member is None:
                break
        if member is None:
            continue
        hit = stated_default(strip_html(member.get("documentation")), pf.kind, pf.enum, pf.name, pf.item_kind, pf.spelled)
        if hit:
            hits.append((op_name, hit))
    if len({json.dumps(h[0], sort_keys=True) for _, h in hits}) == 1:
        op_name, hit = hits[0]
        m.add_default(tf.t, pf.path, hit[0], "api-model", "%s: %s" % (op_name, hit[1]))


def camel_words(name):
    """The lower-cased words of a CamelCase name (`S3Key` -> s3, key)."""
    return [w.lower() for w in name_parts(name)]


def is_subsequence(short, long):
    it = iter(long)
    return all(w in it for w in short)


def loose_member(model, shape, name):
    """(member, shape) like `Botocore.member`, else the one member whose
    name shares the last word and holds the other's words in order: the
    template's `LambdaConfigurations`, `S3Key` and `Rules` are the API's
    `LambdaFunctionConfigurations`, `Key` and `FilterRules`."""
    member, target = Botocore.member(model, shape, name)
    if member is not None or name == "*" or not shape:
        return member, target
    if shape.get("type") in ("list", "map"):
        inner = shape["member"] if shape.get("type") == "list" else shape["value"]
        shape = model["shapes"].get(inner["shape"]) or {}
    mine = camel_words(name)
    hits = [
        (k, m) for k, m in (shape.get("members") or {}).items()
        if camel_words(k)[-1:] == mine[-1:] and (is_subsequence(mine, camel_words(k)) or is_subsequence(camel_words(k), mine))
    ]
    if len(hits) != 1:
        return None, None
    return hits[0][1], model["shapes"].get(hits[0][1]["shape"])


def api_enum_shape(tf, path):
    """(shape name, enum) of the API-model string at a path, looked up in
    the create input and in every operation that writes the type, when all
    that hold the path agree; else None."""
    ops = [(tf.create[0], tf.create[1], path.split("."))] if tf.create else []
    for _, model, shape, prop in tf.setter_ops:
        segs = path.split(".")
        if prop is None:
            ops.append((model, shape, segs))
        elif segs[0] == prop and len(segs) > 1:
            ops.append((model, shape, segs[1:]))
    found = set()
    for model, shape, segs in ops:
        member = None
        for seg in segs:
            member, shape = loose_member(model, shape, seg)
            if member is None:
                break
        if member is not None and isinstance((shape or {}).get("enum"), list):
            found.add((member["shape"], tuple(shape["enum"])))
    return found.pop() if len(found) == 1 else None


def mine_enum_case(m, tf, pf):
    """A string the schema leaves unchecked whose API-model enum holds no
    two keywords that differ only in case: a case-only difference is the
    same keyword (S3 reads a filter rule `prefix` back as `Prefix`)."""
    if pf.kind != "string" or pf.enum is not None or pf.path.endswith("*"):
        return
    if any(e["type"] == tf.t and e["path"] == pf.path for e in m.rules["caseInsensitive"]):
        return
    hit = api_enum_shape(tf, pf.path)
    if not hit or len({str(v).lower() for v in hit[1]}) != len(hit[1]):
        return
    shown = ", ".join(hit[1][:6]) + (", ..." if len(hit[1]) > 6 else "")
    m.rule("caseInsensitive", {"type": tf.t, "path": pf.path, "source": "api-model",
                               "reason": "enum %s (%s): no two keywords differ only in case" % (hit[0], shown)})


def same_default(a, b):
    """Two stated defaults name one value: numbers by value (`-10`,
    `-10.0`), strings without case (`Global`, `GLOBAL`)."""
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        return float(a) == float(b)
    if isinstance(a, str) and isinstance(b, str):
        return a.lower() == b.lower()
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def drop_contradicted(m, tf, pf):
    """A schema or docs default that the API model's text for the same
    member contradicts is unknown, not the first source's value: the
    sources disagree (CloudFormation documents a transit gateway
    attachment's `SecurityGroupReferencingSupport` as disabled by default,
    the API model as enabled, and AWS stores `enable`), so a live value
    surfaces until an observation decides."""
    key = (tf.t, pf.path, "null")
    e = m.defaults.get(key)
    if not e or e["source"] == "api-model" or "values" not in e:
        return
    for op in (tf.create, tf.read):
        member = Botocore.member_at(op, pf.path) if op else None
        if member is None:
            continue
        hit = stated_default(strip_html(member.get("documentation")), pf.kind, pf.enum, pf.name, pf.item_kind, pf.spelled)
        if hit and not any(same_default(hit[0], v) for v in e["values"]):
            m.drop(key, {"source": "api-model", "values": [hit[0]], "quote": hit[1]})
            return


def mine_key_aliases(m, tf):
    """Deprecated API members stored under their current name."""
    objects = sorted({path.rsplit(".", 1)[0] for path, _, _ in tf.props if "." in path})
    for parent in [""] + objects:
        node = schema_node_at(tf.doc, parent) if parent else tf.doc
        cfn = {n.lower(): n for n in ((node or {}).get("properties") or {})}
        for old, new in sorted(Botocore.deprecated_aliases(tf.boto.shape_at(tf.create, parent)).items()):
            if old.lower() in cfn and new.lower() in cfn:
                why = "API model: %s is deprecated and documented word for word as %s" % (old, new)
                rule = {"type": tf.t, "declared": cfn[old.lower()], "live": cfn[new.lower()], "source": "api-model", "reason": why}
                if parent:
                    m.rule("keyAliases", dict(rule, parent=parent))
                else:
                    # A top-level property stored under its current name
                    # is compared there (Firehose's plain S3 destination,
                    # write-only, read back as the extended one).
                    m.rule("altRepresentations", rule)
