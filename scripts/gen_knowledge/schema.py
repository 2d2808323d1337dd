"""Source `schema`: the registry schema's own annotations (default, insertionOrder, writeOnly, lifecycle enums)."""
import json
import re

from .registry import resolve, schema_node_at, schema_walk, writable


def typed_or_free(doc, node):
    """True for a node whose schema accepts either an object with named
    properties or a free-form map (anyOf / oneOf): a declared key may use
    another spelling than the named property the read returns."""
    for k in ("anyOf", "oneOf"):
        alts = [resolve(doc, a) or {} for a in node.get(k) or []]
        if any(a.get("properties") for a in alts) and any(
            a.get("patternProperties") and not a.get("properties") for a in alts
        ):
            return True
    return False


def structure(node):
    """A schema definition without its ordering and prose annotations: two
    definitions of one namespace with the same structure are one API shape."""
    if isinstance(node, dict):
        return {k: structure(v) for k, v in node.items() if k not in ("insertionOrder", "description", "markdownDescription")}
    if isinstance(node, list):
        return [structure(v) for v in node]
    return node


def shared_unordered(snap, types):
    """{(type, definition, property): the other type whose identical
    definition marks that array property `insertionOrder: false`}, for a
    definition that says nothing of its order (DynamoDB Table's `Projection`
    is GlobalTable's, whose `NonKeyAttributes` is unordered)."""
    groups = {}
    for t in types:
        doc = snap.load(t)
        for name, d in sorted(((doc or {}).get("definitions") or {}).items()):
            if isinstance(d, dict):
                key = (t.rsplit("::", 1)[0], name, json.dumps(structure(d), sort_keys=True))
                groups.setdefault(key, []).append((t, d))
    out = {}
    for (_, name, _), members in groups.items():
        for t, d in members:
            for other, od in members:
                if other == t:
                    continue
                for prop, node in sorted((od.get("properties") or {}).items()):
                    mine = (d.get("properties") or {}).get(prop) or {}
                    if node.get("insertionOrder") is False and "insertionOrder" not in mine:
                        out.setdefault((t, name, prop), other)
    return out


def mine_schema_default(m, tf, pf):
    """The registry schema's own default annotation."""
    if "defaultValue" not in pf.p:
        return
    try:
        v = json.loads(pf.p["defaultValue"])
    except (TypeError, ValueError):
        v = None
    if v is not None:
        m.add_default(tf.t, pf.path, v, "schema", "registry schema default: " + pf.p["defaultValue"])


# A state of a resource's life (`CREATE_IN_PROGRESS`, `CREATE_COMPLETE`,
# `ACTIVE`, `DELETING`): a schema enum of nothing else is a status the
# service reports, not a setting (the registry marks 71 of the 72 such
# properties read-only; Athena's `DataCatalog.Status` is the one it does not).
LIFECYCLE_STATE = re.compile(
    r"^(?:(?:CREATE|UPDATE|DELETE|ROLLBACK|IMPORT)_[A-Z_]*(?:IN_PROGRESS|COMPLETE|FAILED)"
    r"|CREATING|CREATED|UPDATING|UPDATED|DELETING|DELETED|PENDING|ACTIVE|INACTIVE|AVAILABLE"
    r"|FAILED|(?:CREATE|UPDATE|DELETE)_FAILED)$"
)
# A state the resource does not rest in as created: on its way, failed, or
# going away. Such a status stays reportable.
UNSETTLED_STATE = re.compile(r"FAIL|IN_PROGRESS|ING$|DELETE|PENDING|INACTIVE")


def mine_lifecycle_status(m, tf, pf):
    """A writable string whose schema enum holds only lifecycle states
    (see `LIFECYCLE_STATE`): its settled states are what a fresh resource
    reports."""
    enum = pf.enum if pf.kind == "string" and isinstance(pf.enum, list) else []
    if len(enum) < 3 or not all(isinstance(x, str) and LIFECYCLE_STATE.match(x) for x in enum):
        return
    settled = [x for x in enum if not UNSETTLED_STATE.search(x)]
    if settled:
        quote = "registry schema enum holds only lifecycle states (%s): a status the service reports" % ", ".join(enum)
        m.add_default(tf.t, pf.path, None, "schema", quote, values=settled)


def mine_write_only(m, tf):
    """Write-only collections: never returned, so absence is a read gap."""
    for w in tf.doc.get("writeOnlyProperties") or []:
        prop = w.replace("/properties/", "", 1)
        if "/" in prop:
            continue
        node = schema_node_at(tf.doc, prop) or {}
        if node.get("type") in ("object", "array") or "properties" in node or "items" in node:
            m.rule(
                "readGapCollections",
                {"type": tf.t, "path": prop, "source": "schema", "reason": "registry schema: writeOnlyProperties (never returned by a read)"},
            )


def mine_schema_rules(m, tf, borrowed):
    """Compare rules the registry schema states: free-form maps whose keys
    may spell a named property in another case, arrays marked unordered,
    and arrays the same API shape marks unordered in a sibling type."""
    t, doc = tf.t, tf.doc
    nodes = []
    for k, v in sorted((doc.get("properties") or {}).items()):
        schema_walk(doc, v, k, 0, nodes)
    for path, node in nodes:
        if typed_or_free(doc, node) and writable(doc, path):
            m.rule(
                "equivalences",
                {"type": t, "path": path, "rule": "caseInsensitiveKeys", "source": "schema",
                 "reason": "registry schema: named properties or a free-form map (anyOf), so a declared key may spell a named property in another case"},
            )
        if node.get("insertionOrder") is False and writable(doc, path):
            m.rule("unorderedArrays", {"type": t, "path": path, "source": "schema", "reason": "registry schema: insertionOrder false"})
    def_of = {id(v): k for k, v in (doc.get("definitions") or {}).items()}
    for path, node in nodes:
        name = def_of.get(id(node))
        for prop in sorted((node.get("properties") or {}) if name else []):
            other = borrowed.get((t, name, prop))
            if other and writable(doc, path + "." + prop):
                m.rule(
                    "unorderedArrays",
                    {"type": t, "path": path + "." + prop, "source": "schema",
                     "reason": "registry schema: insertionOrder false on the identical definition %s of %s" % (name, other)},
                )
