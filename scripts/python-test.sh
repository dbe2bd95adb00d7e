#!/usr/bin/env bash
# The Python package's tests (called by scripts/test.sh): builds the abi3
# wheel with maturin, installs it into a virtual environment with the
# pinned test requirements (pytest, PettingZoo, Gymnasium, OpenSpiel), and
# runs pytest, which includes each framework's own checks.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=$(realpath -m "${RATRACE_VENV:-target/python-venv}")
if [ ! -x "$venv/bin/python" ]; then
  if ! python3 -m venv "$venv" 2>/dev/null; then
    # Debian ships venv separately
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv
    python3 -m venv "$venv"
  fi
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  -r crates/python/requirements-test.txt
rm -rf target/wheels
"$venv/bin/maturin" build --release --locked --quiet -m crates/python/Cargo.toml -o target/wheels
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps \
  target/wheels/ratrace-*.whl
# run from the tests' folder so `import ratrace` is the installed wheel
cd crates/python/tests
"$venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
