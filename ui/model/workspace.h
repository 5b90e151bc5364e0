// SPDX-License-Identifier: GPL-3.0-or-later
// What the workbench shows, held as one value: the op, its attributes and how each input tensor
// is made. Undo, lessons, workspace files and autosave all store and restore this value.
#pragma once

#include "core/attr.h"
#include "core/decode.h"
#include "core/frameworks/framework_model.h"
#include "core/op.h"
#include "core/tensor.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ss::ui {

/// How an input tensor's elements are made. Data holds a tensor given element by element (cell
/// edits, a loaded .npy file, a `data` member of a workspace).
enum class FillKind { Arange, Zeros, Ones, Random, Literal, Data };

QString fillKindName(FillKind kind); ///< "arange", ..., "literal", "data"
std::optional<FillKind> fillKindFromName(const QString& name);

/// One input tensor as the user describes it. The tensor itself is made on a worker thread.
struct InputSource
{
    /// Empty only for a literal whose dtype is inferred as TensorFlow infers it.
    std::optional<DType> dtype = DType::Int32;
    Shape shape{3, 4};
    FillKind fill = FillKind::Arange;
    std::uint64_t seed = 0;
    QString literal; ///< Literal: a nested list such as [[1, 2], [3, 4]]
    Tensor data;     ///< Data: shared and never modified (an edit makes a new tensor)

    /// Tensors compare by buffer identity: two separately loaded equal files differ, which
    /// only costs a re-evaluation.
    bool operator==(const InputSource& other) const;
};

/// A ready Data source holding `tensor`.
InputSource dataSource(const Tensor& tensor);

struct Workspace
{
    std::string op = "getitem";
    Attrs attrs{{"expr", Attr("x[1:, ::-1]")}};
    /// One list per input of the op: exactly one tensor, or any number for a list input.
    std::vector<std::vector<InputSource>> inputs{{InputSource{}}};
    /// Whose reading of the subscript the engine runs (the request's `framework`): TensorFlow,
    /// the op itself, or NumPy, PyTorch or JAX (readsSubscriptOps), for getitem only.
    Framework framework = Framework::TensorFlow;
    QString title;       ///< lessons: a short title
    QString explanation; ///< lessons: what to look at, in a few sentences

    bool operator==(const Workspace& other) const = default;
};

/// The op's own example (OpDef::example) as a workspace: generated tensors keep their fill,
/// written-out ones become literals.
Workspace exampleWorkspace(const OpDef& def);
/// A workspace for `def` after the op picker switched to it: `start` (a ready workspace of
/// `def`), or else the op's example. One exception: between ops that take nothing but a slice
/// spec in the subscript or the raw strided-slice notation (getitem, encode, strided_slice,
/// to_expr), the user's spec is carried over, translated, and so is the tensor it slices.
Workspace switchOp(const Workspace& current, const OpDef& def, const Workspace* start = nullptr);
/// `ws` with its slice spec cut to the first input's rank, for an op that takes nothing but a
/// spec (see switchOp): its entries up to the first that would take a dimension the tensor does
/// not have, so that a file opens on what it can show (a rank-1 .npy on the default
/// x[1:, ::-1] opens on x[1:], not on "Index out of range using input dim 1"). Unchanged when
/// the spec fits, fails for another reason, or does not read.
Workspace fitSpecToInputRank(const Workspace& ws);
/// `ws` for a file just opened as its first input (`data`): fitSpecToInputRank, or, when the
/// engine refuses the output of that spec (a copy over `limits`), the whole tensor `x[...]`,
/// which shares the file's pages (held to the file's limits only); `note` (if not null) then
/// says so and why. Unchanged when the spec fits, fails for another reason, or `x[...]` is
/// refused too.
Workspace fitSpecToFile(const Workspace& ws, const Limits& limits, QString* note);
/// The shape an input source will have, when it is known without making the tensor.
std::optional<Shape> knownShape(const InputSource& source);

/// The sparse spec in strided_slice-style attributes, or std::nullopt if they are not integer
/// lists and 32-bit masks (the engine then explains what is wrong).
std::optional<SparseSpec> sparseFromAttrs(const Attrs& attrs);

/// Makes the tensor an input source describes (called on a worker: arange of 10^7 elements or
/// a literal parse must not block the GUI). A fill runs on all of `executor`'s workers, if given.
/// Throws OpError(bad_request or resource_exhausted).
Tensor materialize(const InputSource& source, const Limits& limits, Executor* executor = nullptr);

/// "int32", "float64", ...
QString dtypeText(DType dtype);
/// "(5, 5, 5)" style text for a shape, "()" for a scalar.
QString shapeText(const Shape& shape);
/// protocol/shape_text.h's parseShape (the CLI's --shape reads the same way), std::nullopt where
/// it refuses the text.
std::optional<Shape> parseShapeText(const QString& text);
/// "[1, 3, 0]": the coordinates of a flat index.
QString coordText(std::int64_t flat, const Shape& shape);

} // namespace ss::ui
