// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/decode.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ss {

/// One element of a Python subscript as written.
struct SubscriptItem
{
    /// IndexArray: a list of integers and bools, nested to a rectangular shape (an index array
    /// in NumPy, PyTorch and JAX; TensorFlow refuses it like Other).
    enum class Kind { Integer, Slice, NewAxis, Ellipsis, Bool, IndexArray, Other };
    Kind kind = Kind::Other;
    std::string text;  ///< as written, trimmed
    int textBegin = 0; ///< character range in the expression
    int textEnd = 0;
    /// Integer: start holds the value. Slice: the given parts (absent = omitted).
    std::optional<std::int64_t> start, stop, step;
    bool boolValue = false;
    /// IndexArray: its shape and its elements in row-major order (a bool as 0 or 1), and whether
    /// every element is a bool (a boolean mask; an empty list is an integer array, as NumPy
    /// casts it).
    Shape arrayShape;
    std::vector<std::int64_t> arrayValues;
    bool arrayIsBool = false;
    /// An index array that compares the tensor itself with a number (`x > 3`): a boolean mask
    /// of the input's shape, whose arrayShape and arrayValues are filled in only once the input
    /// is known (frameworks::resolveComparisons). `op` is one of > >= < <= == !=.
    struct Comparison
    {
        std::string op;
        double value = 0;
        std::int64_t intValue = 0; ///< when isInteger
        bool isInteger = false;
    };
    std::optional<Comparison> comparison;
    /// Other, IndexArray, or a slice part that is not an integer: the invalid_argument message
    /// (TensorFlow's "Only integers, ... got <repr>" text) and where the offending value starts.
    std::string invalidMessage;
    int invalidBegin = 0;
};

/// A parsed subscript: `x[...]`, or the same without the name and brackets.
struct Subscript
{
    enum class Form { Single, Tuple, List };
    Form form = Form::Single;
    std::vector<SubscriptItem> items;
    /// For the List form: the whole list as one item (an IndexArray where the list is one), the
    /// way NumPy 1.23 and later read every list subscript.
    std::optional<SubscriptItem> wholeList;
};

/// Parses a Python subscript. Throws OpError(parse_error) with the 0-based character position
/// of the problem.
Subscript parseSubscript(std::string_view expression);

/// What tf.Tensor.__getitem__ passes to the op (its _slice_helper), with one SpecEntry per item
/// and notes on readings that differ from NumPy.
struct Encoding
{
    SparseSpec sparse;
    std::vector<SpecEntry> entries;
    std::vector<std::string> notes;
};

/// Encodes a parsed subscript. Throws OpError(invalid_argument) with TensorFlow's text for
/// what TensorFlow rejects in Python (floats and strings as indices, a scalar bool mask) and for
/// a mask that reaches bit 31 (entry 31 or later), which the kernel cannot read as an int32.
Encoding encodeSubscript(const Subscript& subscript);
/// parseSubscript followed by encodeSubscript.
Encoding encodeExpression(std::string_view expression);

/// The shortest Python subscript that means the same as `sparse` for every input shape,
/// written as `x[...]`. Throws OpError(invalid_argument) where no subscript can say it.
std::string toExpr(const SparseSpec& sparse, std::vector<std::string>* notes = nullptr);

} // namespace ss
