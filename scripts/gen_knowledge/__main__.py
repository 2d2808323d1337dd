"""Entry point: `python3 -m gen_knowledge` (run by scripts/gen-knowledge.sh)."""
import argparse
import json
import os

from .botocore_reader import Botocore
from .generate import generate
from .guides import Guides
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
    ap.add_argument("--guides", help="../shared/knowledge/aws-guides: the archived AWS guides' default sentences")
    ap.add_argument("--guides-sha256", help="the pinned content hash of --guides, recorded in the MANIFEST")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    operations = os.path.join(DATA, "api-operations.json")
    guides = Guides(a.guides) if a.guides else None
    spec, boto = Spec(a.service_spec), Botocore(a.botocore, operations)
    defaults, rules, contradicted, disagreements = generate(spec, boto, Snapshot(a.snapshot), guides)
    with open(os.path.join(ROOT, "core", "data", "known-defaults.json"), encoding="utf-8") as f:
        observed = json.load(f)["defaults"]
    defaults, refuted = refute_by_observation(defaults, observed)
    refuted = refuted + contradicted
    versions = {"serviceSpec": a.service_spec_version, "botocore": a.botocore_version, "guides": a.guides_sha256}
    manifest = write(a.out, Snapshot(a.snapshot), defaults, rules, refuted, contradicted, versions, disagreements)
    print(json.dumps(manifest, sort_keys=True))


if __name__ == "__main__":
    main()
