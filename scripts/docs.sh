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
source scripts/lib.sh
targets=(Chipmunk ChipmunkScenes ChipmunkAnimation ChipmunkDynamics ChipmunkBatch ChipmunkPictures ChipmunkCatalog ChipmunkLive)
args=()
for target in "${targets[@]}"; do args+=(--target "$target"); done
echo "Building the documentation of ${targets[*]} (DocC warnings are errors) ..."
# swiftpm (lib.sh) runs it again if SwiftPM itself is killed by a signal, as it has been
# here once in CI; a DocC warning or error exits with 1 and fails at once.
swiftpm package generate-documentation "${args[@]}" --warnings-as-errors "$@"
