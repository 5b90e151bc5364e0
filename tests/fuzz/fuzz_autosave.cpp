// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: any bytes as an autosave (sessions/session-*.json, offered for recovery after a
// crash). Recovering must give a workspace or throw OpError; what it gives is autosaved again by
// the same writer and must recover as the same workspace (the same text written), so recovered work
// survives a second crash.
#include "core/error.h"
#include "fuzz_file.h"
#include "ui/model/workspacefile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    ss::Limits limits = ss::Limits::machineDefault();
    limits.maxElements = 1 << 16;
    const QString path = ss::fuzzing::writeInput(data, size, QStringLiteral("session-a.json"));
    ss::ui::Workspace ws;
    try {
        ws = ss::ui::readWorkspaceFile(path, ss::ui::Workspace{}, limits);
    } catch (const ss::OpError&) {
        return 0;
    }
    const QString again = path + QStringLiteral(".again.json");
    try {
        ss::ui::writeWorkspaceFile(again, ws);
    } catch (const ss::OpError&) {
        return 0; // an unfinished literal: the previous autosave stays
    }
    const ss::ui::Workspace back = ss::ui::readWorkspaceFile(again, ss::ui::Workspace{}, limits);
    if (ss::ui::workspaceToJson(back) != ss::ui::workspaceToJson(ws)) std::abort();
    return 0;
}
