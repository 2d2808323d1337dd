#!/usr/bin/env bash
# The realdrift demo, from a fresh clone, in one command:
#   builds the CLI, starts the local AWS emulator, creates the fixture CDK
#   stack in it, makes three console-style changes, runs `realdrift check`
#   and shows the report, sends one more change with its CloudTrail event
#   through the on-change function (scripts/demo-on-change.sh) and shows the
#   SNS document and Slack message it produced, reverts the drift with
#   `realdrift revert` and shows a clean check, then stops the emulator (also
#   on Ctrl-C or error).
#
#   scripts/demo.sh
#
# Needs cargo and python3 (the emulator's virtualenv is created on first use).
# Nothing leaves 127.0.0.1; the emulator runs in its own state directory and
# on free ports, so a developer's emulator on 4566 is left alone.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
STACK="${REALDRIFT_DEMO_STACK:-DemoApp}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/realdrift-demo.XXXXXX")"
export REALDRIFT_EMULATOR_DIR="$WORK/emulator" REALDRIFT_MOTO_PORT=0 REALDRIFT_CLOUDCONTROL_PORT=0

step() {
  if [[ -t 2 ]]; then printf '\n\033[1m== %s\033[0m\n' "$*" >&2; else printf '\n== %s\n' "$*" >&2; fi
}

cleanup() {
  step "stopping the emulator"
  scripts/emulator.sh stop || true
  rm -rf "$WORK"
}
trap cleanup EXIT

step "building the realdrift CLI (cargo build -p realdrift-cli)"
cargo build --quiet --locked -p realdrift-cli
REALDRIFT="${CARGO_TARGET_DIR:-$ROOT/target}/debug/realdrift"

step "starting the local AWS emulator (moto + Cloud Control endpoint)"
eval "$(scripts/emulator.sh start)"

step "creating stack $STACK from the fixture CDK app's template"
.venv/bin/python tests/emulator/deploy_fixture.py "$STACK" >"$WORK/deploy.json"
physical() {
  .venv/bin/python -c 'import json,sys; d=json.load(open(sys.argv[1])); print(next(r["physicalId"] for r in d["resources"] if r["logicalId"]==sys.argv[2]))' \
    "$WORK/deploy.json" "$1"
}
BUCKET="$(physical Data666C94C7)"
ROLE="$(physical WorkerRole8DD27D41)"
TOPIC="$(physical Alerts91F83244)"

step "a fresh stack: realdrift check $STACK"
(cd "$WORK" && "$REALDRIFT" check "$STACK")

step "console-style changes: versioning suspended, a rogue inline policy, the topic's display name"
.venv/bin/python tests/e2e/mutate.py "$(printf '[["versioning","%s","Suspended"],["role-policy","%s","Rogue","s3:*"],["topic-display-name","%s","changed in the console"]]' "$BUCKET" "$ROLE" "$TOPIC")"
echo "  s3 put-bucket-versioning        $BUCKET  Status=Suspended" >&2
echo "  iam put-role-policy             $ROLE  Rogue (s3:* on *)" >&2
echo "  sns set-topic-attributes        DisplayName='changed in the console'" >&2

step "realdrift check $STACK --fail"
status=0
(cd "$WORK" && "$REALDRIFT" check "$STACK" --fail) || status=$?
echo >&2
echo "realdrift exited $status (1 = confirmed drift under --fail)" >&2

step "continuous detection: a change and its CloudTrail event through the on-change function"
scripts/demo-on-change.sh "$STACK" "$WORK"

step "the revert plan: realdrift revert $STACK --dry-run"
(cd "$WORK" && "$REALDRIFT" revert "$STACK" --dry-run)
echo "  (the rogue policy was never recorded, so it is refused unless asked for)" >&2

step "revert it all: realdrift revert $STACK --yes --remove-unrecorded"
(cd "$WORK" && "$REALDRIFT" revert "$STACK" --yes --remove-unrecorded)

step "after the revert: realdrift check $STACK --fail"
(cd "$WORK" && "$REALDRIFT" check "$STACK" --fail)
echo >&2
echo "realdrift exited 0: the stack is clean again" >&2
