#!/usr/bin/env bash
# packaging/container/build-images.sh [OPTIONS] [IMAGE...]: OCI images of Loupe and of the
# services of the scale-out compose file, built from Debian 12 packages without pulling any base
# image. mmdebstrap installs the Essential set into a root file system once, each image installs
# its packages on a copy of it, and buildah turns the result into a one-layer image in the local
# container storage (podman and buildah see it; --save writes a file `docker load` reads too).
#
#   loupe     localhost/loupe:<version>      `loupe serve` from Loupe's own .deb (the default)
#   postgres  localhost/loupe-postgres:15    PostgreSQL 15, initialised from POSTGRES_* variables
#   s3        localhost/loupe-s3rver:4.0.4   s3rver (npm) on Debian's Node.js: an S3-protocol store
#   proxy     localhost/loupe-haproxy:2.6    HAProxy balancing the instances on GET /readyz
#   all       the four
#
# Options:
#   --deb FILE   Loupe's .deb (default: cpack run on the built tree of --build into a scratch folder)
#   --build DIR  the built tree (default: ./build)
#   --save DIR   also write each image as DIR/<name>-<tag>.tar (docker-archive format)
#   --cache DIR  downloaded Debian packages and the base root file system, kept between runs
#                (default: /var/cache/loupe-images)
#   --fresh      make the base root file system again even if the cache has a recent one
#
# Reproducible: SOURCE_DATE_EPOCH (default: the time of the newest commit) dates every file, the
# image and its history, so the same .deb, the same Debian package versions and the same epoch
# give the same image ID. LOUPE_IMAGE_SOURCES: the apt sources file mmdebstrap uses (default:
# this machine's Debian 12 sources). Needs root, mmdebstrap, buildah (and podman to run them).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
started=$(date +%s)
say() { echo "== $* ($(($(date +%s) - started)) s)"; }
fail() {
  echo "build-images: $*" >&2
  exit 1
}

deb="" build="$ROOT/build" save="" cache=/var/cache/loupe-images fresh=0 images=()
while [ $# -gt 0 ]; do
  case "$1" in
    --deb) deb=$(realpath "$2"); shift 2 ;;
    --build) build=$(realpath "$2"); shift 2 ;;
    --save) save=$(realpath -m "$2"); shift 2 ;;
    --cache) cache=$(realpath -m "$2"); shift 2 ;;
    --fresh) fresh=1; shift ;;
    loupe | postgres | s3 | proxy) images+=("$1"); shift ;;
    all) images+=(loupe postgres s3 proxy); shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) fail "unknown argument '$1' (--help lists them)" ;;
  esac
done
[ ${#images[@]} -gt 0 ] || images=(loupe)
[ "$(id -u)" = 0 ] || fail "run as root: mmdebstrap installs packages into a chroot, buildah writes the system's image store"
for tool in mmdebstrap mmtarfilter buildah node; do
  command -v "$tool" >/dev/null || fail "$tool is missing (scripts/install-deps.sh installs it)"
done

if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || echo 0)
fi
export SOURCE_DATE_EPOCH
created=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
revision=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)
sources=${LOUPE_IMAGE_SOURCES:-}
if [ -z "$sources" ]; then
  for candidate in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
    if [ -s "$candidate" ] && grep -q bookworm "$candidate"; then sources=$candidate; break; fi
  done
fi
# A sources file is pasted into the chroot as it is; without one, mmdebstrap uses Debian's
# default mirror and adds the updates and security suites itself.
mirrors=()
[ -n "$sources" ] && mirrors=("$sources")

# Packages in debs/, base root file systems beside it: only the packages go into a chroot.
mkdir -p "$cache/debs"
WORK=$(mktemp -d /var/tmp/loupe-images.XXXXXX)
container=""
cleanup() {
  [ -n "$container" ] && buildah rm "$container" >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT

# --- root file systems -------------------------------------------------------------------------

# What every mmdebstrap run shares: the dpkg filters, the package cache outside, dpkg without
# fsync while building (dropped again), and no host-specific files left in the result.
common=(
  --mode=root --format=tar
  --dpkgopt="$HERE/dpkg-excludes.cfg"
  --aptopt='Acquire::Languages "none"'
  --setup-hook='mkdir -p "$1/var/cache/apt/archives" "$1/etc/dpkg/dpkg.cfg.d"'
  --setup-hook="sync-in $cache/debs /var/cache/apt/archives/"
  --setup-hook='echo force-unsafe-io >"$1/etc/dpkg/dpkg.cfg.d/00-build-unsafe-io"'
  --customize-hook="sync-out /var/cache/apt/archives $cache/debs"
  --customize-hook='rm -f "$1/etc/dpkg/dpkg.cfg.d/00-build-unsafe-io" "$1/etc/resolv.conf" "$1/etc/hostname"'
)

# The Essential set with a merged /usr (usr-is-merged instead of the usrmerge script, which
# would bring perl). The package lists stay in it, so every image resolves its packages against
# the same lists (each image's own run removes them). Kept in the cache and reused for a day by
# later runs with the same inputs (--fresh makes it again): the Essential packages are then
# unpacked once, not once per image.
base_rootfs() {
  local key
  # The package lists stay, the downloaded packages do not (they are in the cache already): a
  # base that kept them would carry them into every image's chroot.
  local args=("${common[@]}" --variant=essential --skip=cleanup/apt
    --customize-hook='rm -f "$1"/var/cache/apt/archives/*.deb'
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr)
  # The inputs: the options (without this checkout's path), the epoch, the filters, the sources.
  key=$(printf '%s\n' "${args[@]//$HERE/}" "$SOURCE_DATE_EPOCH" |
    cat - "$HERE/dpkg-excludes.cfg" ${sources:+"$sources"} | sha256sum | cut -c1-16)
  base=$cache/base-$key.tar
  if [ "$fresh" = 0 ] && [ -n "$(find "$base" -mmin -1440 2>/dev/null)" ]; then
    say "base root file system: reusing $base"
    return
  fi
  say "base root file system (Debian 12, Essential packages)"
  find "$cache" -maxdepth 1 -name 'base-*.tar' -mmin +1440 -delete
  mmdebstrap "${args[@]}" bookworm "$WORK/base.tar" "${mirrors[@]}"
  mv "$WORK/base.tar" "$base"
}

# image_rootfs NAME HOOK...: the base plus what the customize hooks install, as $WORK/NAME.tar.
# A hook installs packages with `$install PACKAGE...` (apt outside, dpkg inside the chroot).
install='APT_CONFIG=$MMDEBSTRAP_APT_CONFIG apt-get --yes --no-install-recommends -oDPkg::Chroot-Directory="$1" install'
image_rootfs() {
  local name=$1
  shift
  local hooks=()
  for hook in "$@"; do hooks+=(--customize-hook="$hook"); done
  say "root file system of $name"
  mmdebstrap --variant=custom \
    --setup-hook="mmtarfilter '--path-exclude=/dev/*' <'$base' | tar -C \"\$1\" -x" \
    "${common[@]}" "${hooks[@]}" \
    bookworm "$WORK/$name.tar" "${mirrors[@]}"
}

# --- images ------------------------------------------------------------------------------------

# commit_image NAME TAG ROOTFS [buildah config options...]: one layer, dated SOURCE_DATE_EPOCH.
commit_image() {
  local name=$1 tag=$2 rootfs=$3
  shift 3
  say "image localhost/$name:$tag"
  # The runtime provides /dev: no device nodes in the layer.
  mmtarfilter '--path-exclude=/dev/*' <"$rootfs" >"$rootfs.layer"
  container=$(buildah from --quiet --format docker scratch)
  buildah add --quiet "$container" "$rootfs.layer" / >/dev/null
  rm -f "$rootfs" "$rootfs.layer"
  buildah config \
    --label org.opencontainers.image.created="$created" \
    --label org.opencontainers.image.revision="$revision" \
    --label org.opencontainers.image.vendor=Loupe \
    --env LANG=C.UTF-8 --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --created-by "packaging/container/build-images.sh $name" \
    "$@" "$container"
  buildah commit --quiet --format docker --timestamp "$SOURCE_DATE_EPOCH" --identity-label=false \
    --rm "$container" "localhost/$name:unnormalized" >/dev/null
  container=""
  # The configuration without the build's container ID and host name (normalize-config.mjs),
  # pulled back as the image: the same inputs give the same image ID.
  rm -rf "$WORK/$name.dir"
  buildah push --quiet "localhost/$name:unnormalized" "dir:$WORK/$name.dir" >/dev/null
  buildah rmi "localhost/$name:unnormalized" >/dev/null
  local id
  id=$(node "$HERE/normalize-config.mjs" "$WORK/$name.dir")
  buildah pull --quiet "dir:$WORK/$name.dir" >/dev/null
  rm -rf "$WORK/$name.dir"
  buildah tag "${id#sha256:}" "localhost/$name:$tag" "localhost/$name:latest"
  # sed reads its whole input: an early exit would kill buildah with SIGPIPE under pipefail.
  echo "localhost/$name:$tag $(buildah images --format '{{.ID}} {{.Size}}' --filter reference="localhost/$name:$tag" | sed -n 1p)"
  if [ -n "$save" ]; then
    mkdir -p "$save"
    rm -f "$save/$name-$tag.tar"
    buildah push --quiet "localhost/$name:$tag" "docker-archive:$save/$name-$tag.tar:localhost/$name:$tag" >/dev/null
    echo "saved $save/$name-$tag.tar"
  fi
}

loupe_deb() {
  if [ -n "$deb" ]; then
    [ -f "$deb" ] || fail "--deb $deb does not exist"
    return
  fi
  [ -f "$build/CPackConfig.cmake" ] || fail "no built tree in $build (scripts/build.sh), or pass --deb FILE"
  say "Loupe's .deb (cpack in $build)"
  (cd "$build" && cpack -G DEB -B "$WORK/packages" >"$WORK/cpack.log" 2>&1) ||
    { cat "$WORK/cpack.log" >&2; fail "cpack failed"; }
  deb=$(ls "$WORK"/packages/loupe_*.deb)
}

# The server as the `loupe` user (uid and gid 999, created before the package so its postinst
# keeps them), data in the volume /var/lib/loupe, configuration from LOUPE_* variables over the
# packaged /etc/loupe/loupe.properties.
build_loupe() {
  loupe_deb
  local version
  version=$(dpkg-deb -f "$deb" Version)
  version=${version%-*}
  # apt hands the path to dpkg inside the chroot: the same path on both sides.
  local inside=$WORK/deb/$(basename "$deb")
  mkdir -p "$WORK/deb"
  cp "$deb" "$inside"
  image_rootfs loupe \
    "$install passwd" \
    'chroot "$1" groupadd --system --gid 999 loupe' \
    'chroot "$1" useradd --system --uid 999 --gid 999 --home-dir /var/lib/loupe --no-create-home --shell /usr/sbin/nologin --comment "Loupe review server" loupe' \
    "mkdir -p \"\$1$WORK/deb\" && cp '$inside' \"\$1$inside\"" \
    "$install ca-certificates '$inside'" \
    "rm -rf \"\$1$WORK\"" \
    "upload '$HERE/loupe/loupe-healthcheck' /usr/local/bin/loupe-healthcheck" \
    'chmod 0755 "$1/usr/local/bin/loupe-healthcheck"' \
    'rm -rf "$1/etc/systemd" "$1/var/lib/systemd/deb-systemd-helper-enabled" "$1/var/lib/systemd/deb-systemd-helper-masked"'
  commit_image loupe "$version" "$WORK/loupe.tar" \
    --label org.opencontainers.image.title=Loupe \
    --label org.opencontainers.image.description="Self-hosted visual regression review server (Argos API)" \
    --label org.opencontainers.image.version="$version" \
    --user 999:999 --workingdir /var/lib/loupe --volume /var/lib/loupe --port 8080/tcp \
    --entrypoint '["/usr/bin/loupe", "--config", "/etc/loupe/loupe.properties"]' --cmd serve \
    --stop-signal SIGTERM \
    --healthcheck 'CMD /usr/local/bin/loupe-healthcheck' --healthcheck-interval 10s \
    --healthcheck-timeout 10s --healthcheck-start-period 20s --healthcheck-retries 3
}

# PostgreSQL 15 as the `postgres` user (999), its cluster in the volume /var/lib/postgresql/data.
# Without the JIT compiler: the LLVM libraries it loads are most of the package's size, and
# Loupe's short queries gain nothing from it (the server runs with jit=off). Without the locale
# sources either: clusters use C.UTF-8, which glibc has built in.
build_postgres() {
  image_rootfs postgres \
    "$install passwd" \
    'chroot "$1" groupadd --system --gid 999 postgres' \
    'chroot "$1" useradd --system --uid 999 --gid 999 --home-dir /var/lib/postgresql --no-create-home --shell /bin/bash --comment "PostgreSQL administrator" postgres' \
    'printf "%s\n" path-exclude=/usr/lib/x86_64-linux-gnu/libLLVM-* path-exclude=/usr/lib/x86_64-linux-gnu/libz3.so* path-exclude=/usr/lib/postgresql/*/lib/llvmjit* path-exclude=/usr/lib/postgresql/*/lib/bitcode/* path-exclude=/usr/share/i18n/* >"$1/etc/dpkg/dpkg.cfg.d/10-postgres-slim"' \
    "$install postgresql-common" \
    'sed -i "s/^#\?\s*create_main_cluster.*/create_main_cluster = false/" "$1/etc/postgresql-common/createcluster.conf"' \
    "$install postgresql-15" \
    'mkdir -p "$1/var/lib/postgresql/data"' \
    'chroot "$1" chown postgres:postgres /var/lib/postgresql /var/lib/postgresql/data' \
    'chmod 0700 "$1/var/lib/postgresql/data"' \
    "upload '$HERE/postgres/loupe-postgres' /usr/local/bin/loupe-postgres" \
    'chmod 0755 "$1/usr/local/bin/loupe-postgres"'
  commit_image loupe-postgres 15 "$WORK/postgres.tar" \
    --label org.opencontainers.image.title="PostgreSQL 15 (Debian 12) for Loupe" \
    --user 999:999 --volume /var/lib/postgresql/data --port 5432/tcp \
    --env PGDATA=/var/lib/postgresql/data \
    --entrypoint '["/usr/local/bin/loupe-postgres"]' --stop-signal SIGINT \
    --healthcheck 'CMD /usr/lib/postgresql/15/bin/pg_isready -h /tmp -q' \
    --healthcheck-interval 5s --healthcheck-timeout 10s --healthcheck-retries 5
}

# s3rver and its npm dependencies, exactly as packaging/container/s3/package-lock.json pins
# them, on Debian's Node.js, as the `s3rver` user (999), objects in the volume /var/lib/s3rver.
build_s3() {
  say "s3rver's npm packages (npm ci)"
  mkdir -p "$WORK/s3rver"
  cp "$HERE/s3/package.json" "$HERE/s3/package-lock.json" "$HERE/s3/s3rver-server.mjs" "$WORK/s3rver/"
  (cd "$WORK/s3rver" && npm ci --omit=dev --no-audit --no-fund --loglevel=error --engine-strict=false >/dev/null)
  local version
  version=$(node -p 'require(process.argv[1]).version' "$WORK/s3rver/node_modules/@20minutes/s3rver/package.json")
  image_rootfs s3 \
    "$install passwd" \
    'chroot "$1" groupadd --system --gid 999 s3rver' \
    'chroot "$1" useradd --system --uid 999 --gid 999 --home-dir /var/lib/s3rver --no-create-home --shell /usr/sbin/nologin s3rver' \
    "$install nodejs" \
    "mkdir -p \"\$1/opt\" && cp -r '$WORK/s3rver' \"\$1/opt/s3rver\"" \
    'chroot "$1" chown -R root:root /opt/s3rver' \
    'mkdir -p "$1/var/lib/s3rver" && chroot "$1" chown s3rver:s3rver /var/lib/s3rver'
  commit_image loupe-s3rver "$version" "$WORK/s3.tar" \
    --label org.opencontainers.image.title="s3rver $version on Node.js (Debian 12)" \
    --user 999:999 --volume /var/lib/s3rver --port 9000/tcp --workingdir /opt/s3rver \
    --entrypoint '["/usr/bin/node", "/opt/s3rver/s3rver-server.mjs"]' \
    --healthcheck 'CMD bash -c "exec 3<>/dev/tcp/127.0.0.1/${S3RVER_PORT:-9000}"' \
    --healthcheck-interval 5s --healthcheck-timeout 10s --healthcheck-retries 5
}

# HAProxy with packaging/container/proxy/haproxy.cfg, as the `haproxy` user the package makes.
build_proxy() {
  image_rootfs proxy \
    "$install passwd" \
    'chroot "$1" groupadd --system --gid 999 haproxy' \
    'chroot "$1" useradd --system --uid 999 --gid 999 --home-dir /var/lib/haproxy --no-create-home --shell /usr/sbin/nologin haproxy' \
    "$install haproxy" \
    "upload '$HERE/proxy/haproxy.cfg' /etc/haproxy/haproxy.cfg" \
    'chmod 0644 "$1/etc/haproxy/haproxy.cfg"'
  local version
  version=$(tar -xOf "$WORK/proxy.tar" ./var/lib/dpkg/status |
    awk '/^Package: haproxy$/{found=1} found && !done && /^Version:/{print $2; done=1}')
  version=$(sed -E 's/^[0-9]+://; s/^([0-9]+\.[0-9]+).*/\1/' <<<"$version")
  commit_image loupe-haproxy "$version" "$WORK/proxy.tar" \
    --label org.opencontainers.image.title="HAProxy $version (Debian 12) in front of Loupe" \
    --user 999:999 --port 8080/tcp \
    --entrypoint '["/usr/sbin/haproxy", "-W", "-db", "-f", "/etc/haproxy/haproxy.cfg"]' \
    --stop-signal SIGUSR1
}

base_rootfs
for image in "${images[@]}"; do
  "build_$image"
done
say "done"
