#!/usr/bin/env bash
# Side-by-side speed: our engine (`switchboard-bench engine`) and llama.cpp (llama-cpp-python, through
# Scripts/llamacpp_reference.py, a copy of shared/tools/llamacpp_reference.py) on the same model, same prompt (512 tokens), same thread count,
# interleaved in one run. Prints every JSON object and the ratios (ours / llama.cpp: medians of the pairs).
# Needs `pip install llama-cpp-python` (builds llama.cpp, ~6 minutes); the script installs it if missing.
# Usage: compare-llamacpp.sh [gemma|smollm2] (default gemma). Env: THREADS (default 2), RUNS (runs per process, median; default 3), PAIRS (default 3),
# SCRATCH (the build folder, default .build: another one, e.g. .build-bench, keeps the test build's flags apart).
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${THREADS:-2}
runs=${RUNS:-3}
pairs_wanted=${PAIRS:-3}
reference=Scripts/llamacpp_reference.py

which=${1:-gemma}
model=$(bash Scripts/fetch-model.sh "$which" | tail -n 1)
if ! python3 -c "import llama_cpp" 2>/dev/null; then
  echo "compare-llamacpp: installing llama-cpp-python (builds llama.cpp, several minutes)" >&2
  python3 -m pip install --quiet --disable-pip-version-check llama-cpp-python
fi

flags=(-c release)
if [ "$(uname -m)" = "x86_64" ]; then flags+=(-Xswiftc -target-cpu -Xswiftc native); fi
scratch=${SCRATCH:-.build}
swift build "${flags[@]}" --scratch-path "$scratch" --product switchboard-bench >&2

# Interleaved pairs (ours, llama.cpp, ours, …), each side the median of RUNS runs in one process (a
# process's first run is slower): on a shared machine whose speed drifts, a back-to-back pair sees the
# same conditions, so each pair's ratio is fair; the median of the pairs' ratios is printed with all.
pairs=()
for _ in $(seq "$pairs_wanted"); do
  ours=$("$scratch"/release/switchboard-bench engine --model "$model" --threads "$threads" --runs "$runs" --json)
  theirs=$(python3 "$reference" --model "$model" --threads "$threads" --repeats "$runs")
  echo "switchboard: $ours"
  echo "llama.cpp:   $theirs"
  pairs+=("$ours" "$theirs")
done
python3 - "${pairs[@]}" <<'PY'
import json, statistics, sys
objects = [json.loads(a) for a in sys.argv[1:]]
pairs = list(zip(objects[0::2], objects[1::2]))
def figure(key_ours, key_theirs):
    ratios = [o[key_ours] / t[key_theirs] for o, t in pairs]
    return {"switchboard": statistics.median(o[key_ours] for o, _ in pairs),
            "llama_cpp": statistics.median(t[key_theirs] for _, t in pairs),
            "ratio": round(statistics.median(ratios), 2), "pair_ratios": [round(r, 2) for r in ratios]}
print(json.dumps({
    "threads": pairs[0][0].get("threads"),
    "prefill_tokens_per_second": figure("prefill_tokens_per_second", "prefill_tokens_per_second"),
    "decode_tokens_per_second": figure("decode_tokens_per_second", "decode_tokens_per_second_after_prompt"),
    "peak_rss_mb": max(o.get("peak_rss_mb", 0) for o, _ in pairs),
}))
PY
