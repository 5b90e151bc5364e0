// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Python for any op in any framework, from the equivalents the op lists (OpDef::equivalents,
// written in the op's own file): "copy as" for any op is data, not code.

#include "core/frameworks/framework_model.h"

#include <string>

namespace ss {

/// Python for `op` called with `attrs` in `framework`: the inputs go by their protocol names, as
/// the GUI shows them (gather's `params`); strided_slice and getitem come from the framework
/// models, whose code slices `x`. runnableCode (code_snippet.h) adds the inputs and `y = `. Throws
/// OpError(invalid_argument) "no direct equivalent in <framework> for <op>: <note>" where the
/// framework has none, and bad_request for a missing attribute the template needs.
std::string opCode(Framework framework, const OpDef& op, const Attrs& attrs);

} // namespace ss
