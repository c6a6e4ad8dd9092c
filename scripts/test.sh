#!/usr/bin/env bash
# The project's tests, the README's test command: every test there is, with nothing installed
# by hand first. A machine needs the Rust toolchain (cargo), a C/C++ compiler (gcc/g++) and
# CPython 3.11+ with pip; this script installs the rest itself and says what it installs:
#   1. the build check: no default build of any workspace needs libclang (scripts/no_libclang.sh);
#   2. the Rust workspace (`cargo test --workspace`), the C library's tests included (they
#      compile C and C++ programs with the system cc/c++ under AddressSanitizer);
#   3. the Python package (python/): a virtual environment of its own (target/py-venv) with
#      pinned maturin, pytest and numpy from pip, the wheel built with maturin and installed
#      there, and the pytest suite (python/tests) run against it; its cross-face test also runs
#      the CLI and the C library built by step 2 (NVSURF_CLI, NVSURF_CLIB).
# A second run reuses the virtual environment when its pins are unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."

# The Python tools, pinned (the only packages this script installs with pip).
PINS=("maturin==1.13.1" "pytest==8.4.2" "numpy==2.3.5")
PYTHON="${PYTHON:-python3}"

say() { echo "== $*"; }

# --- C and C++ compilers: the C library's tests need cc and c++ (gcc's libasan with them).
if ! command -v cc >/dev/null 2>&1 || ! command -v c++ >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    say "installing gcc and g++ with apt-get (cc or c++ is missing; the C library's tests need both)"
    apt-get update -qq && apt-get install -y -qq gcc g++ >/dev/null
  else
    echo "error: cc and c++ are needed (gcc/g++); install them, e.g. 'apt-get install gcc g++'" >&2
    exit 2
  fi
fi

say "build check: no default build needs libclang (bindgen, clang-sys)"
bash scripts/no_libclang.sh

say "rust: cargo test --workspace"
cargo test --workspace

# --- The Python tools: a virtual environment of our own, made once and reused.
venv="target/py-venv"
stamp="$venv/nvsurf-pins.txt"
want="$(printf '%s\n' "$("$PYTHON" -c 'import sys; print(sys.version)')" "${PINS[@]}")"
if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  say "python: reusing $venv (${PINS[*]})"
else
  rm -rf "$venv"
  mkdir -p target
  say "python: creating the virtual environment $venv"
  if ! "$PYTHON" -m venv "$venv" 2>/dev/null; then
    # Debian's python3 without python3-venv has no ensurepip: virtualenv from pip instead.
    rm -rf "$venv"
    say "python: 'venv' lacks ensurepip; installing virtualenv with 'pip install --user virtualenv'"
    "$PYTHON" -m pip install --quiet --disable-pip-version-check --user virtualenv \
      || "$PYTHON" -m pip install --quiet --disable-pip-version-check --user --break-system-packages virtualenv
    "$PYTHON" -m virtualenv --quiet "$venv"
  fi
  say "python: installing with pip into $venv: ${PINS[*]}"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${PINS[@]}"
  printf '%s\n' "$want" > "$stamp"
fi
VPY="$venv/bin/python"

work="$(mktemp -d "${TMPDIR:-/tmp}/nvsurf-py.XXXXXX")"
trap 'rm -rf "$work"' EXIT

say "python: build the wheel (maturin, release)"
"$VPY" -m maturin build --release --manifest-path python/Cargo.toml --out "$work/wheels"

say "python: install the wheel into $venv"
"$VPY" -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "$work"/wheels/nvsurf-*.whl

say "python: pytest"
# The cross-face test (python/tests/test_cross_face.py) and the guess record test
# (test_guess_record.py) run the CLI and load the C library that `cargo test --workspace` built
# above, and fail without them.
export NVSURF_CLI="$PWD/target/debug/nvsurf"
export NVSURF_CLIB="$PWD/target/debug/libnvsurf.so"
# From the repository's root: python/nvsurf (the source, no native module) is not on the path.
"$VPY" -m pytest -q python/tests
