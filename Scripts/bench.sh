#!/usr/bin/env bash
# The main job: fetch the model if missing, build switchboard-bench in release (native CPU flags on
# x86-64), then run it. Extra arguments go to `switchboard-bench run`, e.g. `Scripts/bench.sh --json out.json`.
set -euo pipefail
cd "$(dirname "$0")/.."

models=$(bash Scripts/fetch-model.sh all)
export SWITCHBOARD_MODEL_PATH="${SWITCHBOARD_MODEL_PATH:-$(sed -n 1p <<<"$models")}"
export SWITCHBOARD_CHAT_MODEL_PATH="${SWITCHBOARD_CHAT_MODEL_PATH:-$(sed -n 2p <<<"$models")}"

flags=(-c release)
if [ "$(uname -m)" = "x86_64" ]; then flags+=(-Xswiftc -target-cpu -Xswiftc native); fi
echo "bench.sh: building switchboard-bench (release)…" >&2
swift build "${flags[@]}" --product switchboard-bench >&2

exec .build/release/switchboard-bench run "$@"
