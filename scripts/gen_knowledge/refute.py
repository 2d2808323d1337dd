"""Mined defaults that a real deploy (core/data/known-defaults.json) contradicts."""
import json


def refute_by_observation(defaults, observed):
    """Mined value defaults that a real deploy contradicts.

    Documentation can be wrong about what AWS stores (ELBv2 documents a
    6-second health-check timeout for HTTP target groups; fresh ones hold 5).
    A mined default whose values are disjoint from an observed entry of the
    same type and path, under a condition that overlaps, would fold a real
    change to the documented value: the condition's refuted values are
    removed (the rest of the entry stays), or the entry is dropped when its
    whole condition is refuted or neither side is conditioned. A
    conditioned entry against an unconditioned observation (or one on
    another property) stays: nothing says the observed deploys met its
    condition. Cross-type observed entries (`*`) never refute a type's own
    documentation.
    Returns (kept, refuted) with each refutation's observed evidence."""

    def same(a, b):
        return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)

    by_key = {}
    for o in observed:
        if o.get("source") == "observed" and o.get("values") and o.get("type") != "*":
            by_key.setdefault((o["type"], o["path"]), []).append(o)
    kept, refuted = [], []
    for e in defaults:
        if not e.get("values"):
            kept.append(e)
            continue
        entry = dict(e)
        for o in by_key.get((e["type"], e["path"]), []):
            if any(same(v, w) for v in entry["values"] for w in o["values"]):
                continue
            mw, ow = entry.get("when"), o.get("when")
            if mw and ow and len(mw) == 1 and len(ow) == 1 and list(mw) == list(ow):
                key = next(iter(mw))
                hit = [v for v in mw[key] if any(same(v, w) for w in ow[key])]
                if not hit:
                    continue
                rest = [v for v in mw[key] if v not in hit]
                refuted.append({"entry": e, "refutedWhen": {key: hit}, "observed": o["reason"]})
                if rest:
                    entry["when"] = {key: rest}
                    continue
            elif mw or ow:
                continue
            else:
                refuted.append({"entry": e, "observed": o["reason"]})
            entry = None
            break
        if entry is not None:
            kept.append(entry)
    return kept, refuted
