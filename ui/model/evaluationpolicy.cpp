// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/evaluationpolicy.h"

namespace ss::ui {

bool sameInputs(const std::vector<std::vector<Tensor>>& a,
                const std::vector<std::vector<Tensor>>& b)
{
    if (a.size() != b.size()) return false;
    for (std::size_t k = 0; k < a.size(); ++k) {
        if (a[k].size() != b[k].size()) return false;
        for (std::size_t j = 0; j < a[k].size(); ++j)
            if (a[k][j].raw() != b[k][j].raw() || a[k][j].shape() != b[k][j].shape() ||
                a[k][j].dtype() != b[k][j].dtype())
                return false;
    }
    return true;
}

ShownChoice chooseShown(const std::shared_ptr<const Evaluation>& newest,
                        const std::shared_ptr<const Evaluation>& lastGood)
{
    ShownChoice choice;
    choice.outputs = newest->ok ? newest
                     : lastGood && lastGood->op == newest->op && newest->framework.isEmpty()
                         ? lastGood
                         : nullptr;
    choice.failed = !newest->ok && choice.outputs;
    // The input views keep the last good selection only while the inputs are unchanged.
    const bool keepGoodInputs =
        choice.failed && lastGood->op == newest->op && sameInputs(newest->inputs, lastGood->inputs);
    choice.inputs = keepGoodInputs ? lastGood : newest;
    choice.linked = choice.outputs && choice.inputs == choice.outputs;
    return choice;
}

bool isStale(bool hasShown, const StaleReasons& reasons)
{
    return hasShown && (reasons.failed || reasons.cancelled || reasons.unreadable);
}

} // namespace ss::ui
