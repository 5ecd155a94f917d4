#!/usr/bin/env bash
# Peak RSS and seconds of `switchboard-bench ask` (release) against each hostile reply shape of
# Scripts/hostile-reply-server.py, with a 3 s timeout as in the issue-24 probes. The local model (SmolLM2)
# is loaded by `ask` and answers after a fallback: the healthy shape is the baseline to subtract.
# Usage: Scripts/measure-hostile-replies.sh [SHAPE...]   (build first: swift build -c release --product switchboard-bench)
set -u
cd "$(dirname "$0")/.."
bench=.build/release/switchboard-bench
schema=$(mktemp --suffix .json)
echo '{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"]}' >"$schema"
shapes=${*:-healthy slow slow-tool wide huge huge-uncapped objects chars mega}
printf "%-15s %10s %8s %8s  %s\n" shape peak_MB wall_s cpu_s outcome
for shape in $shapes; do
    server_shape=${shape%-uncapped}
    fifo=$(mktemp -u); mkfifo "$fifo"
    attempts=$(mktemp)
    python3 Scripts/hostile-reply-server.py "$server_shape" >"$fifo" 2>"$attempts" & server=$!
    read -r port <"$fifo"; rm -f "$fifo"
    extra=()
    case $shape in
        huge) extra=(--schema "$schema") ;;
        huge-uncapped) extra=(--schema "$schema" --max-tokens 1000000 --openai-context 2000000) ;;
        chars|mega) extra=(--max-tokens 8) ;;
    esac
    out=$(mktemp)
    /usr/bin/time -v "$bench" ask --openai-base-url "http://127.0.0.1:$port/v1" --openai-timeout 3 \
        --prompt "Why is the sky blue?" "${extra[@]}" >"$out.stdout" 2>"$out"
    kill "$server" 2>/dev/null; wait "$server" 2>/dev/null
    rss=$(awk -F: '/Maximum resident set size/ {print int($2 / 1024)}' "$out")
    wall=$(awk '/Elapsed \(wall clock\)/ {print $NF}' "$out")
    cpu=$(awk -F: '/User time|System time/ {sum += $2} END {printf "%.2f", sum}' "$out")
    pattern='\[openai-compatible failed ([^]]*\]\|\[[a-z0-9-]* · privacy[^]]*\]\|all providers failed.*'
    outcome=$(grep -o "$pattern" "$out" | tr '\n' ' ' | cut -c1-220)
    printf "%-15s %10s %8s %8s  %s (stdout %s bytes)\n" "$shape" "$rss" "$wall" "$cpu" "$outcome" "$(wc -c <"$out.stdout")"
    sed 's/^/                 server /' "$attempts"
    rm -f "$out" "$out.stdout" "$attempts"
done
rm -f "$schema"
