#!/usr/bin/env bash
# run.sh [BUILD_DIR] [-- idle.mjs options]: threads and resident memory of an idle, fresh
# `loupe serve` of the build in BUILD_DIR (default <repo>/build), next to peers measured in the
# same run (see idle.mjs). Options: --runs 3 --idle-seconds 3. LOUPE_IDLE_PEER_BIN and
# LOUPE_IDLE_PEER_PLUGIN_DIR add another build (e.g. the one before a change) as a peer.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/../loupe-build.sh" "$@"
exec node "$HERE/idle.mjs" "${REST[@]}"
