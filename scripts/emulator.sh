#!/usr/bin/env bash
# The local AWS emulator: moto in server mode plus realdrift's Cloud Control
# endpoint (tests/emulator/cloudcontrol), both on 127.0.0.1 only.
#
#   scripts/emulator.sh start    # idempotent; prints the export lines to use
#   scripts/emulator.sh stop     # idempotent
#   scripts/emulator.sh status   # exit 0 when running, 1 when not
#   scripts/emulator.sh env      # the export lines of the running emulator
#   scripts/emulator.sh reset    # forget every resource (between tests)
#
# Use it with: eval "$(scripts/emulator.sh start)"
# State (pids, ports) lives in .emulator/, the virtualenv in .venv/ (both gitignored).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENV="${REALDRIFT_VENV:-$ROOT/.venv}"
STATE="${REALDRIFT_EMULATOR_DIR:-$ROOT/.emulator}"
REQS="$ROOT/tests/emulator/requirements.txt"
REGION="us-east-1"
READY_TIMEOUT_S=60

log() { echo "emulator: $*" >&2; }

# Create the venv once, and again only when requirements.txt changes.
ensure_venv() {
  local want have=""
  want="$(sha256sum "$REQS" | cut -d' ' -f1)"
  [[ -f "$VENV/.requirements.sha256" ]] && have="$(cat "$VENV/.requirements.sha256")"
  if [[ -x "$VENV/bin/python" && "$want" == "$have" ]]; then
    return
  fi
  log "installing $(basename "$REQS") into $VENV (about 30 s, once)"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$REQS" >&2
  echo "$want" >"$VENV/.requirements.sha256"
}

# A free TCP port on 127.0.0.1: the preferred one when free, else any.
free_port() {
  "$VENV/bin/python" - "$1" <<'PY'
import socket, sys
preferred = int(sys.argv[1])
for port in (preferred, 0):
    s = socket.socket()
    # As the servers do: a port left in TIME_WAIT by a stopped emulator is free.
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind(("127.0.0.1", port))
        print(s.getsockname()[1])
        break
    except OSError:
        continue
    finally:
        s.close()
PY
}

alive() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

answers() { curl -fsS -o /dev/null --max-time 2 "$1" 2>/dev/null; }

env_lines() {
  local moto_port cc_port
  moto_port="$(cat "$STATE/moto.port")"
  cc_port="$(cat "$STATE/cloudcontrol.port")"
  cat <<EOF
export AWS_ENDPOINT_URL=http://127.0.0.1:$moto_port
export AWS_ENDPOINT_URL_CLOUDCONTROL=http://127.0.0.1:$cc_port
export AWS_REGION=$REGION
export AWS_DEFAULT_REGION=$REGION
export AWS_ACCESS_KEY_ID=testing
export AWS_SECRET_ACCESS_KEY=testing
export AWS_EC2_METADATA_DISABLED=true
EOF
}

running() {
  alive "$STATE/moto.pid" && alive "$STATE/cloudcontrol.pid" &&
    answers "http://127.0.0.1:$(cat "$STATE/moto.port")/moto-api/" &&
    answers "http://127.0.0.1:$(cat "$STATE/cloudcontrol.port")/health"
}

# Poll (bounded) until a URL answers or its process dies.
wait_ready() {
  local url="$1" pidfile="$2" name="$3" deadline=$((SECONDS + READY_TIMEOUT_S))
  until answers "$url"; do
    if ! alive "$pidfile"; then
      log "$name exited during start-up; its log:"
      tail -n 20 "$STATE/$name.log" >&2 || true
      return 1
    fi
    if ((SECONDS >= deadline)); then
      log "$name did not answer within ${READY_TIMEOUT_S}s"
      return 1
    fi
    sleep 0.1
  done
}

stop_one() {
  local pidfile="$STATE/$1.pid" pid
  if alive "$pidfile"; then
    pid="$(cat "$pidfile")"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile" "$STATE/$1.port"
}

cmd_start() {
  if [[ -d "$STATE" ]] && running; then
    env_lines
    return
  fi
  cmd_stop >/dev/null 2>&1 || true
  ensure_venv
  mkdir -p "$STATE"
  local moto_port cc_port
  moto_port="$(free_port "${REALDRIFT_MOTO_PORT:-4566}")"
  echo "$moto_port" >"$STATE/moto.port"
  # moto_server with the patches for its gaps (tests/emulator/moto_patches).
  # AWS managed policies are loaded so templates can attach them (e.g.
  # AWSLambdaBasicExecutionRole); moto leaves them out by default.
  MOTO_IAM_LOAD_MANAGED_POLICIES=true PYTHONPATH="$ROOT/tests/emulator" \
    setsid "$VENV/bin/python" -m moto_patches -H 127.0.0.1 -p "$moto_port" \
    >"$STATE/moto.log" 2>&1 </dev/null &
  echo $! >"$STATE/moto.pid"
  wait_ready "http://127.0.0.1:$moto_port/moto-api/" "$STATE/moto.pid" moto

  cc_port="$(free_port "${REALDRIFT_CLOUDCONTROL_PORT:-4567}")"
  echo "$cc_port" >"$STATE/cloudcontrol.port"
  PYTHONPATH="$ROOT/tests/emulator" setsid "$VENV/bin/python" -m cloudcontrol \
    --host 127.0.0.1 --port "$cc_port" --moto-url "http://127.0.0.1:$moto_port" --region "$REGION" \
    >"$STATE/cloudcontrol.log" 2>&1 </dev/null &
  echo $! >"$STATE/cloudcontrol.pid"
  wait_ready "http://127.0.0.1:$cc_port/health" "$STATE/cloudcontrol.pid" cloudcontrol
  env_lines >"$STATE/env"
  log "moto on 127.0.0.1:$moto_port, Cloud Control on 127.0.0.1:$cc_port"
  env_lines
}

cmd_stop() {
  [[ -d "$STATE" ]] || return 0
  stop_one cloudcontrol
  stop_one moto
  rm -f "$STATE/env"
  log "stopped"
}

cmd_status() {
  if [[ -d "$STATE" ]] && running; then
    echo "running: moto 127.0.0.1:$(cat "$STATE/moto.port"), cloudcontrol 127.0.0.1:$(cat "$STATE/cloudcontrol.port")"
  else
    echo "not running"
    return 1
  fi
}

cmd_env() {
  if [[ -d "$STATE" ]] && running; then
    env_lines
  else
    log "not running (start it with: scripts/emulator.sh start)"
    return 1
  fi
}

cmd_reset() {
  cmd_status >/dev/null || { log "not running"; return 1; }
  curl -fsS -X POST -o /dev/null "http://127.0.0.1:$(cat "$STATE/moto.port")/moto-api/reset"
  curl -fsS -X POST -o /dev/null "http://127.0.0.1:$(cat "$STATE/cloudcontrol.port")/reset"
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  env) cmd_env ;;
  reset) cmd_reset ;;
  *)
    echo "usage: $0 start|stop|status|env|reset" >&2
    exit 2
    ;;
esac
