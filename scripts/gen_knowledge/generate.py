"""Every source, in order, for every type the bundled snapshot holds."""
from .api_model import drop_contradicted, mine_create_member, mine_create_operation, mine_enum_case, mine_key_aliases, mine_read_member, mine_setter_members
from .docs import mine_all_ports, mine_bag_key, mine_cross_defaults, mine_default_account, mine_docs_defaults, mine_docs_rules, mine_name_or_id, mine_one_member_items, mine_ordered, mine_overridden_items, mine_retained_component, mine_service_defaults, mine_switch_sets_sibling, mine_unit_strings, mine_unsettable_in_mode
from .guides import mine_guides, owners
from .facts import Mined, PropFacts, TypeFacts
from .registry import writable
from .rules import ORDER_FREE, sentences
from .schema import mine_lifecycle_status, mine_schema_default, mine_schema_rules, mine_write_only, shared_unordered


def mine_property(m, tf, path, name, p):
    """Every source, in order, for one writable property."""
    pf = PropFacts(tf, path, name, p)
    # Every list, of scalars or of objects (`mine_property` sees writable
    # paths only); one the documentation calls order-free is never ordered.
    if pf.kind == "array" and "*" not in path and not any(ORDER_FREE.search(x) for x in sentences(pf.text)):
        mine_ordered(m, tf, path, pf.text)
    if not pf.minable():
        mine_overridden_items(m, tf, pf)
        mine_one_member_items(m, tf, pf)
        return
    if path.endswith(".*.Key") and any(pp == path[: -len("Key")] + "Value" for pp, _, _ in tf.props):
        mine_bag_key(m, tf, pf)
        return
    mine_schema_default(m, tf, pf)
    mine_lifecycle_status(m, tf, pf)
    mine_docs_defaults(m, tf, pf)
    mine_service_defaults(m, tf, pf)
    mine_unsettable_in_mode(m, tf, pf)
    mine_docs_rules(m, tf, pf)
    mine_enum_case(m, tf, pf)
    mine_unit_strings(m, tf, pf)
    for step in (mine_create_member, mine_create_operation, mine_read_member, mine_setter_members, mine_retained_component, mine_default_account):
        if not m.known(tf.t, path):
            step(m, tf, pf)
    drop_contradicted(m, tf, pf)


def generate(spec, boto, snap, guides=None):
    """(defaults, rules, contradicted, disagreements) mined from every type
    the bundled snapshot holds; the guides (if given) last, as the oldest
    source."""
    m = Mined()
    names = owners(spec, spec.resources) if guides else {}
    borrowed = shared_unordered(snap, sorted(r["cloudFormationType"] for r in spec.resources))
    for r in sorted(spec.resources, key=lambda r: r["cloudFormationType"]):
        doc = snap.load(r["cloudFormationType"])
        if doc is None:
            continue
        tf = TypeFacts(spec, boto, r, doc)
        for path, name, p in tf.props:
            if writable(doc, path):
                mine_property(m, tf, path, name, p)
        mine_cross_defaults(m, tf)
        mine_name_or_id(m, tf)
        mine_switch_sets_sibling(m, tf)
        mine_key_aliases(m, tf)
        mine_write_only(m, tf)
        mine_all_ports(m, tf)
        mine_schema_rules(m, tf, borrowed)
        if guides:
            mine_guides(m, tf, guides, names, r)
    key = lambda x: (x["guide"]["type"], x["guide"]["path"])  # noqa: E731
    return m.result() + (sorted(m.disagreements, key=key),)
