#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the .deb for real with apt, checks what a user gets, and removes it again. It changes
# the system, so it is not part of ctest: CI runs it after the tests.
#
#   packaging/check-install.sh [BUILD_DIR]     (default: build; builds the .deb there if missing)
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
  exec sudo "$0" "$@"
fi
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)

cpack_value() {
  sed -n "s/^set($1 \"\(.*\)\")$/\1/p" "$build/CPackConfig.cmake"
}
package=$(cpack_value CPACK_PACKAGE_NAME)
version=$(cpack_value CPACK_PACKAGE_VERSION)
deb=$(cpack_value CPACK_PACKAGE_DIRECTORY)/${package}_${version}_$(dpkg --print-architecture).deb
if [ ! -f "$deb" ]; then
  (cd "$build" && cpack -G DEB)
fi

if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
  echo "$package is installed already; remove it first (this check removes what it installs)" >&2
  exit 1
fi
work=$(mktemp -d)
cleanup() {
  if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    apt-get remove --purge -y -q "$package" >/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "FAILED: $*" >&2
  exit 1
}

echo "== apt-get install $deb"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb"

mapfile -t files < <(dpkg-query -L "$package")
for f in "${files[@]}"; do
  [ -e "$f" ] || fail "dpkg lists $f, but it is not there"
done
printf '%s\n' "${files[@]}" | grep -qx /usr/bin/slicescope-cli || fail "no /usr/bin/slicescope-cli"

probe=
desktop=$(printf '%s\n' "${files[@]}" | grep '^/usr/share/applications/.*\.desktop$' || true)
if [ -n "$desktop" ]; then
  id=$(basename "$desktop" .desktop)
  desktop-file-validate "$desktop"
  appstreamcli validate --no-net "/usr/share/metainfo/$id.metainfo.xml"
  [ -f "/usr/share/icons/hicolor/48x48/apps/$id.png" ] || fail "no 48x48 icon"
  # dpkg's triggers registered the MIME types and the desktop file as their handler: what a file
  # manager needs for a double-click to open SliceScope.
  mapfile -t types < <(sed -n 's/.*<mime-type type="\([^"]*\)".*/\1/p' \
    "/usr/share/mime/packages/$id.xml")
  for type in "${types[@]}"; do
    grep -q "^[0-9]*:$type:" /usr/share/mime/globs2 || fail "$type is not in the MIME database"
    grep -q "^$type=.*$id.desktop" /usr/share/applications/mimeinfo.cache ||
      fail "$id.desktop is not registered for $type"
  done
  echo "ok: desktop file, metainfo, icons and MIME types (${types[*]}) registered"
  probe=$build/tests/packaging/packaging_probe
fi

echo "== running from /usr/bin"
"$top/tests/packaging/smoke_test.sh" /usr/bin "$version" "$work/smoke" ${probe:+"$probe"}

echo "== apt-get remove --purge $package"
DEBIAN_FRONTEND=noninteractive apt-get remove --purge -y -q "$package"
for f in "${files[@]}"; do
  [ -d "$f" ] || [ ! -e "$f" ] || fail "$f is still there after removal"
done
if [ -n "$desktop" ]; then
  for type in "${types[@]}"; do
    ! grep -q "^[0-9]*:$type:" /usr/share/mime/globs2 || fail "$type is still in the MIME database"
  done
fi
echo "ok: installed with apt, ran from /usr/bin, removed cleanly"
