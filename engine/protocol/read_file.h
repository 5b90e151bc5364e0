// SPDX-License-Identifier: GPL-3.0-or-later
// The one rule for every file SliceScope reads: the CLI's .npy inputs, the GUI's workspaces,
// lessons, exercise sets, exercise progress, settings and autosaves. A path never holds a NUL
// byte; only a regular file is read (a symlink is followed to what it names), because a FIFO
// waits for a writer forever and a device such as /dev/zero never ends; its size is checked
// against a cap before anything is read, and the reading stops at the cap even if the file
// grows meanwhile.
#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <string>
#include <string_view>

namespace ss {

/// Throws OpError(bad_request) if `path` holds a NUL byte (a C path would end there and name
/// another file) or is empty.
void checkPath(std::string_view path);
/// The same for a path the GUI holds.
void checkPath(const QString& path);

/// Opens `path` for reading under the rule above: returns a blocking descriptor the caller
/// closes, and the file's size in `size`. Throws OpError(bad_request) "cannot read 'PATH': why"
/// for a NUL in the path, a file that cannot be opened, a directory, a FIFO, socket or device,
/// or a file larger than `maxBytes`.
int openRegularFile(const std::string& path, std::int64_t maxBytes, std::int64_t* size = nullptr);

/// Reads a whole file under the rule above; `maxBytes` as for openRegularFile.
std::string readRegularFile(const std::string& path, std::int64_t maxBytes);
/// The same for a path the GUI holds (encoded with QFile::encodeName); a Qt resource path
/// (":/lessons/...") is read from the program itself, under the same cap.
QByteArray readRegularFile(const QString& path, std::int64_t maxBytes);

/// The largest text file (workspace, lesson, exercise set, progress, settings) the GUI reads:
/// the CLI's longest request line under the machine's default limits (maxRequestLineBytes).
std::int64_t maxTextFileBytes();

} // namespace ss
