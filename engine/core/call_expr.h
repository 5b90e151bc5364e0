// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reads a slicing call pasted from Python code (tf.strided_slice(x, ...), tf.slice, tf.gather,
// paddle.strided_slice, torch.narrow, np.take, chained subscripts) into the engine op and the
// arguments a request gives it. The values inside the call are read by the subscript parser
// (slice_expr.h); this file adds only the call's own syntax: names, parentheses, commas and
// keywords.

#include "core/attr.h"
#include "core/shape.h"
#include "core/tensor.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ss {

/// A pasted call read as an engine request: the op, its attributes as a request writes them,
/// and the op's inputs the call gives as values (gather's indices). The op's first input, the
/// tensor sliced, is the caller's (the CLI's --shape or --npy, the GUI's input).
struct CallTranslation
{
    std::string op; ///< the engine op: getitem, strided_slice, slice, gather, ...
    Attrs attrs;    ///< as the request protocol names them
    /// Inputs other than the first given in the call, by the op's input name, in its order.
    std::vector<std::pair<std::string, Tensor>> givenInputs;
    std::string function; ///< what was called, as written ("tf.strided_slice", "x.narrow")
    std::string tensor;   ///< the name of the tensor sliced in the call ("x", "params")
    /// What the translation chose where the call's library reads it differently from the op
    /// (negative indices wrapped, an axis filled in).
    std::vector<std::string> notes;
};

/// Whether `text` is meant as a call (or chained subscripts) rather than one subscript:
/// `name(` or `name[...][`, after an optional `y = `.
bool looksLikeCall(std::string_view text);

/// Reads one pasted call. `inputShape` is the shape of the tensor sliced, where the caller knows
/// it: torch.narrow needs its rank (slice takes one begin and size per dimension), np.take and
/// narrow need the dimension's size for negative indices and np.take's modes 'wrap' and 'clip'.
/// A single subscript `x[...]` reads as getitem. Throws OpError(parse_error) naming the part it
/// stopped at ("... (at position 17: 'axis=foo')"), the position counted in characters from 0.
CallTranslation translateCall(std::string_view text,
                              const std::optional<Shape>& inputShape = std::nullopt);

} // namespace ss
