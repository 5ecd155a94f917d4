#!/usr/bin/env bash
# The main job: fetch the model if missing, build switchboard-bench in release (native CPU flags on
# x86-64), then run it. Extra arguments go to `switchboard-bench run`, e.g. `Scripts/bench.sh --json out.json`.
set -euo pipefail
cd "$(dirname "$0")/.."

model=$(bash Scripts/fetch-model.sh | tail -n 1)
export SWITCHBOARD_MODEL_PATH="${SWITCHBOARD_MODEL_PATH:-$model}"

flags=(-c release)
if [ "$(uname -m)" = "x86_64" ]; then flags+=(-Xswiftc -target-cpu -Xswiftc native); fi
echo "bench.sh: building switchboard-bench (release)…" >&2
swift build "${flags[@]}" --product switchboard-bench >&2

exec .build/release/switchboard-bench run "$@"
