#!/usr/bin/env bash
# The on-device encoder against llama.cpp on all-MiniLM-L6-v2, side by side: converts the model to llama.cpp's
# bert GGUF (F32) with Scripts/minilm_to_gguf.py, then runs `switchboard-bench embed --bench --json` and
# Scripts/llembed_speed.py (both copied from the shared tools) alternately, PAIRS times (default 3), 2 threads.
# Needs: pip install llama-cpp-python gguf safetensors numpy (llama-cpp-python builds llama.cpp, ~8 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${PAIRS:-3}
SCRATCH=${SCRATCH:-.build-bench}
tools=Scripts
models=$(bash Scripts/fetch-model.sh all)
folder=$(sed -n 3p <<<"$models")
python3 -c "import llama_cpp, gguf, safetensors, numpy" 2>/dev/null \
  || python3 -m pip install --quiet --disable-pip-version-check llama-cpp-python gguf safetensors numpy
gguf="$SCRATCH/minilm-f32.gguf"
mkdir -p "$SCRATCH"
[ -s "$gguf" ] || python3 "$tools/minilm_to_gguf.py" "$folder" "$gguf" f32 >&2
flags=(-c release)
if [ "$(uname -m)" = "x86_64" ]; then flags+=(-Xswiftc -target-cpu -Xswiftc native); fi
swift build "${flags[@]}" --scratch-path "$SCRATCH" --product switchboard-bench >&2
bench="$SCRATCH/release/switchboard-bench"
for i in $(seq 1 "$PAIRS"); do
  echo "pair $i ours:      $("$bench" embed --model "$folder" --bench --json --threads 2)"
  echo "pair $i llama.cpp: $(python3 "$tools/llembed_speed.py" "$gguf")"
done
