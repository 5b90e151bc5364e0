#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Recipe: builds SliceScope-<version>-x86_64.AppImage with linuxdeploy and its Qt plugin. Not run
# on CI (linuxdeploy is not in Debian, and CI cannot download it); tests/packaging lints it. Run
# it on the oldest distribution the AppImage should support: the result needs that glibc or newer.
#
#   packaging/appimage/build-appimage.sh [BUILD_DIR]
#
# Needs on PATH: linuxdeploy and linuxdeploy-plugin-qt (the x86_64 AppImages from
# https://github.com/linuxdeploy/linuxdeploy/releases and
# https://github.com/linuxdeploy/linuxdeploy-plugin-qt/releases, renamed or symlinked), plus
# everything packaging/dev.sh installs and qt6-wayland for the Wayland platform plugin.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$top/build-appimage}
appdir=$build/AppDir

cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
  -DSLICESCOPE_BUILD_TESTS=OFF -DSLICESCOPE_BUILD_BENCHMARKS=OFF
cmake --build "$build"
rm -rf "$appdir"
DESTDIR=$appdir cmake --install "$build"

# The id and version come from what was installed, so they stay written down once (project()).
desktop=$(find "$appdir/usr/share/applications" -name '*.desktop' -print -quit)
id=$(basename "$desktop" .desktop)
version=$("$appdir/usr/bin/slicescope-cli" --version)
version=${version##* }

# linuxdeploy-plugin-qt asks qmake where Qt's plugins are; Debian names Qt 6's qmake qmake6.
export QMAKE=${QMAKE:-$(command -v qmake6)}
export EXTRA_QT_MODULES="svg"
export EXTRA_PLATFORM_PLUGINS="libqwayland-generic.so;libqwayland-egl.so"
export LINUXDEPLOY_OUTPUT_VERSION=$version

cd "$build"
linuxdeploy --appdir "$appdir" \
  --executable "$appdir/usr/bin/slicescope" \
  --executable "$appdir/usr/bin/slicescope-cli" \
  --desktop-file "$desktop" \
  --icon-file "$appdir/usr/share/icons/hicolor/256x256/apps/$id.png" \
  --plugin qt \
  --output appimage
echo "Built: $(ls "$build"/*.AppImage)"
