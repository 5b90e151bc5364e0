// SPDX-License-Identifier: GPL-3.0-or-later
// The one file writer of the app and the CLI: workspaces, autosaves, .npy files, images,
// animations, screenshots and the exercise progress all go through it, so that each of them
// keeps the old file on a full disk and says why.
#pragma once

#include <QString>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace ss {

/// Receives the bytes of a file, in chunks.
using ByteSink = std::function<void(const char*, std::size_t)>;

/// "" if `path` may be written: it does not exist yet, or it is a regular file (or a symbolic
/// link to one). Otherwise the reason: a device, FIFO, socket or directory is "not a regular
/// file" (renaming a new file over /dev/full as root would replace the device node).
std::string checkWriteTarget(const QString& path);

/// Writes a file atomically (it appears complete or not at all): `produce` hands its bytes to
/// the sink it is given, in chunks. The bytes go to a temporary file beside the target; every
/// write, the flush to the disk (fsync) and the close are checked, the file is read back and
/// compared, and only then renamed over the target (through a symbolic link, its target is
/// replaced and the link kept; an existing file's permissions are kept). Returns "" on success,
/// else the system's reason ("No space left on device"); on failure the old file is untouched
/// and no temporary file is left behind. A target that is not a regular file is refused before
/// anything is written (see checkWriteTarget).
std::string writeFileAtomically(const QString& path,
                                const std::function<void(const ByteSink&)>& produce);

/// The same for bytes already in memory (an encoded image, a JSON document).
std::string writeFileAtomically(const QString& path, std::string_view bytes);

/// For a program's main: SIGINT, SIGTERM and SIGHUP (Ctrl-C, kill, a closed terminal) end the
/// process without leaving a file half-written. The temporary file of every writeFileAtomically
/// still running is removed (its target keeps what it held), one line on standard error says so
/// ("PROGRAM: interrupted by SIGINT; 'out.npy' was not written, the file there keeps its old
/// contents"), and the signal's default action ends the process, so its parent sees it ended by
/// that signal (a shell reports 128 + its number: 130, 143, 129). A signal ignored when this is
/// called (nohup, a background job) stays ignored.
void removeUnfinishedFilesOnInterrupt(const char* program);

} // namespace ss
