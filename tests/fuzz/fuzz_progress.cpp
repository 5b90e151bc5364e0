// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: any bytes as exercise-progress.json. Reading never throws: it gives the solved
// names, or (a file that does not read) no progress, the file kept aside byte for byte and a
// problem to show; a save then starts a file that reads back.
#include "fuzz_file.h"
#include "ui/model/exerciseprogress.h"

#include <QFile>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString path = ss::fuzzing::writeInput(data, size, QStringLiteral("progress.json"));
    const QString aside = path + QStringLiteral(".unreadable-1");
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    ss::ui::ExerciseProgress progress(path);
    if (!progress.problem().isEmpty()) {
        QFile kept(aside);
        if (!progress.solved().empty() || !kept.open(QIODevice::ReadOnly) ||
            kept.readAll() != bytes)
            std::abort();
        kept.close();
        if (!progress.markSolved(QStringLiteral("x")).isEmpty()) std::abort();
        const ss::ui::ExerciseProgress fresh(path);
        if (!fresh.problem().isEmpty() || !fresh.isSolved(QStringLiteral("x"))) std::abort();
        QFile::remove(aside);
    }
    return 0;
}
