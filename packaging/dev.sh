#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Sets up a Debian 12 machine for SliceScope, builds it, and then either opens the application
# or runs every test. Used by the README's two commands and by CI (.ci/run).
#
#   packaging/dev.sh app    install, build, open SliceScope on its first lesson
#   packaging/dev.sh test   install, build, run all tests
#   packaging/dev.sh deps   install only (CI starts its sanitizer build before the tests)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
cd "$top"

# Everything the build, the tests and the packaging checks need, from Debian's archive.
packages=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools libqt6svg6 qt6-qpa-plugins
  libqcustomplot-dev libeigen3-dev
  python3-numpy python3-torch python3-onnx
  xvfb xauth dbus at-spi2-core python3-pyatspi
  # A window manager for the external suite's keyboard focus test (Xvfb has none, and without
  # one no window is active, so no widget has the focus).
  matchbox-window-manager
  # The screen reader the tensor tables are checked with by hand (Orca under Xvfb and AT-SPI).
  orca
  desktop-file-utils appstream librsvg2-bin dpkg-dev file shellcheck groff-base python3-yaml
  # The .rpm, lint, and the relocatable bundle (its Wayland plugins, RPATHs, chroot test).
  rpm rpmlint lintian qt6-wayland patchelf debootstrap
  # The sanitizer build: clang, its runtimes and libFuzzer, and lld, which links its suites
  # about 3.5x faster than ld.bfd (1.0 against 3.8 s of CPU for a suite).
  clang libclang-rt-14-dev libfuzzer-14-dev lld
  # Image export tests read exported PDFs back (pdftoppm, pdftotext, pdfimages).
  poppler-utils
  # Model files (engine/model): ONNX with its node tests, TFLite FlatBuffers, TensorFlow graphs
  # as protobuf.
  libonnx-dev libonnx-testdata libprotobuf-dev protobuf-compiler
  libflatbuffers-dev flatbuffers-compiler python3-flatbuffers
)
# Node.js runs the reference runtimes from npm (ONNX Runtime, LiteRT.js); a machine that already
# has node and npm (from another packager) keeps them.
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_dependencies() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing: ${missing[*]}"
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
}

build() {
  cmake --preset default
  cmake --build --preset default
}

case "${1:-app}" in
  deps)
    install_dependencies
    ;;
  app)
    install_dependencies
    build
    shift || true
    # With no arguments, open the first built-in lesson (the seed walk-through).
    [ $# -gt 0 ] || set -- --lesson walkthrough
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
      echo "No display: saving a screenshot of the window to build/slicescope.png instead."
      echo "(QT_QPA_PLATFORM=offscreen build/app/slicescope --screenshot FILE.png does the same.)"
      QT_QPA_PLATFORM=offscreen exec build/app/slicescope "$@" --screenshot build/slicescope.png
    fi
    exec build/app/slicescope "$@"
    ;;
  test)
    install_dependencies
    build
    # The reference runtimes the model tests compare with (ONNX Runtime, LiteRT.js), from npm.
    tests/model/reference_runtimes.sh build/npm
    exec ctest --preset default
    ;;
  *)
    echo "usage: packaging/dev.sh app|test|deps" >&2
    exit 2
    ;;
esac
