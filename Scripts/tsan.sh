#!/usr/bin/env bash
# Thread sanitizer over the runtime and the remote providers: the two targets where actors, tasks,
# URLSession delegate queues and locks meet. Debug build (TSan needs the unoptimized frames to name the
# racing accesses), its own scratch path so it never invalidates the ordinary debug or release builds.
# No suppressions: every report is either a race to fix or, if it is not ours, written down in
# Docs/Hardening.md with its reason. Run before each release; slow (the whole package is instrumented).
# Extra arguments go to `swift test` (for example `--filter SwitchboardTests.FallbackTests`).
set -euo pipefail
cd "$(dirname "$0")/.."

# Keep going after a report so one run counts them all; TSan exits non-zero at the end if any were found.
export TSAN_OPTIONS="${TSAN_OPTIONS:-second_deadlock_stack=1 history_size=4}"

filters=(--filter 'SwitchboardTests\.' --filter 'SwitchboardRemoteTests\.')
if [ "$#" -gt 0 ]; then filters=("$@"); fi

# SWITCHBOARD_NO_PREFETCH: under TSan the compiler crashes on the engine's prefetch intrinsic
# (Sources/SwitchboardInference/Kernels/Prefetch.swift); the hint is dropped in this build only.
# SWITCHBOARD_TSAN: `Lock` (SwitchboardCore) tells the sanitizer about each critical section, which it
# cannot see inside `Synchronization.Mutex` on Linux (every protected access would be reported).
flags=(--sanitize=thread --scratch-path .build-tsan -Xswiftc -DSWITCHBOARD_NO_PREFETCH -Xswiftc -DSWITCHBOARD_TSAN)
swift build --build-tests "${flags[@]}"
swift test --skip-build "${flags[@]}" "${filters[@]}"
