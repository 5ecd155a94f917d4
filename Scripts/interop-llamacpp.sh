#!/usr/bin/env bash
# Interop check against a real OpenAI-compatible server: llama-cpp-python's server on loopback, serving
# Gemma 3 270M. Asks twice through `switchboard-bench ask`:
#   1. a public prompt, which may be routed to that server;
#   2. a sensitive prompt (an SSN), which must be served on device: the server must see nothing.
# Then checks the server's access log holds exactly one chat request. The server is always stopped.
# Env: PORT (default: a free port), SWITCHBOARD_BENCH (a built switchboard-bench; default: build it),
#      READY_TIMEOUT seconds (default 180).
set -euo pipefail

cd "$(dirname "$0")/.."
fail() { echo "interop-llamacpp: $*" >&2; exit 1; }
say() { echo "interop-llamacpp: $*" >&2; }

PY=$(command -v python3) || fail "python3 is needed"
if ! "$PY" -c "import llama_cpp.server, uvicorn, fastapi, sse_starlette, starlette_context, pydantic_settings" 2>/dev/null; then
  say "installing llama-cpp-python[server] with pip (building llama.cpp can take several minutes)"
  "$PY" -m pip install --disable-pip-version-check --quiet "llama-cpp-python[server]" || fail "pip install llama-cpp-python[server] failed"
fi

MODEL=$(bash Scripts/fetch-model.sh gemma | tail -n 1)
[ -f "$MODEL" ] || fail "model not found at '$MODEL'"

PORT=${PORT:-$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')}
BASE="http://127.0.0.1:$PORT/v1"
WORK=$(mktemp -d)
LOG="$WORK/server.log"
SERVER_PID=""

stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap stop_server EXIT INT TERM

say "starting llama_cpp.server on 127.0.0.1:$PORT"
# The GGUF carries no chat template; without the Gemma turn format the base model ends its turn at once.
"$PY" -m llama_cpp.server --model "$MODEL" --model_alias gemma --host 127.0.0.1 --port "$PORT" --n_ctx 2048 --chat_format gemma \
  >"$LOG" 2>&1 &
SERVER_PID=$!

deadline=$(( $(date +%s) + ${READY_TIMEOUT:-180} ))
until "$PY" - "$BASE/models" <<'PYEOF' 2>/dev/null
import sys, urllib.request
urllib.request.urlopen(sys.argv[1], timeout=2).read()
PYEOF
do
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$LOG" >&2; fail "the server exited during startup"; }
  [ "$(date +%s)" -lt "$deadline" ] || { tail -n 20 "$LOG" >&2; fail "the server was not ready within ${READY_TIMEOUT:-180}s"; }
  sleep 0.5
done
say "server ready at $BASE"

if [ -n "${SWITCHBOARD_BENCH:-}" ]; then
  BENCH=$SWITCHBOARD_BENCH
else
  # Release: the sensitive prompt is answered by our on-device engine, which is slow in a debug build.
  flags=(-c release)
  if [ "$(uname -m)" = "x86_64" ]; then flags+=(-Xswiftc -target-cpu -Xswiftc native); fi
  swift build "${flags[@]}" --product switchboard-bench >&2 || fail "swift build --product switchboard-bench failed"
  BENCH="$(swift build "${flags[@]}" --show-bin-path)/switchboard-bench"
fi

ask() {
  "$BENCH" ask --openai-base-url "$BASE" --openai-model gemma --prompt "$1" --json
}

chat_requests() { grep -c 'POST /v1/chat/completions' "$LOG" || true; }

PUBLIC_PROMPT="In one sentence, why is the sky blue?"
SENSITIVE_PROMPT="My SSN is 219-09-9999, can you remind me which tax form I need to file?"

say "ask 1 (public): $PUBLIC_PROMPT"
PUBLIC_RESULT=$(ask "$PUBLIC_PROMPT") || fail "ask (public prompt) failed; is the ask subcommand built? output: $PUBLIC_RESULT"
AFTER_PUBLIC=$(chat_requests)
say "ask 2 (sensitive): (an SSN prompt; must stay on device)"
SENSITIVE_RESULT=$(ask "$SENSITIVE_PROMPT") || fail "ask (sensitive prompt) failed; output: $SENSITIVE_RESULT"
AFTER_SENSITIVE=$(chat_requests)

echo "public result:"
echo "$PUBLIC_RESULT"
echo "sensitive result:"
echo "$SENSITIVE_RESULT"
echo "server chat requests: after public ask $AFTER_PUBLIC, after sensitive ask $AFTER_SENSITIVE"

grep -q '219-09-9999' "$LOG" && fail "the sensitive prompt reached the server log"
[ "$AFTER_PUBLIC" -eq 1 ] || fail "expected the public prompt to reach the server once, saw $AFTER_PUBLIC requests"
[ "$AFTER_SENSITIVE" -eq 1 ] || fail "the sensitive prompt reached the server (requests: $AFTER_SENSITIVE)"
say "ok: one request reached the server; the sensitive prompt stayed on device"
