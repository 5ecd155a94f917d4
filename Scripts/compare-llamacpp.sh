#!/usr/bin/env bash
# Side-by-side speed: our engine (`switchboard-bench engine`) and llama.cpp (llama-cpp-python, through
# Scripts/llamacpp_reference.py, a copy of shared/tools/llamacpp_reference.py) on the same model, same prompt (512 tokens), same thread count,
# one after the other in one run. Prints both JSON objects and the ratios (ours / llama.cpp).
# Needs `pip install llama-cpp-python` (builds llama.cpp, ~6 minutes); the script installs it if missing.
# Usage: compare-llamacpp.sh [gemma|smollm2] (default gemma). Env: THREADS (default 2), RUNS (default 3).
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${THREADS:-2}
runs=${RUNS:-3}
reference=Scripts/llamacpp_reference.py

which=${1:-gemma}
model=$(bash Scripts/fetch-model.sh "$which" | tail -n 1)
if ! python3 -c "import llama_cpp" 2>/dev/null; then
  echo "compare-llamacpp: installing llama-cpp-python (builds llama.cpp, several minutes)" >&2
  python3 -m pip install --quiet --disable-pip-version-check llama-cpp-python
fi

flags=(-c release)
if [ "$(uname -m)" = "x86_64" ]; then flags+=(-Xswiftc -target-cpu -Xswiftc native); fi
swift build "${flags[@]}" --product switchboard-bench >&2

ours=$(.build/release/switchboard-bench engine --model "$model" --threads "$threads" --runs "$runs" --json)
theirs=$(python3 "$reference" --model "$model" --threads "$threads" --repeats "$runs")
echo "switchboard: $ours"
echo "llama.cpp:   $theirs"
python3 - "$ours" "$theirs" <<'PY'
import json, sys
ours, theirs = json.loads(sys.argv[1]), json.loads(sys.argv[2])
prefill = ours["prefill_tokens_per_second"] / theirs["prefill_tokens_per_second"]
decode = ours["decode_tokens_per_second"] / theirs["decode_tokens_per_second_after_prompt"]
print(json.dumps({
    "threads": ours.get("threads"),
    "prefill_tokens_per_second": {"switchboard": ours["prefill_tokens_per_second"], "llama_cpp": theirs["prefill_tokens_per_second"], "ratio": round(prefill, 2)},
    "decode_tokens_per_second": {"switchboard": ours["decode_tokens_per_second"], "llama_cpp": theirs["decode_tokens_per_second_after_prompt"], "ratio": round(decode, 2)},
    "peak_rss_mb": ours.get("peak_rss_mb"),
}))
PY
