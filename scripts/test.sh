#!/usr/bin/env bash
# The project's one test command (README, .ci/run): format, lints, every
# test (unit, property, scenario, CLI), the doc build, and the proof that the
# rules crates stay free of async runtimes.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== fmt"
cargo fmt --all --check
echo "== clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== rules crates pull in no tokio / async runtime"
for crate in game bigcheese dalmuti; do
  if cargo tree --locked -p "$crate" -e normal,build --prefix none | grep -Eq '^(tokio|async-std|smol) '; then
    echo "error: $crate depends on an async runtime" >&2
    exit 1
  fi
done
echo "== doc"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet
echo "== tests"
cargo test --workspace --locked
