// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Code pasted into the CLI or the window: a Python call (core/call_expr.h) or TensorFlow node
// text as a .pbtxt prints it (read by the GraphDef reader). Both become the same thing: an
// engine op with its attributes and the inputs the text gives as values.

#include "core/call_expr.h"

#include <optional>
#include <string_view>

namespace ss::model {

/// Whether `text` is node text: it starts with `node {`, `name:` or `op:`.
bool looksLikeNodeText(std::string_view text);
/// Whether `text` is pasted code rather than a subscript: a call, chained subscripts or node
/// text.
bool looksLikePastedCode(std::string_view text);

/// Reads pasted code. Node text must hold one node of the slicing family; Const nodes in the
/// text give the values of its arguments (a StridedSlice's begin, end and strides, a GatherV2's
/// indices and axis); its first input is the tensor sliced, the caller's. `inputShape` is that
/// tensor's shape where the caller knows it (translateCall). Throws OpError(parse_error) naming
/// the position and the text where it stopped.
CallTranslation translatePastedCode(std::string_view text,
                                    const std::optional<Shape>& inputShape = std::nullopt);

} // namespace ss::model
