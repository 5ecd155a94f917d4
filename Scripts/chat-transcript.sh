#!/usr/bin/env bash
# Drives `switchboard chat` in a real terminal (tmux: send keys, capture the pane) and checks what a person
# would see: a streamed answer with its provider and privacy level, /system, /reset, a sensitive turn kept on
# device. Writes the captured screen to Docs/chat-transcript.txt (or $1). Needs tmux (apt-get install tmux) and
# the models (Scripts/fetch-model.sh). Exits non-zero when an expected line is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-Docs/chat-transcript.txt}
command -v tmux >/dev/null || { echo "chat-transcript: tmux is missing (apt-get install tmux)" >&2; exit 1; }
bash Scripts/fetch-model.sh smollm2 >/dev/null
flags=(-c release)
if [ "$(uname -m)" = "x86_64" ]; then flags+=(-Xswiftc -target-cpu -Xswiftc native); fi
scratch=${SCRATCH:-.build-bench}
swift build "${flags[@]}" --scratch-path "$scratch" --product switchboard >&2
bin=$(swift build "${flags[@]}" --scratch-path "$scratch" --show-bin-path)/switchboard

session=sb-chat-$$
tmux kill-session -t "$session" 2>/dev/null || true
tmux new-session -d -s "$session" -x 120 -y 40 "$bin chat --max-tokens 40 --system 'You are a helpful assistant. Answer briefly.'"
trap 'tmux kill-session -t "$session" 2>/dev/null || true' EXIT
wait_for() {  # text, seconds
  for _ in $(seq 1 $(( $2 * 10 ))); do
    if tmux capture-pane -p -t "$session" | grep -qF -- "$1"; then return 0; fi
    sleep 0.1
  done
  echo "chat-transcript: never saw '$1'" >&2; tmux capture-pane -p -t "$session" >&2; return 1
}
turns() { tmux capture-pane -p -t "$session" | grep -c 'tokens' || true; }
ask() {  # text, then wait for one more answer line
  local before; before=$(turns)
  tmux send-keys -t "$session" -l "$1"; tmux send-keys -t "$session" Enter
  for _ in $(seq 1 600); do [ "$(turns)" -gt "$before" ] && return 0; sleep 0.1; done
  echo "chat-transcript: no answer to '$1'" >&2; tmux capture-pane -p -t "$session" >&2; return 1
}
wait_for "switchboard chat with local-smollm2-135m-instruct" 120
ask "What is the capital of France?"
wait_for "[local-smollm2-135m-instruct · public ·" 5
ask "And what is its population?"
tmux send-keys -t "$session" -l "/system Answer in one word."; tmux send-keys -t "$session" Enter
wait_for "(instructions set)" 5
ask "My SSN is 123-45-6789, is that a valid format?"
wait_for "[local-smollm2-135m-instruct · sensitive ·" 5
tmux send-keys -t "$session" -l "/reset"; tmux send-keys -t "$session" Enter
wait_for "(conversation forgotten)" 5
tmux capture-pane -p -S - -t "$session" | sed -e 's/[[:space:]]*$//' | cat -s > "$out"
tmux send-keys -t "$session" -l "/quit"; tmux send-keys -t "$session" Enter
for _ in $(seq 1 50); do tmux has-session -t "$session" 2>/dev/null || break; sleep 0.1; done
! tmux has-session -t "$session" 2>/dev/null || { echo "chat-transcript: /quit did not end the chat" >&2; exit 1; }
echo "chat-transcript: every expected line seen; screen saved to $out" >&2
