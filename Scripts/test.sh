#!/usr/bin/env bash
# The test command: fetch the models, build everything (tests included) in release with testing enabled,
# fail on any compiler warning, run every suite. Tests that need the models find them through
# SWITCHBOARD_MODEL_PATH (Gemma 3), SWITCHBOARD_CHAT_MODEL_PATH (SmolLM2) and
# SWITCHBOARD_EMBEDDING_MODEL_PATH (the all-MiniLM-L6-v2 folder), which this script sets.
set -euo pipefail
cd "$(dirname "$0")/.."

# The style rule the project keeps (lines of at most 150 characters), before anything is built.
python3 Scripts/check-style.py

models=$(bash Scripts/fetch-model.sh all)
export SWITCHBOARD_MODEL_PATH="$(sed -n 1p <<<"$models")"
export SWITCHBOARD_CHAT_MODEL_PATH="$(sed -n 2p <<<"$models")"
export SWITCHBOARD_EMBEDDING_MODEL_PATH="$(sed -n 3p <<<"$models")"

flags=(-c release -Xswiftc -enable-testing)
if [ "$(uname -m)" = "x86_64" ]; then flags+=(-Xswiftc -target-cpu -Xswiftc native); fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build --build-tests "${flags[@]}" 2>&1 | tee "$log"
if grep -E '(^|/)[^ ]+\.swift:[0-9]+:[0-9]+: warning:' "$log" >/dev/null; then
  echo "test.sh: the build has compiler warnings (the project keeps zero):" >&2
  grep -E '\.swift:[0-9]+:[0-9]+: warning:' "$log" | sort -u >&2
  exit 1
fi
swift test "${flags[@]}" --skip-build "$@"
