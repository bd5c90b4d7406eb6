#!/usr/bin/env bash
# tests/packaging/install-prefix.sh BUILD_DIR: `cmake --install` of the server writes only under
# its prefix, and the packages' /usr prefix keeps Debian's layout:
#   1. --prefix DIR: the configuration in DIR/etc/loupe (private to the installing user) with
#      its data in DIR/var/lib/loupe, no systemd unit, nothing outside DIR; DIR/bin/loupe finds
#      that configuration and its plugins without flags;
#   2. --prefix /usr with DESTDIR (as CPack stages the packages): /etc/loupe/loupe.properties,
#      /lib/systemd/system/loupe.service and data in /var/lib/loupe, all under DESTDIR.
# Any user; a few seconds (the runtime component is copied twice).
set -euo pipefail
BUILD=$(cd "$1" && pwd)
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/loupe-install-prefix.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# What the installs must not touch, as it was before them.
outside=(/etc/loupe /lib/systemd/system/loupe.service /usr/lib/systemd/system/loupe.service /var/lib/loupe)
state() { for path in "${outside[@]}"; do stat -c '%n %Y %s' "$path" 2>/dev/null || echo "$path absent"; done; }
before=$(state)

prefix="$WORK/prefix"
cmake --install "$BUILD" --prefix "$prefix" --component runtime >"$WORK/install.log" 2>&1 ||
  { cat "$WORK/install.log"; fail "cmake --install --prefix failed"; }
config="$prefix/etc/loupe/loupe.properties"
[ -f "$config" ] || fail "no $config: $(cat "$WORK/install.log")"
[ "$(stat -c '%a' "$config")" = 600 ] || fail "$config has mode $(stat -c '%a' "$config"), not 600"
grep -qx "data.dir = $prefix/var/lib/loupe" "$config" ||
  fail "$config keeps its data elsewhere: $(grep '^data.dir' "$config")"
grep -qx "db.url = sqlite:$prefix/var/lib/loupe/loupe.db" "$config" ||
  fail "$config has another database: $(grep '^db.url' "$config")"
[ -z "$(find "$prefix" -name 'loupe.service')" ] || fail "a prefix install got a systemd unit"
# Every path the install reports is under the prefix.
if grep -E '^-- (Installing|Up-to-date): ' "$WORK/install.log" | grep -v -- ": $prefix/"; then
  fail "cmake --install --prefix $prefix wrote outside it (lines above)"
fi
[ "$(state)" = "$before" ] || fail "the install changed files outside its prefix:
before: $before
after:  $(state)"
# The installed loupe reads that configuration (its data folder is the prefix's) and finds its
# plugins, from a folder with no etc/ of its own.
(cd "$WORK" && "$prefix/bin/loupe" migrate >"$WORK/migrate.log" 2>&1) ||
  { cat "$WORK/migrate.log"; fail "$prefix/bin/loupe migrate failed"; }
[ -f "$prefix/var/lib/loupe/loupe.db" ] ||
  fail "$prefix/bin/loupe did not read $config (no database in its data folder)"
plugins=$(cd "$WORK" && "$prefix/bin/loupe" plugins 2>/dev/null)
grep -q "^builds .* $prefix/lib/loupe/plugins/builds.so$" <<<"$plugins" ||
  fail "$prefix/bin/loupe did not find its plugins: $plugins"
echo "ok: --prefix $prefix holds the configuration, its data and nothing outside"

stage="$WORK/stage"
DESTDIR="$stage" cmake --install "$BUILD" --prefix /usr --component runtime >"$WORK/usr.log" 2>&1 ||
  { cat "$WORK/usr.log"; fail "DESTDIR=... cmake --install --prefix /usr failed"; }
for path in etc/loupe/loupe.properties lib/systemd/system/loupe.service usr/bin/loupe; do
  [ -f "$stage/$path" ] || fail "the /usr layout lacks /$path: $(cat "$WORK/usr.log")"
done
grep -qx 'data.dir = /var/lib/loupe' "$stage/etc/loupe/loupe.properties" ||
  fail "the packages' configuration keeps its data elsewhere"
[ ! -e "$stage/usr/etc" ] || fail "the /usr layout wrote /usr/etc"
[ "$(state)" = "$before" ] || fail "the DESTDIR install changed files outside DESTDIR"
echo "ok: --prefix /usr puts the configuration in /etc/loupe and the unit in /lib/systemd/system"
