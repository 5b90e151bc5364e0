// SPDX-License-Identifier: GPL-3.0-or-later
// The words behind a hover: where an output element came from, and where an input element
// went, built from the evaluation's decode (slices) or its sources (every other op).
#pragma once

#include "core/op.h"
#include "ui/model/engineclient.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace ss::ui {

/// Names of the input slots in slot order: "input", "values[0]", "values[1]", ...
/// The request in a few words, for "last good result of ...": the subscript for an op written
/// as one, else the op's call with its attributes ("tile(multiples=[2, 3])"), cut at about 80
/// characters.
QString requestText(const OpDef& def, const Attrs& attrs);

QStringList slotNames(const OpDef& def, const Evaluation& eval);

/// What a greyed result says it is: "last good result of x[1:]" when the request changed since,
/// and when only the inputs did, how they were then ("last good result of x[1:], when input was
/// (3, 4) int32, now (3, 5) int32"), so that it never just repeats the current request.
QString staleNote(const OpDef& def, const Evaluation& good, const Evaluation& failed);
/// Names of the outputs: the op's own ("y", "idx", "count"), compare's the frameworks whose result
/// each is ("NumPy 1.24, JAX 0.4"), else "output" for one and "output 0", "output 1", ... for
/// several.
QStringList outputNames(const OpDef& def, const Evaluation& eval);

/// The results of an op that are not tensors (the response's extra members), as rich text: each
/// member as its value, except compare's "frameworks", which reads as one line per framework
/// (its result's shape, or its error, and why it differs from TensorFlow's).
QString extrasText(const Evaluation& eval);

/// "output[2, 0, 1] from input[1, 3, 0, 4]" and, for slices, one line per input dimension with
/// the rule that put the index there. Rich text (for tooltips).
QString explainOutputElement(const OpDef& def, const Evaluation& eval, int output,
                             std::int64_t flat);
/// "input[1, 3] is read 4th: output[0, 2]", or that it is not read. `targets` per output.
QString explainInputElement(const OpDef& def, const Evaluation& eval, int slot, std::int64_t index,
                            const std::vector<std::vector<std::int64_t>>& targets);

} // namespace ss::ui
