#!/usr/bin/env bash
# Batched decode side by side: 8 SmolLM2 streams through our local provider (`switchboard-bench batch`)
# and llama.cpp's own batched decode of 8 sequences (Scripts/llbatch.py: one llama_decode per step
# holding one token of every sequence), 64 tokens each, 2 threads, alternating in one run. Prints every
# JSON object and each run's ratio of aggregate tokens/s (ours / llama.cpp).
# Needs llama-cpp-python (installed if missing, builds llama.cpp, several minutes).
# Usage: compare-batch.sh [RUNS=3]. Env: STREAMS (8), TOKENS (64), SCRATCH (build folder, default .build-bench).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
streams=${STREAMS:-8}
tokens=${TOKENS:-64}
model=$(bash Scripts/fetch-model.sh smollm2 | tail -n 1)
if ! python3 -c "import llama_cpp" 2>/dev/null; then
  echo "compare-batch: installing llama-cpp-python (builds llama.cpp, several minutes)" >&2
  python3 -m pip install --quiet --disable-pip-version-check llama-cpp-python
fi
flags=(-c release)
if [ "$(uname -m)" = "x86_64" ]; then flags+=(-Xswiftc -target-cpu -Xswiftc native); fi
scratch=${SCRATCH:-.build-bench}
swift build "${flags[@]}" --scratch-path "$scratch" --product switchboard-bench >&2
bench="$scratch/release/switchboard-bench"

for run in $(seq 1 "$runs"); do
  ours=$("$bench" batch --model "$model" --streams "$streams" --tokens "$tokens" --json | tail -n 1)
  theirs=$(python3 Scripts/llbatch.py "$model" "$streams" "$tokens" 2 | tail -n 1)
  echo "$ours"
  echo "$theirs"
  python3 - "$ours" "$theirs" "$run" <<'PY'
import json, sys
ours, theirs = json.loads(sys.argv[1]), json.loads(sys.argv[2])
a = ours["aggregate_tokens_per_second"]; b = theirs["aggregate_tokens_per_second"]
print(f"run {sys.argv[3]}: ours {a} / llama.cpp {b} tok/s aggregate = {a / b:.2f}x (identical: {ours.get('identical')})")
PY
done
