#!/usr/bin/env bash
# The project's tests: the Rust workspace, then the Python package (python/): a wheel built
# with maturin, installed into a throwaway virtual environment that sees the interpreter's own
# packages (numpy, pytest), and the pytest suite (python/tests) run against it.
# Needs: cargo; python3 (3.11+) with maturin, numpy and pytest (.ci/run pins them).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --workspace

PYTHON="${PYTHON:-python3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/nvsurf-py.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "== python: build the wheel (maturin, release)"
"$PYTHON" -m maturin build --release --manifest-path python/Cargo.toml --out "$work/wheels"

echo "== python: install it into a virtual environment"
"$PYTHON" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --no-deps --force-reinstall "$work"/wheels/nvsurf-*.whl

echo "== python: pytest"
# From the repository's root: python/nvsurf (the source, no native module) is not on the path.
"$work/venv/bin/python" -m pytest -q python/tests
