#!/usr/bin/env bash
# The test command: fetch the model, build everything (tests included) in release with testing enabled,
# fail on any compiler warning, run every suite. Tests that need the model find it through
# SWITCHBOARD_MODEL_PATH, which this script sets.
set -euo pipefail
cd "$(dirname "$0")/.."

model=$(bash Scripts/fetch-model.sh | tail -n 1)
export SWITCHBOARD_MODEL_PATH="$model"

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
