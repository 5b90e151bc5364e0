// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace ss {

/// One step of an op's explanation, in the order a teacher would give it.
struct Step
{
    std::string title;
    std::string detail;
    // What the step talks about, so a view can light it up (not part of the JSON protocol):
    std::vector<int> specEntries; ///< strided slice: indices into the sparse spec
    std::vector<int> inputDims;   ///< dimensions of the (first) input
    std::vector<int> outputDims;  ///< dimensions of the (first) output
};

} // namespace ss
