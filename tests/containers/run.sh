#!/usr/bin/env bash
# tests/containers/run.sh [BUILD_DIR]: the OCI images and the compose file as an operator uses
# them, from an already built tree:
#   1. packaging/container/build-images.sh all: Loupe's image from the tree's .deb (cpack) and the
#      PostgreSQL, s3rver and HAProxy images, all from Debian packages (timed, sizes printed);
#   2. image.test.mjs: `podman run` of the Loupe image, the Argos CLI's builds, a restart on the
#      same volume;
#   3. compose.test.mjs: packaging/compose/compose.yaml started by docker-compose through podman's
#      API, a build uploaded through one instance and diffed by the other.
# podman runs with tests/containers/containers.conf (runc, no default ulimits). Needs root,
# podman, buildah, mmdebstrap, docker-compose and `npm ci` in tests/e2e; skips (exit 77)
# otherwise, and on a sanitized build. LOUPE_CONTAINERS_REUSE_IMAGES=1 skips step 1 when the
# images exist (while working on the tests).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
started=$(date +%s)
step() { echo "== $1 ($(($(date +%s) - started)) s)"; }
skip() {
  echo "SKIP: $*"
  exit 77
}

[ "$(id -u)" = 0 ] || skip "needs root (mmdebstrap, buildah and podman's system storage)"
for tool in podman buildah mmdebstrap docker-compose node; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (scripts/install-deps.sh)"
done
[ -d "$ROOT/tests/e2e/node_modules" ] || skip "npm ci in tests/e2e first (the Argos CLIs)"
grep -q '^LOUPE_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" &&
  skip "$BUILD is a sanitized build; the image is made from a normal one"
export CONTAINERS_CONF=$ROOT/tests/containers/containers.conf

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD/CMakeCache.txt")
export LOUPE_IMAGE=localhost/loupe:$version
images=(localhost/loupe:"$version" localhost/loupe-postgres:15 localhost/loupe-s3rver:4.0.4 localhost/loupe-haproxy:2.6)
have_all=1
for image in "${images[@]}"; do podman image exists "$image" || have_all=0; done
if [ "${LOUPE_CONTAINERS_REUSE_IMAGES:-0}" = 1 ] && [ "$have_all" = 1 ]; then
  step "images: reusing ${images[*]}"
else
  step "images (packaging/container/build-images.sh all)"
  build_started=$(date +%s)
  bash "$ROOT/packaging/container/build-images.sh" --build "$BUILD" all
  echo "images built in $(($(date +%s) - build_started)) s"
fi
for image in "${images[@]}"; do
  podman image inspect --format "{{.Id}} {{.Size}}" "$image" |
    awk -v image="$image" '{printf "%-34s %s %.1f MB\n", image, substr($1, 1, 12), $2 / 1e6}'
done

step "image and compose tests"
cd "$ROOT/tests/containers"
node --test --test-reporter=spec --test-concurrency=1 image.test.mjs compose.test.mjs
step "done"
