#!/usr/bin/env bash
# Deploys the fixture app into the running emulator with the real CDK CLI:
# `cdk bootstrap` then `cdk deploy` (a first deploy; moto cannot update stacks).
#   tests/emulator/deploy_with_cdk.sh [STACK_NAME]    (default RealdriftFixtureCdk)
# Needs the emulator running (scripts/emulator.sh start) and npm.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
APP="$ROOT/tests/fixtures/app"
STACK="${1:-RealdriftFixtureCdk}"

eval "$("$ROOT/scripts/emulator.sh" env)"
# The CDK CLI uploads assets to S3 with virtual-hosted-style URLs, which only
# resolve for "localhost" (EMULATOR-NOTES), not for 127.0.0.1. localhost
# still resolves to the loopback interface.
export AWS_ENDPOINT_URL="${AWS_ENDPOINT_URL/127.0.0.1/localhost}"
export CDK_DISABLE_CLI_TELEMETRY=true
account="$("$ROOT/.venv/bin/python" -c 'import boto3; print(boto3.client("sts").get_caller_identity()["Account"])')"

cd "$APP"
if [[ ! -d node_modules ]] || [[ package-lock.json -nt node_modules ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# Synthesize once; bootstrap and deploy both reuse the cloud assembly.
t0=$SECONDS
npx cdk synth -c stackName="$STACK" --no-version-reporting --no-notices --quiet --output "$out" >/dev/null
t1=$SECONDS
npx cdk bootstrap "aws://$account/$AWS_REGION" --app "$out" --no-notices >&2
t2=$SECONDS
npx cdk deploy "$STACK" --app "$out" --require-approval never --no-notices >&2
t3=$SECONDS
echo "{\"stackName\": \"$STACK\", \"synthSeconds\": $((t1 - t0)), \"bootstrapSeconds\": $((t2 - t1)), \"deploySeconds\": $((t3 - t2))}"
