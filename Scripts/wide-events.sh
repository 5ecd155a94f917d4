#!/usr/bin/env bash
# Runs the wide-event case (forty 1 MB events, see Tests/SwitchboardRemoteTests/WideEventStreamTests.swift)
# ROUNDS times in all, 25 per test process, and counts the processes that crashed. Each process is separate
# so a URLSession crash ("behaviour for a task that in not in the registry") shows as a failed run instead
# of ending the loop. Usage: Scripts/wide-events.sh [ROUNDS] (default 200). Builds the tests first (debug).
set -u
cd "$(dirname "$0")/.."
rounds=${1:-200}
runs=$(( (rounds + 24) / 25 ))
swift build --build-tests >/dev/null || exit 1
crashes=0; failures=0
for i in $(seq 1 "$runs"); do
    log=$(mktemp)
    swift test --skip-build --filter WideEventStreamTests >"$log" 2>&1
    if grep -q "Program crashed\|Fatal error" "$log"; then crashes=$((crashes + 1)); grep -m1 "Fatal error" "$log"
    elif ! grep -q "Test run with 1 test in 1 suite passed" "$log"; then failures=$((failures + 1)); tail -5 "$log"; fi
    rm -f "$log"
done
echo "wide-event rounds: $((runs * 25)) in $runs processes; crashed processes: $crashes; other failures: $failures"
[ "$crashes" -eq 0 ] && [ "$failures" -eq 0 ]
