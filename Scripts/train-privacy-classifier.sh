#!/usr/bin/env bash
# Trains the on-device privacy classifier's head: embeds Benchmarks/Data/privacy-train.tsv with all-MiniLM-L6-v2,
# fits a logistic regression on four fifths of it, prints the held-out fifth's figures and what the classifier adds
# to the recognizers on the test corpora (measured only, never trained on), and writes
# Sources/SwitchboardLocal/Privacy/PrivacyHead+Trained.swift.
set -euo pipefail
cd "$(dirname "$0")/.."
models=$(bash Scripts/fetch-model.sh all)
flags=(-c release)
if [ "$(uname -m)" = "x86_64" ]; then flags+=(-Xswiftc -target-cpu -Xswiftc native); fi
swift build "${flags[@]}" --product switchboard-bench --scratch-path .build-release >&2
eval_files=$(ls Tests/Fixtures/privacy/*.txt | paste -sd, -)
.build-release/release/switchboard-bench privacy-train --model "$(sed -n 3p <<<"$models")" \
  --data Benchmarks/Data/privacy-train.tsv --eval "$eval_files" --out Sources/SwitchboardLocal/Privacy/PrivacyHead+Trained.swift
