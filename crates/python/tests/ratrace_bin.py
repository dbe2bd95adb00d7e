"""Where the tests find the `ratrace` command-line binary: RATRACE_BIN, or
the debug (then release) build in CARGO_TARGET_DIR or the repository's
target/ (the project's test command builds it before the Python tests)."""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def ratrace_bin():
    env = os.environ.get("RATRACE_BIN")
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for path in [env, target / "debug" / "ratrace", target / "release" / "ratrace"]:
        if path and os.access(path, os.X_OK):
            return str(path)
    pytest.fail("no ratrace binary: build it with `cargo build -p cli` or set RATRACE_BIN")
