// SPDX-License-Identifier: GPL-3.0-or-later
// Workspaces on disk. A workspace file is one protocol request on one line, so it can be piped
// straight into `slicescope-cli run`; what only the GUI needs (title, explanation) rides in the
// request's `id`, which the protocol echoes untouched. Lessons use the same form (pretty-printed
// for their authors) with an `expect` member in the id that the lesson tests check.
#pragma once

#include "core/tensor.h"
#include "protocol/json.h"
#include "ui/model/workspace.h"

#include <QString>

#include <string>
#include <vector>

namespace ss::ui {

/// What a lesson says its op returns: the outputs (or only their shapes, for big ones), or an
/// error code.
struct Expectation
{
    std::vector<Tensor> outputs;
    std::vector<Shape> shapes;
    std::string errorCode; ///< "invalid_argument", ...; empty if the op succeeds
};

/// Reads a request object into a workspace (inputs described by fill/value keep their
/// description; data and npy become cells). Throws OpError(bad_request) naming the problem.
Workspace workspaceFromJson(const Json& request, const Limits& limits,
                            Expectation* expectation = nullptr);
/// Inputs mapped from a .npy file of more bytes than this are written as the file. As text, 16
/// MiB of elements take up to about 80 MB (int8, bool: 5 characters for 1 byte), which reads back
/// under the longest request line of a machine of 8 GiB (100 MiB).
inline constexpr std::int64_t kMappedInputEmbedBytes = std::int64_t(16) << 20;

/// The request line for a workspace: compact JSON, no newline. An input mapped from a .npy file
/// (readNpyFile with mapping on, as in the workbench) of more than kMappedInputEmbedBytes is
/// written as {"npy": its absolute path}, not element by element (smaller ones as their
/// elements); bad_request if that file has changed since it was opened.
std::string workspaceToJson(const Workspace& workspace);

/// Reads a workspace file (.json) or a NumPy file (.npy, which becomes the first input of
/// `current`, with its spec fitted to the file: fitSpecToFile, which may set `note`). Throws
/// OpError(bad_request) naming the file and the problem.
Workspace readWorkspaceFile(const QString& path, const Workspace& current, const Limits& limits,
                            QString* note = nullptr);
/// The text of a workspace file (workspaceToJson and a newline). Throws as workspaceToJson.
std::string workspaceFileText(const Workspace& workspace);
/// Writes atomically: the old file stays whole until the new one is complete. Throws
/// OpError(bad_request) naming the file if it cannot be written.
void writeWorkspaceFile(const QString& path, const Workspace& workspace);

} // namespace ss::ui
