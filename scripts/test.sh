#!/usr/bin/env bash
# The project's one test command (README, .ci/run): format, lints, every
# test (unit, property, scenario, CLI), the doc build, the proof that the
# rules crates stay free of async runtimes, the example bots' conformance
# (bot-check), the web client's unit tests and the browser end-to-end
# tests.
set -euo pipefail
cd "$(dirname "$0")/.."
# One build of a checkout: incremental state (tens of GB for this
# workspace's debug builds) would only fill the disk. A developer's own
# CARGO_INCREMENTAL is kept.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

# OpenSSL's headers, which webauthn-rs (passkeys) links through openssl-sys
if ! pkg-config --exists openssl 2>/dev/null; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y libssl-dev pkg-config
fi

echo "== fmt"
cargo fmt --all --check
echo "== shape: files within 800 lines, functions within 100, errors typed"
python3 scripts/check-shape.py
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
echo "== tests (with a throwaway PostgreSQL for the PostgreSQL store backend)"
pg_dir=$(mktemp -d /tmp/ratrace-pg.XXXXXX)
stop_pg() {
  bash scripts/pg.sh stop "$pg_dir" || true
  rm -rf "$pg_dir"
}
trap stop_pg EXIT
RATRACE_TEST_PG=$(bash scripts/pg.sh start "$pg_dir" | tail -n 1)
export RATRACE_TEST_PG
# Without a server the PostgreSQL tests would skip; here they must run.
export RATRACE_REQUIRE_PG=1
cargo test --workspace --locked
echo "== the server's integration tests again, each server on a PostgreSQL database"
RATRACE_IT_BACKEND=postgres cargo test -p server --test tests --locked
echo "== example bots: their own tests, then \`ratrace bot-check\` passes each (docs/bot-protocol.md)"
cargo build --locked -q -p cli -p example-bot
bin="${CARGO_TARGET_DIR:-target}/debug"
# (test_examples.py also plays the Rust bot, found in $CARGO_TARGET_DIR/debug or target/debug)
python3 -m unittest examples/bots/test_examples.py
for bot in "python3 examples/bots/random_bot.py" "python3 examples/bots/rule_bot.py" "$bin/example-bot"; do
  if report=$("$bin/ratrace" bot-check "$bot" --games 1 --quiet); then
    echo "$bot: $(grep '^total:' <<<"$report")"
  else
    echo "$report"
    echo "error: \`ratrace bot-check $bot\` failed: the example bot does not conform" >&2
    exit 1
  fi
done
echo "== the README's \`cargo run -- ...\` finds exactly one binary"
cargo run --locked -q -- --version
echo "== Python package: the wheel in a virtual environment, pytest with the frameworks' own checks"
bash scripts/python-test.sh
echo "== browser end-to-end tests (e2e/: playwright-core + Debian chromium, node --test)"
# what they need on a fresh machine (CI runs this as root): chromium from
# apt, the locked npm packages, and the debug server binary
if [ ! -x /usr/bin/chromium ]; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi
if ! command -v npm >/dev/null; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm
fi
npm ci --prefix e2e --no-audit --no-fund
cargo build -p cli --locked
echo "== documents: no file points outside the repository; README and ARCHITECTURE agree with cargo metadata and \`ratrace options\`"
bash scripts/check-docs.sh target/debug/ratrace
echo "== the web client's unit tests (crates/server/tests/web/: the patch, the morph, the events in words, the table's state; node, no browser)"
node --test --test-reporter=spec crates/server/tests/web/
echo "== browser end-to-end tests"
RATRACE_BIN=target/debug/ratrace node --test --test-reporter=spec e2e/
echo "== the screenshot script (docs/screenshots/ is made by it) still runs, into a temporary folder"
shots=$(mktemp -d /tmp/ratrace-shots.XXXXXX)
RATRACE_BIN=target/debug/ratrace node e2e/screenshots.mjs "$shots" >/dev/null
ls "$shots"/*.png | wc -l | xargs -I{} echo "{} screenshots"
rm -rf "$shots"
echo "== the browser engine's bench runs (node e2e/bench-engine.mjs; --quick: once, a check, not a measurement)"
RATRACE_BIN=target/debug/ratrace node e2e/bench-engine.mjs --quick
# The PostgreSQL server (the browser cluster test used it too) stops here,
# or on any failure through the EXIT trap.
stop_pg
trap - EXIT
