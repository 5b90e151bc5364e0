// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The other ops of the family in each framework: one table (op_equivalents.cpp) of Python
// templates, so "copy as" for any op is data, not code.

#include "core/frameworks/framework_model.h"

#include <string>
#include <vector>

namespace ss {

/// One row of the table: an op (optionally only when an attribute has a given value, e.g. pad's
/// mode) and, per framework, a Python template or "" for "no direct equivalent" with a note.
struct OpEquivalent
{
    std::string op;
    std::string whenAttr;  ///< "" for every call of the op
    std::string whenValue; ///< compared case-insensitively
    /// Per Framework: the template (last line the result) or "" where there is none.
    std::vector<std::string> code;
    /// Per Framework: what to know (why there is none, or how it departs).
    std::vector<std::string> notes;
    /// The op is a basic-indexing spec: the framework models write its code (getitem,
    /// strided_slice), not templates.
    bool subscript = false;
};

/// The table, in the order of the op registry.
const std::vector<OpEquivalent>& opEquivalents();

/// Python for `op` called with `attrs` in `framework`: the inputs go by their protocol names, as
/// the GUI shows them (gather's `params`); strided_slice and getitem come from the framework
/// models, whose code slices `x`. runnableCode (code_snippet.h) adds the inputs and `y = `. Throws
/// OpError(invalid_argument) "no direct equivalent in <framework> for <op>: <note>" where the
/// framework has none, and bad_request for a missing attribute the template needs.
std::string opCode(Framework framework, const OpDef& op, const Attrs& attrs);

} // namespace ss
