"""A default stated on a block, applied to the member it belongs to (shared by the docs and api-model sources)."""
from .botocore_reader import api_enum
from .registry import kind_of, schema_node_at
from .rules import stated_default


def single_member_default(m, tf, pf, text, source):
    """A scalar default stated on a one-member block ("EphemeralStorage ...
    The default value is 512") is its member's default."""
    mname, mp = pf.single
    mnode = schema_node_at(tf.doc, pf.path + "." + mname) or {}
    hit = stated_default(text, kind_of(mp) or mnode.get("type"), mnode.get("enum"), pf.name)
    if hit:
        m.add_default(tf.t, pf.path + "." + mname, hit[0], source, hit[1])


def enum_member_default(m, tf, pf, text, source):
    """A keyword default stated on a block of several members ("The default
    value is `NoEncryption`." on Firehose's `EncryptionConfiguration`) is the
    default of the one member whose enum holds it."""
    prefix = pf.path + "."
    members = [(q, n) for q, n, _ in tf.props if q.startswith(prefix) and "." not in q[len(prefix):]]
    hits = []
    for q, n in members:
        enum = (schema_node_at(tf.doc, q) or {}).get("enum") or api_enum(tf.boto, tf.create, q)
        hit = stated_default(text, "string", enum, pf.name) if isinstance(enum, list) else None
        if hit:
            hits.append((q, hit))
    if len(hits) == 1 and len(members) > 1:
        q, (v, quote) = hits[0]
        m.add_default(tf.t, q, v, source, quote)
