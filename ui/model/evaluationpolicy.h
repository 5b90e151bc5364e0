// SPDX-License-Identifier: GPL-3.0-or-later
// Which result the workbench's views show after an evaluation, and when that result is stale:
// the rules alone, without timers or widgets, so that they can be tested by table.
#pragma once

#include "ui/model/engineclient.h"

#include <memory>
#include <vector>

namespace ss::ui {

/// What the views show for the newest evaluation: the outputs (and steps) of one result and the
/// inputs (and their selection) of one, which may differ.
struct ShownChoice
{
    /// Whose outputs and steps are on screen: the newest evaluation when it succeeded, else the
    /// last good result when it is of the same op, else none.
    std::shared_ptr<const Evaluation> outputs;
    /// Whose input tensors are on screen: the last good result while a failed edit left the
    /// inputs as they were (its selection still goes with them), else the newest evaluation.
    std::shared_ptr<const Evaluation> inputs;
    /// The newest evaluation failed and an older result is shown in its place.
    bool failed = false;
    /// The input views show the selection of the outputs on screen, so hovering links them.
    bool linked = false;
};

/// Whether two evaluations read the same input tensors: the same buffers, shapes and dtypes.
/// The engine client hands an input the edit left alone to the next evaluation as the tensor it
/// made before, so the buffer says "unchanged" without comparing every element.
bool sameInputs(const std::vector<std::vector<Tensor>>& a,
                const std::vector<std::vector<Tensor>>& b);

/// The stale/good policy. A failed edit leaves the last good result on show, greyed, but only
/// one of the same op: another op's outputs and steps would be taken for this one's. A
/// framework's error (the Frameworks panel) is its own: the op's good result is not that
/// framework's. `newest` must not be null; `lastGood` may be.
ShownChoice chooseShown(const std::shared_ptr<const Evaluation>& newest,
                        const std::shared_ptr<const Evaluation>& lastGood);

/// Why the result on show may not be the result of what the editors show.
struct StaleReasons
{
    bool failed = false;     ///< the newest evaluation failed (chooseShown's `failed`)
    bool cancelled = false;  ///< the newest evaluation was cancelled
    bool unreadable = false; ///< an argument field does not read, so it was not evaluated
};

/// Whether a shown result (`hasShown`) is stale for any of `reasons`. Nothing shown is never
/// stale: there is nothing to grey.
bool isStale(bool hasShown, const StaleReasons& reasons);

} // namespace ss::ui
