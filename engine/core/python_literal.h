// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The subscript parser's value reader, offered to the pasted-call reader (call_expr.h): the
// values of a call's arguments are read by the same code (slice_expr.cpp) as the values inside a
// subscript, and a subscript inside a call by the subscript parser itself.

#include "core/slice_expr.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ss {

/// A Python literal as the subscript parser reads it.
struct PythonLiteral
{
    /// Other: something else the subscript parser accepts (a comparison such as `x > 3`).
    enum class Kind { Integer, Float, String, None, Ellipsis, Bool, List, Tuple, Other };
    Kind kind = Kind::Other;
    std::int64_t value = 0; ///< Integer
    bool fits = true;       ///< Integer: within int64
    double floatValue = 0;  ///< Float
    bool boolValue = false; ///< Bool
    std::string repr;       ///< Python's repr
    std::string content;    ///< String: the characters it stands for
    int begin = 0;          ///< character range in the text
    int end = 0;
    std::vector<PythonLiteral> elements; ///< List, Tuple
};

/// Reads one literal (integer, float, string, None, True/False, ..., or a list or tuple of
/// them) of `text` at byte offset `pos` (spaces before it skipped) and moves `pos` past it.
/// Throws OpError(parse_error) with the character position (in all of `text`) of the problem.
PythonLiteral readPythonLiteral(std::string_view text, std::size_t& pos);
/// Reads the subscript of `text` that starts at byte offset `pos` (just after its '[') up to
/// and including its ']', and moves `pos` past it. `name` is the tensor subscripted (a
/// comparison with it is a boolean mask). Throws as parseSubscript does, positions counted in
/// all of `text`.
Subscript readSubscriptAt(std::string_view text, std::size_t& pos, std::string name = "x");

} // namespace ss
