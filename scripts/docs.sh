#!/usr/bin/env bash
# Builds the DocC documentation of every library target, and fails on any DocC warning
# (a broken symbol link, an ambiguous one). Extra arguments go to the plugin, such as
# --output-path DIR or --transform-for-static-hosting.
#
# `swift package generate-documentation` without --target also documents the package's
# dependencies and its C reference target (chipmunk-reference), which DocC cannot read,
# so it fails; the library targets are named here instead. DocsScriptTests checks that
# this list is every library target in Package.swift.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(Chipmunk ChipmunkScenes ChipmunkAnimation ChipmunkDynamics ChipmunkBatch ChipmunkPictures ChipmunkCatalog ChipmunkLive)
args=()
for target in "${targets[@]}"; do args+=(--target "$target"); done
echo "Building the documentation of ${targets[*]} (DocC warnings are errors) ..."
# SwiftPM itself has crashed here (a segmentation fault in libdispatch, exit 139, in the
# plugin host, before DocC reported anything; once in CI, on a commit whose documentation
# built cleanly before and after): a crash of the toolchain is not a finding about the
# documentation, so a run killed by a signal is tried again, three runs at most. A DocC
# warning or error exits with 1 and fails at once.
status=0
for attempt in 1 2 3; do
    status=0
    swift package generate-documentation "${args[@]}" --warnings-as-errors "$@" || status=$?
    ((status > 128)) || break
    echo "docs.sh: swift package was killed by signal $((status - 128)) (exit $status) on run $attempt of 3" >&2
done
exit "$status"
