// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: any bytes as an exercise set (the user's exercises folder). Reading must give a set
// of at least one exercise, each with a solution, or throw OpError naming the file.
#include "core/error.h"
#include "fuzz_file.h"
#include "ui/model/exercises.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString path = ss::fuzzing::writeInput(data, size, QStringLiteral("set.json"));
    try {
        const ss::ui::ExerciseSet set = ss::ui::readExerciseSet(path);
        if (set.exercises.empty()) std::abort();
        for (const ss::ui::Exercise& exercise : set.exercises)
            if (exercise.solutions.empty() || exercise.name.isEmpty()) std::abort();
    } catch (const ss::OpError& e) {
        if (!QString::fromUtf8(e.what()).contains(path)) std::abort();
    }
    return 0;
}
