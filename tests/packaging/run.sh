#!/usr/bin/env bash
# tests/packaging/run.sh [BUILD_DIR]: the Debian packages as a self-hoster and a plugin author
# use them, from an already built tree (no second build):
#   1. cpack writes loupe and loupe-dev; lintian checks them (in the background);
#   2. dpkg -i installs both; `loupe version` from /usr/bin; systemd-analyze verify on the unit;
#      the installed loupe finds its plugins and /etc/loupe/loupe.properties without flags (it
#      migrates the database in /var/lib/loupe);
#   3. examples/plugin-hello is built out of tree (a fresh folder) against the installed SDK,
#      and the installed server, run as the loupe user with the packaged configuration (data in
#      /var/lib/loupe) and the example enabled, serves its routes, job and build greeting;
#      the example's own ctest runs too;
#   4. mismatched builds are refused: find_package(Loupe) of the next minor version at
#      configure time, and by the loader a plugin built with another compiler (clang) and one
#      built against the SDK of another version;
#   5. dpkg --purge removes everything of theirs outside /var/lib/loupe.
# Needs root or password-less sudo, and a machine where loupe is not installed already;
# otherwise it skips (exit 77). LOUPE_PACKAGING_LINTIAN=0 leaves lintian out.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
started=$(date +%s)
step() { echo "== $1 ($(($(date +%s) - started)) s)"; }
skip() {
  echo "SKIP: $*"
  exit 77
}
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

command -v dpkg >/dev/null && command -v cpack >/dev/null || skip "needs dpkg and cpack (Debian)"
if [ "$(id -u)" = 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  SUDO=(sudo -n)
else
  skip "installing packages needs root or password-less sudo"
fi
grep -q '^LOUPE_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" &&
  skip "$BUILD is a sanitized build; the packages are made from a normal one"
for package in loupe loupe-dev; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  if [ -n "$status" ] && ! grep -q 'not-installed' <<<"$status"; then
    skip "package $package is already on this machine (dpkg-query -W $package); not touching it"
  fi
done
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD/CMakeCache.txt")
build_id=$(sed -n 's/^#define LOUPE_BUILD_ID "\(.*\)"$/\1/p' "$BUILD/generated/include/loupe/version.hpp")
[ -n "$version" ] && [ -n "$build_id" ] || fail "no version or build id in $BUILD"

WORK=$(mktemp -d /tmp/loupe-packaging.XXXXXX)
chmod 755 "$WORK"  # the loupe user reads the example plugin from here
user_existed=0
getent passwd loupe >/dev/null && user_existed=1
data_existed=0
[ -e /var/lib/loupe ] && data_existed=1
# What a package may leave behind: its own files (their paths, from the .deb listings, are
# checked after the purge) and the maintainer scripts' traces, which name loupe, in these folders.
trace_dirs=(/etc /lib/systemd /var/lib/systemd /var/lib/dpkg/info)
traces() {
  { find "${trace_dirs[@]}" -xdev -iname '*loupe*' 2>/dev/null || true; } | sort
}
traces >"$WORK/traces-before"
installed=0
cleanup() {
  local status=$?
  if [ "$installed" = 1 ]; then
    "${SUDO[@]}" dpkg --purge loupe-dev loupe >/dev/null 2>&1 || true
  fi
  # The package keeps the loupe user and its data on purge, as Debian packages do; what this
  # test created goes, so the machine is left as it was.
  if [ "$user_existed" = 0 ] && getent passwd loupe >/dev/null; then
    "${SUDO[@]}" userdel loupe 2>/dev/null || true
    getent group loupe >/dev/null && "${SUDO[@]}" groupdel loupe 2>/dev/null || true
  fi
  [ "$data_existed" = 0 ] && "${SUDO[@]}" rm -rf /var/lib/loupe
  for pid in ${lintian_pid:-} ${clang_pid:-} ${next_pid:-}; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  "${SUDO[@]}" rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT

step "packages (cpack, from $BUILD)"
(cd "$BUILD" && cpack -G DEB -B "$WORK/packages" >"$WORK/cpack.log" 2>&1) ||
  { cat "$WORK/cpack.log"; fail "cpack failed"; }
arch=$(dpkg --print-architecture)
server_deb="$WORK/packages/loupe_${version}-1_${arch}.deb"
dev_deb="$WORK/packages/loupe-dev_${version}-1_${arch}.deb"
[ -f "$server_deb" ] && [ -f "$dev_deb" ] || fail "cpack wrote no $server_deb and $dev_deb"
grep -q 'libpocofoundation' <<<"$(dpkg-deb -f "$server_deb" Depends)" ||
  fail "Depends of loupe lacks the shared libraries (dpkg-shlibdeps): $(dpkg-deb -f "$server_deb" Depends)"
grep -qF "loupe (= ${version}-1)" <<<"$(dpkg-deb -f "$dev_deb" Depends)" ||
  fail "loupe-dev does not depend on loupe (= ${version}-1)"
# Every path the packages hold, and which of them existed before (shared folders).
for deb in "$server_deb" "$dev_deb"; do
  dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|; s|/$||; /^$/d'
done | sort -u >"$WORK/package-paths"
while read -r path; do [ -e "$path" ] && echo "$path"; done <"$WORK/package-paths" >"$WORK/existing-before" || true
if [ "${LOUPE_PACKAGING_LINTIAN:-1}" = 1 ] && command -v lintian >/dev/null; then
  lintian --fail-on error,warning "$server_deb" "$dev_deb" >"$WORK/lintian.log" 2>&1 &
  lintian_pid=$!
fi

step "install (dpkg -i)"
installed=1
"${SUDO[@]}" dpkg -i "$server_deb" "$dev_deb" >"$WORK/dpkg.log" 2>&1 ||
  { cat "$WORK/dpkg.log"; fail "dpkg -i failed"; }
getent passwd loupe >/dev/null || fail "postinst created no loupe user"
[ "$(stat -c '%U %a' /var/lib/loupe)" = "loupe 750" ] ||
  fail "/var/lib/loupe is $(stat -c '%U %a' /var/lib/loupe), not loupe 750"
[ "$(stat -c '%U:%G %a' /etc/loupe/loupe.properties)" = "root:loupe 640" ] ||
  fail "/etc/loupe/loupe.properties is $(stat -c '%U:%G %a' /etc/loupe/loupe.properties)"
grep -qx 'data.dir = /var/lib/loupe' /etc/loupe/loupe.properties ||
  fail "the packaged configuration does not keep its data in /var/lib/loupe"

expected="loupe $version
plugin API $(sed -n 's/^#define LOUPE_PLUGIN_API_VERSION \([0-9]*\)u$/\1/p' /usr/include/loupe/version.hpp)
build id $build_id"
actual=$(cd / && /usr/bin/loupe version)
[ "$actual" = "$expected" ] || fail "/usr/bin/loupe version printed:
$actual
expected:
$expected"
echo "$actual"

man_option=()
command -v man >/dev/null || man_option=(--man=no)
verify=$(systemd-analyze verify "${man_option[@]}" /lib/systemd/system/loupe.service 2>&1) ||
  fail "systemd-analyze verify: $verify"
[ -z "$verify" ] || fail "systemd-analyze verify warned: $verify"

# No flags: the plugins beside the executable, the configuration in /etc/loupe (its data.dir
# is the only place the loupe user may create the database in: without the file, ./data under /).
plugins=$(cd / && "${SUDO[@]}" runuser -u loupe -- /usr/bin/loupe plugins 2>/dev/null)
grep -qx "auth $version /usr/lib/loupe/plugins/auth.so" <<<"$plugins" ||
  fail "the installed loupe did not find its plugins: $plugins"
grep -qx "web $version /usr/lib/loupe/plugins/web.so" <<<"$plugins" ||
  fail "the installed loupe does not load the whole product: $plugins"
migrated=$(cd / && "${SUDO[@]}" runuser -u loupe -- /usr/bin/loupe migrate 2>&1) ||
  fail "the installed loupe did not read /etc/loupe/loupe.properties (migrate): $migrated"
[ -f /var/lib/loupe/loupe.db ] ||
  fail "the installed loupe did not read /etc/loupe/loupe.properties (no /var/lib/loupe/loupe.db)"

# `loupe diff` from the command module: the engine alone, without the server or configuration.
png=$(ls "$ROOT"/tests/browser/baselines/*.png 2>/dev/null | head -n1)
if [ -n "$png" ]; then
  (cd / && /usr/bin/loupe diff "$png" "$png" >/dev/null) ||
    fail "the installed loupe diff did not run from /usr/lib/loupe/commands/diff.so"
  [ -f /usr/lib/loupe/commands/diff.so ] || fail "no /usr/lib/loupe/commands/diff.so"
fi

step "examples/plugin-hello built out of tree against loupe-dev"
cp -r "$ROOT/examples/plugin-hello" "$WORK/hello-src"
build_example() {  # build_example FOLDER [cmake args]: configure and build the example
  local folder=$1
  shift
  cmake -S "$WORK/hello-src" -B "$folder" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >"$folder.log" 2>&1 &&
    cmake --build "$folder" >>"$folder.log" 2>&1
}
build_example "$WORK/hello-build" || { cat "$WORK/hello-build.log"; fail "the example did not build"; }
if grep -q "differs from the installed core" "$WORK/hello-build.log"; then
  cat "$WORK/hello-build.log"
  fail "the example built with the core's toolchain got another build id"
fi
grep -qxF "$build_id" <<<"$(strings "$WORK/hello-build/hello.so")" ||
  fail "hello.so does not carry the core's build id"
# The mismatched builds (4, below) compile in the background while the server runs.
if command -v clang++ >/dev/null; then
  CXX=clang++ build_example "$WORK/hello-clang" &
  clang_pid=$!
fi
# A loupe-dev of the next patch version whose headers changed, as an older or newer SDK is.
next_sdk="$WORK/sdk-next"
mkdir -p "$next_sdk/lib/cmake" "$next_sdk/include" "$next_sdk/lib/loupe"
cp -r /usr/lib/cmake/Loupe "$next_sdk/lib/cmake/"
cp -r /usr/include/loupe "$next_sdk/include/"
cp /usr/lib/loupe/libloupe-core.so "$next_sdk/lib/loupe/"
IFS=. read -r major minor patch <<<"$version"
sed -i "s/^set(PACKAGE_VERSION \"$version\")/set(PACKAGE_VERSION \"$major.$minor.$((patch + 1))\")/" \
  "$next_sdk/lib/cmake/Loupe/LoupeConfigVersion.cmake"
printf '\nnamespace loupe {\nstruct AddedInTheNextVersion {};\n}  // namespace loupe\n' \
  >>"$next_sdk/include/loupe/host.hpp"
build_example "$WORK/hello-next" -DCMAKE_PREFIX_PATH="$next_sdk" &
next_pid=$!

step "the installed server, as the loupe user, with the example enabled"
"${SUDO[@]}" python3 "$WORK/hello-src/test/hello_test.py" --loupe /usr/bin/loupe \
  --plugin-path "$WORK/hello-build:/usr/lib/loupe/plugins" \
  --enable "auth, builds, reviews, deployments, web, analytics, hello" \
  --config /etc/loupe/loupe.properties --user loupe --data-dir /var/lib/loupe
[ "$(stat -c '%U %a' /var/lib/loupe/loupe.db)" = "loupe 600" ] ||
  fail "/var/lib/loupe/loupe.db is $(stat -c '%U %a' /var/lib/loupe/loupe.db), not loupe's alone"

step "the example's own test (ctest)"
(cd "$WORK/hello-build" && ctest --output-on-failure >"$WORK/ctest.log" 2>&1) ||
  { cat "$WORK/ctest.log"; fail "the example's ctest failed"; }

step "mismatched builds are refused"
next_minor="$major.$((minor + 1))"
mkdir -p "$WORK/wants-next"
printf 'cmake_minimum_required(VERSION 3.24)\nproject(p CXX)\nfind_package(Loupe %s REQUIRED)\n' \
  "$next_minor" >"$WORK/wants-next/CMakeLists.txt"
if cmake -S "$WORK/wants-next" -B "$WORK/wants-next/build" >"$WORK/wants-next.log" 2>&1; then
  fail "find_package(Loupe $next_minor) accepted the installed $version"
fi
grep -q "version: $version" "$WORK/wants-next.log" ||
  { cat "$WORK/wants-next.log"; fail "find_package(Loupe $next_minor) failed for another reason"; }

refused() {  # refused FOLDER WHAT PATTERN: the loader refuses FOLDER/hello.so saying PATTERN
  local out
  if out=$(cd / && /usr/bin/loupe --set data.dir="$WORK/refusal-data" \
    --set db.url="sqlite:$WORK/refusal-data/loupe.db" --set plugins.enabled="auth, builds, hello" \
    --set plugins.path="$1:/usr/lib/loupe/plugins" plugins 2>&1); then
    fail "the core loaded the example $2: $out"
  fi
  grep -qF "$3" <<<"$out" || fail "the core refused the example $2 with another message: $out"
  echo "refused ($2): $out"
}
wait "$next_pid" || { cat "$WORK/hello-next.log"; fail "the example did not build against the next SDK"; }
grep -q "differs from the installed core" "$WORK/hello-next.log" ||
  fail "configuring against another SDK gave no warning about the build id"
refused "$WORK/hello-next" "built against the SDK of $major.$minor.$((patch + 1))" \
  "$WORK/hello-next/hello.so: descriptor field 'build_id' is '"
if [ -n "${clang_pid:-}" ]; then
  wait "$clang_pid" || { cat "$WORK/hello-clang.log"; fail "the example did not build with clang"; }
  refused "$WORK/hello-clang" "built with clang" \
    "$WORK/hello-clang/hello.so: descriptor field 'build_id' is 'Clang-"
else
  echo "(clang++ not installed: the other-compiler refusal is not checked)"
fi

if [ -n "${lintian_pid:-}" ]; then
  step "lintian"
  lintian_status=0
  wait "$lintian_pid" || lintian_status=$?
  lintian_pid=""
  grep -v '^running with root privileges' "$WORK/lintian.log" || true
  [ "$lintian_status" = 0 ] || fail "lintian reported errors or warnings"
fi

step "purge (dpkg --purge)"
"${SUDO[@]}" dpkg --purge loupe-dev loupe >"$WORK/dpkg.log" 2>&1 ||
  { cat "$WORK/dpkg.log"; fail "dpkg --purge failed"; }
installed=0
traces >"$WORK/traces-after"
left=$(comm -13 "$WORK/traces-before" "$WORK/traces-after")
while read -r path; do
  # Folders the packages share with others (/usr/bin, ...) stay; anything of theirs must go.
  if [ -e "$path" ] && ! grep -qxF "$path" "$WORK/existing-before"; then left+=$'\n'"$path"; fi
done <"$WORK/package-paths"
left=$(sed '/^$/d' <<<"$left")
[ -z "$left" ] || fail "left behind after dpkg --purge (outside /var/lib/loupe):
$left"
if "${SUDO[@]}" dpkg-statoverride --list /etc/loupe/loupe.properties >/dev/null 2>&1; then
  fail "the permissions of /etc/loupe/loupe.properties stay in dpkg-statoverride"
fi
[ -f /var/lib/loupe/loupe.db ] || fail "purge removed the data in /var/lib/loupe"
step "done: packages of loupe $version install, serve a plugin built out of tree, and purge"
