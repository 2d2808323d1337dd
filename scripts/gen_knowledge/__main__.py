"""Entry point: `python3 -m gen_knowledge` (run by scripts/gen-knowledge.sh)."""
import argparse
import json
import os

from .botocore_reader import Botocore
from .generate import generate
from .paths import DATA, ROOT
from .refute import refute_by_observation
from .registry import Snapshot, Spec
from .writer import write


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--service-spec", required=True)
    ap.add_argument("--service-spec-version", required=True)
    ap.add_argument("--botocore", required=True)
    ap.add_argument("--botocore-version", required=True)
    ap.add_argument("--snapshot", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    operations = os.path.join(DATA, "api-operations.json")
    defaults, rules, contradicted = generate(Spec(a.service_spec), Botocore(a.botocore, operations), Snapshot(a.snapshot))
    with open(os.path.join(ROOT, "core", "data", "known-defaults.json"), encoding="utf-8") as f:
        observed = json.load(f)["defaults"]
    defaults, refuted = refute_by_observation(defaults, observed)
    refuted = refuted + contradicted
    versions = {"serviceSpec": a.service_spec_version, "botocore": a.botocore_version}
    manifest = write(a.out, Snapshot(a.snapshot), defaults, rules, refuted, contradicted, versions)
    print(json.dumps(manifest, sort_keys=True))


if __name__ == "__main__":
    main()
