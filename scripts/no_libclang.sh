#!/usr/bin/env bash
# The build check of issue #37: the default features of every workspace (the root, python/,
# fuzz/) build with the Rust toolchain and a C/C++ compiler alone. No crate that needs libclang
# or LLVM at build time (bindgen, clang-sys) may be in their dependency trees, build, normal
# and dev dependencies alike. Opt-in features (nvsurf-cli's `astcenc`) are not checked.
# Exit 1 names the crate and the path that pulls it in.
set -euo pipefail
cd "$(dirname "$0")/.."

banned='^(bindgen|clang-sys|llvm-sys|cmake) '
status=0
for manifest in Cargo.toml python/Cargo.toml fuzz/Cargo.toml; do
  tree="$(cargo tree --locked --manifest-path "$manifest" --workspace -e build,normal,dev --prefix none)"
  hits="$(printf '%s\n' "$tree" | grep -E "$banned" | sort -u || true)"
  if [ -n "$hits" ]; then
    echo "error: $manifest: the default build needs a libclang/LLVM tool: $(echo $hits)" >&2
    for crate in $(printf '%s\n' "$hits" | awk '{print $1}'); do
      cargo tree --locked --manifest-path "$manifest" --workspace -e build,normal,dev -i "$crate" >&2 || true
    done
    status=1
  else
    echo "$manifest: no bindgen, clang-sys, llvm-sys or cmake in the default build"
  fi
done
# The check must be able to fail: the opt-in `astcenc` feature does pull bindgen in.
if ! cargo tree --locked -p nvsurf-cli --features astcenc -e build,normal --prefix none | grep -qE "$banned"; then
  echo "error: scripts/no_libclang.sh: the check is blind (nvsurf-cli --features astcenc shows no bindgen)" >&2
  status=1
fi
exit $status
