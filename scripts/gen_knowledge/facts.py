"""What the generator found (Mined) and one type's and one property's inputs (TypeFacts, PropFacts)."""
import json

from .botocore_reader import api_enum
from .registry import kind_of, resolve, schema_node_at
from .rules import defined_kinds, listed_values, type_noun


# --------------------------------------------------------------------------


class Mined:
    """What the generator found: defaults (the first source to state one
    for a type, path and condition wins: schema, then docs, then api-model)
    and compare rules by kind."""

    RULES = ("caseInsensitive", "unorderedArrays", "orderedArrays", "readGapCollections", "equivalences", "latestSentinel", "keyAliases", "keyedSets",
             "serviceAttached", "altRepresentations")

    def __init__(self):
        self.defaults = {}
        self.paths = set()
        self.rules = {k: [] for k in self.RULES}
        # Defaults dropped because another pinned source states another value.
        self.contradicted = []
        # Guide defaults not taken because a newer source states another value.
        self.disagreements = []

    def drop(self, key, why):
        """Removes a recorded default, keeping why in `contradicted`."""
        e = self.defaults.pop(key)
        if not any(k[:2] == key[:2] for k in self.defaults):
            self.paths.discard(key[:2])
        self.contradicted.append({"entry": e, "contradictedBy": why})

    def disagree(self, guide, newer):
        """Records a guide default that a newer source contradicts."""
        self.disagreements.append({"guide": guide, "newer": {k: newer[k] for k in ("source", "values", "quote") if k in newer}})

    def add_default(self, t, path, value, source, quote, chosen=False, when=None, values=None, same_as=None, any_value=False):
        """Records a default (`values` when several spellings of it hold;
        `same_as` when it is the value at another path; `any_value` when AWS
        alone sets it, so every value is its)."""
        key = (t, path, json.dumps(when, sort_keys=True))
        if key in self.defaults or (when is None and self.known(t, path)):
            return
        e = {"type": t, "path": path, "source": source}
        if any_value:
            e["any"] = True
        elif chosen:
            e["chosenAtCreate"] = True
            # Here `values` is the form the choice takes, never the choice.
            if values is not None:
                e["values"] = values
        elif same_as:
            e["sameAs"] = same_as
        else:
            e["values"] = values if values is not None else [value]
        if when:
            e["when"] = when
        e["quote"] = quote
        self.defaults[key] = e
        self.paths.add((t, path))

    def known(self, t, path):
        """True when any default (of any condition) is recorded at `path`."""
        return (t, path) in self.paths

    def unconditioned(self, t, path):
        """True when a default without a condition is recorded at `path`."""
        return (t, path, "null") in self.defaults

    def rule(self, kind, entry):
        """Records a compare rule of one kind (`unorderedArrays`, ...)."""
        self.rules[kind].append(entry)

    def result(self):
        """(defaults, rules), each sorted for byte-stable output."""
        out = sorted(self.defaults.values(), key=lambda e: (e["type"], e["path"], json.dumps(e.get("when"), sort_keys=True)))
        order = {
            "equivalences": lambda e: (e["type"], e["path"], e["rule"]),
            "keyAliases": lambda e: (e["type"], e["parent"], e["declared"]),
            "altRepresentations": lambda e: (e["type"], e["declared"]),
        }
        # Where the documentation says a list's order carries meaning, a
        # schema's `insertionOrder: false` does not make it a set.
        ordered = {(e["type"], e["path"]) for e in self.rules["orderedArrays"]}
        self.rules["unorderedArrays"] = [e for e in self.rules["unorderedArrays"] if (e["type"], e["path"]) not in ordered]
        rules = {k: sorted(v, key=order.get(k, lambda e: (e["type"], e["path"]))) for k, v in self.rules.items()}
        return out, rules, sorted(self.contradicted, key=lambda x: (x["entry"]["type"], x["entry"]["path"]))


class TypeFacts:
    """One resource type's inputs: its registry schema, its properties as
    the service database walks them, its API operations, and the kinds its
    top-level properties define."""

    def __init__(self, spec, boto, r, doc):
        self.spec, self.boto, self.doc = spec, boto, doc
        self.t = r["cloudFormationType"]
        self.props = []
        spec.walk(r.get("properties") or {}, "", 0, self.props)
        self.top_props = set((doc.get("properties") or {}).keys())
        self.create = boto.create_input(self.t)
        self.read = boto.read_output(self.t)
        self.setter_ops = boto.setters(self.t)
        self.noun = type_noun(self.t)
        # Top-level property -> (kind, enum, documentation).
        self.top_spec = {
            n: (kind_of(pp) or (schema_node_at(doc, n) or {}).get("type"), (schema_node_at(doc, n) or {}).get("enum"), pp.get("documentation") or "")
            for q, n, pp in self.props
            if q == n
        }
        # Top-level property -> its enum (the API model's where the schema
        # states none): the kinds a "for <kind>" sentence may name.
        self.sibling_enums = {
            n: e for n in self.top_props if isinstance(e := self.enums_of(n) or api_enum(boto, self.create, n), list)
        }
        self.defined = defined_kinds({n: v[2] for n, v in self.top_spec.items()}, self.sibling_enums)
        # Sibling defaults stated under one of a property's listed values.
        self.cross = []

    def sibling_values(self, prop):
        """{top-level sibling: the values its schema enum or its own
        documentation's list names}, for every sibling but `prop`."""
        out = {}
        for n, (kind, enum, text) in sorted(self.top_spec.items()):
            vals = self.sibling_enums.get(n) or (listed_values(text) if kind == "string" else None)
            if n != prop and vals:
                out[n] = vals
        return out

    def enums_of(self, prop):
        """The registry schema's enum of a property, if any."""
        return (schema_node_at(self.doc, prop) or {}).get("enum")

    def member_enums(self, path):
        """{member: enum} for the members beside a nested property that have
        one (the schema's, else the API model's)."""
        parent = path.rsplit(".", 1)[0]
        out = {}
        for pp, name, _ in self.props:
            if pp.rsplit(".", 1)[0] == parent and "." in pp and pp != path:
                e = self.enums_of(pp) or api_enum(self.boto, self.create, pp)
                if isinstance(e, list):
                    out[name] = e
        return out


class PropFacts:
    """One writable property: its path, name, service-database node and
    the kind, enum and item kind its documentation's values must fit."""

    def __init__(self, tf, path, name, p):
        self.path, self.name, self.p = path, name, p
        self.text = p.get("documentation") or ""
        node = schema_node_at(tf.doc, path) or {}
        self.kind = kind_of(p) or node.get("type")
        self.enum = node.get("enum")
        self.item_kind = None
        if self.kind == "array":
            items = resolve(tf.doc, node.get("items")) or {}
            self.item_kind, self.enum = items.get("type"), items.get("enum")
        # The API model's enum where the schema states none: a number
        # stated for a string must be one of them (MediaLive `SubtitleRows`
        # is `ROWS_24`, not the "24" its text names), and it spells an
        # on/off switch (`enable` / `disable`).
        self.spelled = api_enum(tf.boto, tf.create, path) if self.enum is None and self.kind == "string" else None
        if isinstance(self.enum, list) and self.kind == "string":
            # A value the API model lists and a stale schema enum leaves
            # out (ECS `PropagateTags` `NONE`) is still one of the
            # property's values.
            api = api_enum(tf.boto, tf.create, path) or []
            known = {str(x).lower() for x in self.enum}
            self.enum = self.enum + [x for x in api if isinstance(x, str) and x.lower() not in known]
        self.single = tf.spec.single_member(p)

    def minable(self):
        """False for an array of objects: its items are mined one by one."""
        return self.kind != "array" or self.item_kind in ("string", "integer", "number", "boolean")
