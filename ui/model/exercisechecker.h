// SPDX-License-Identifier: GPL-3.0-or-later
// Checks an answer to an exercise exactly: the same output shape, and every output element taken
// from the same input element as the target's, in the same order. A wrong answer gets the cells
// that differ and one hint drawn from how the two results differ.
#pragma once

#include "core/shape.h"
#include "core/tensor.h"
#include "ui/model/exercises.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace ss::ui {

/// What one evaluation of a workspace gave, as far as the checker needs it.
struct Selection
{
    bool ok = false;
    QString error;    ///< why the engine refused it (ok == false)
    Tensor input;     ///< input slot 0, as made
    Shape inputShape; ///< of input slot 0
    Shape shape;      ///< of output 0
    /// Per element of output 0: packSource(slot, index), or kNoSource.
    SourceList sources;
    /// The op read a slice spec (it has a strided-slice decode): hints may speak of indices,
    /// slices and strides.
    bool spec = false;
};

struct CheckResult
{
    bool correct = false;
    QString hint; ///< empty when correct
    Selection target;
    Selection answer;
    /// Output elements (flat, in the answer's output) whose source is not the target's.
    std::vector<std::int64_t> differingOutputs;
    /// Elements of input slot 0 the target reads and the answer does not (sorted).
    std::vector<std::int64_t> missingInputs;
    /// Elements of input slot 0 the answer reads and the target does not (sorted).
    std::vector<std::int64_t> extraInputs;
};

class ExerciseChecker
{
public:
    /// Evaluates `workspace` on the calling thread (exercises are small). Never throws.
    static Selection select(const Workspace& workspace);
    /// The exercise's target: its first solution's selection.
    static Selection target(const Exercise& exercise);
    /// Checks `answer` against `exercise`'s target.
    static CheckResult check(const Exercise& exercise, const Workspace& answer);
    /// Checks an answer against a target selection already made.
    static CheckResult check(const Selection& target, const std::string& op,
                             const Workspace& answer);
    /// Per element of `s.input`: its read position in `s` (the first output element that takes
    /// it), or -1: how a view colours the target.
    static std::vector<std::int64_t> readPositions(const Selection& s);
};

} // namespace ss::ui
