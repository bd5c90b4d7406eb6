#!/usr/bin/env bash
# install-deps.sh: the Debian 12 packages Loupe needs to build, run and test. Idempotent. Run it
# as root (a fresh container or VM, where there is often no sudo) or as a user: it then runs
# apt-get through sudo, and only when a package is missing.
set -euo pipefail
packages=(
  build-essential cmake ninja-build ccache pkg-config git
  libcivetweb-dev libsoci-dev libboost-dev libsqlite3-dev libpq-dev libpoco-dev nlohmann-json3-dev
  libspng-dev libdeflate-dev libturbojpeg0-dev doctest-dev libcmark-dev libicu-dev liblasso3-dev
  postgresql sqlite3 clang libclang-rt-14-dev clang-format clang-tidy
  chromium fonts-dejavu-core fonts-liberation2 curl
  firefox-esr webkit2gtk-driver xvfb xauth
  ca-certificates openssl libssl-dev
  adduser systemd lintian
  # The container images (packaging/container) and their tests: runc, not crun, which refuses
  # the hybrid cgroup hierarchy of some virtual machines; docker-compose drives podman's API.
  podman runc buildah mmdebstrap containernetworking-plugins docker-compose
)
# Node.js and npm: Debian's, unless the machine already has a node with its own npm (a
# NodeSource node bundles npm and conflicts with Debian's npm package).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ -n "$SUDO" ] && ! command -v sudo >/dev/null; then
    echo "install-deps.sh: missing packages (${missing[*]}); run this script as root, or install sudo" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
