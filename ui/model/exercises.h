// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: an input, a target selection (which input elements, in which order, in which output
// shape) and the answers known to reach it. The built-in sets are resources
// (:/exercises/NN-set.json); a teacher's sets are read from <AppDataLocation>/exercises/*.json.
#pragma once

#include "ui/model/workspace.h"

#include <QString>

#include <vector>

namespace ss::ui {

struct Exercise
{
    QString name;  ///< unique over all sets: what progress remembers
    QString title; ///< a few words
    QString task;  ///< what to do, in a sentence or two
    /// The workspace the student starts from: the op, its input(s) and starting attributes.
    Workspace start;
    /// Answers known to be right; the first one defines the target. The checker accepts any
    /// answer that produces the same result, these are what the tests try.
    std::vector<Workspace> solutions;
    /// Answers known to be wrong (for the tests: each must fail with a hint).
    std::vector<Workspace> wrong;
};

struct ExerciseSet
{
    QString name;  ///< file name without ".json": "01-indices-and-ranges"
    QString title; ///< "Indices and ranges"
    QString file;  ///< where it was read from
    std::vector<Exercise> exercises;
};

/// Reads one set file. Throws OpError(bad_request) naming the file, the exercise and the problem.
ExerciseSet readExerciseSet(const QString& path);

/// Where a teacher's own sets are read from: <AppDataLocation>/exercises.
QString userExerciseDir();

/// The built-in sets in file order, then the user's (userExerciseDir(), *.json in name order).
/// Read once. A file that does not read is left out with a warning (the app still starts);
/// `problems` (if given) receives one line per such file.
const std::vector<ExerciseSet>& exerciseSets(QStringList* problems = nullptr);

/// The exercise named `name` in exerciseSets(), or nullptr.
const Exercise* findExercise(const QString& name);

} // namespace ss::ui
