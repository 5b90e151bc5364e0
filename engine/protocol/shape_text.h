// SPDX-License-Identifier: GPL-3.0-or-later
// Shapes typed by people: `slicescope-cli --shape`, `slicescope --shape` and the GUI's shape
// field all read them here, so the same text is the same shape everywhere.
#pragma once

#include "core/tensor.h"

#include <string_view>

namespace ss {

/// Reads a shape as people type it: sizes separated by commas, `x`, `×` or spaces, optionally in
/// one pair of parentheses or brackets, e.g. "5,6", "5 6", "5x6", "(5, 6)", "[5,6]", "(5,)".
/// "" and "()" are a scalar. Spaces separate sizes, so "5 6" is (5, 6), as NumPy prints it
/// without the comma, never 56. Throws OpError(bad_request) saying what is wrong: a size that is
/// not a non-negative integer, an empty size ("5,,6"), unmatched brackets, rank above kMaxRank
/// (32), sizes that multiply past int64 (even with a 0 among them: checkedNumElements).
Shape parseShape(std::string_view text);

} // namespace ss
