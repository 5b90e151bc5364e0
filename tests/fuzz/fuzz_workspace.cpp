// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: any bytes as a workspace file (File > Open, automation open_file, the last
// workspace reopened at start). Reading must give a workspace or throw OpError; a workspace it
// gives must save and read back as the same workspace
// (written again, the same text).
#include "core/error.h"
#include "fuzz_file.h"
#include "ui/model/workspacefile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    ss::Limits limits = ss::Limits::machineDefault();
    limits.maxElements = 1 << 16;
    const QString path = ss::fuzzing::writeInput(data, size, QStringLiteral("w.json"));
    ss::ui::Workspace ws;
    try {
        ws = ss::ui::readWorkspaceFile(path, ss::ui::Workspace{}, limits);
    } catch (const ss::OpError&) {
        return 0;
    }
    std::string text;
    try {
        text = ss::ui::workspaceToJson(ws);
    } catch (const ss::OpError&) {
        return 0; // an unfinished literal cannot be written (the window says so)
    }
    // What is written reads back as the same workspace: written again, the same text.
    const ss::ui::Workspace back = ss::ui::workspaceFromJson(ss::parseJson(text), limits);
    if (ss::ui::workspaceToJson(back) != text) std::abort();
    return 0;
}
