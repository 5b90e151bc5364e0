// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One spec, six frameworks. Each framework's reading of an indexing spec is a model that
// plans the spec its own way (an OpPlan like every op's, with decode steps), or gives that
// framework's error in its own words, or says plainly that it reads the spec as something
// SliceScope does not model. The compare op, the generated code and a GUI's
// Frameworks panel all come from these models.

#include "core/decode.h"
#include "core/op.h"
#include "core/slice_expr.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ss {

/// The spec as the user gave it: a Python subscript, or raw strided_slice arguments.
struct IndexSpec
{
    /// The subscript ("x[4:-6:-1]"); for raw arguments, the shortest subscript that means the
    /// same (to_expr's), or empty if no subscript can say it.
    std::string expression;
    /// The parsed subscript, if there is one.
    std::optional<Subscript> subscript;
    /// Raw strided_slice arguments, when the spec was given that way.
    std::optional<SparseSpec> raw;
    /// Why there is no subscript (raw arguments that no Python subscript expresses).
    std::string noSubscriptReason;
    /// The sentence a model gives as its "not modelled" reason when there is no subscript.
    std::string noSubscriptMessage() const;

    /// Parses a subscript. Throws OpError(parse_error) as parseSubscript does.
    static IndexSpec fromExpression(std::string_view expression);
    /// Raw arguments; the subscript is to_expr's, where one exists.
    static IndexSpec fromStridedSlice(const SparseSpec& sparse);
    /// The spec in the attributes of a basic-indexing op (OpDef::indexSpec): getitem's
    /// `expr`, or raw strided_slice arguments read by strided_slice's own reader. Throws
    /// OpError as those readers do.
    static IndexSpec fromAttrs(const std::string& op, const Attrs& attrs);
};

/// What one input dimension contributes to a result: `count` elements from `first` by `step`,
/// the dimension removed (an integer index) or kept.
struct AxisPick
{
    std::int64_t first = 0;
    std::int64_t step = 1;
    std::int64_t count = 0;
    bool removed = false;
};

/// One framework's answer for a spec and an input.
struct FrameworkOutcome
{
    enum class Kind {
        Result,     ///< plan.outputs[0] is the result
        Error,      ///< the framework raises `errorType`: `message`
        NotModelled ///< the framework reads the spec as something SliceScope does not model
    };
    Framework framework = Framework::NumPy;
    Kind kind = Kind::Result;
    /// The decode steps (always), and for a Result one output planned from input slot 0.
    OpPlan plan;
    /// For a basic-indexing Result: one entry per input dimension (empty for index arrays,
    /// whose result names each element's source in the plan instead).
    std::vector<AxisPick> picks;
    /// For a Result: per output dimension, the input dimension it runs over or -1 (a new axis,
    /// or a dimension of the broadcast index arrays).
    std::vector<int> outputDims;
    std::string errorType; ///< "IndexError", "ValueError", "InvalidArgumentError", ...
    std::string message;   ///< the error in the framework's words, or what is not modelled
};

/// A framework's model of basic indexing.
class FrameworkModel
{
public:
    virtual ~FrameworkModel() = default;
    virtual Framework id() const = 0;
    /// The name used on the command line and in the protocol: "numpy", "tensorflow", "torch",
    /// "jax", "onnx", "paddle".
    virtual std::string_view key() const = 0;
    /// The name and the version whose behaviour the model follows, e.g. "PyTorch 1.13".
    virtual std::string_view title() const = 0;
    /// Plans `spec` on `input` (slot 0). Never throws for a spec the framework refuses: that is
    /// an Error outcome. Throws OpError only for what no framework gets to see (an output over
    /// `limits`).
    virtual FrameworkOutcome plan(const IndexSpec& spec, const Tensor& input,
                                  const Limits& limits) const = 0;
    /// Python that computes the spec with this framework: it takes the input as `x` and its
    /// last line is the expression or the assignment that gives the result. `shape` is needed
    /// where the framework names axes by number and the spec has an ellipsis. Throws
    /// OpError(invalid_argument) where no code can be written, saying why.
    virtual std::string code(const IndexSpec& spec, const std::optional<Shape>& shape) const = 0;
};

/// The six models, in Framework order.
const std::vector<const FrameworkModel*>& frameworkModels();
/// The model with this key ("numpy", ...; also "np", "tf", "pytorch", "paddlepaddle"), or null.
const FrameworkModel* findFramework(std::string_view key);
const FrameworkModel& frameworkModel(Framework framework);
/// "numpy, tensorflow, torch, jax, onnx, paddle", for messages.
std::string frameworkKeys();

/// Whether a request (its `framework` member) and the workbench's framework selector can read
/// a subscript op with `framework`: TensorFlow (the op itself), NumPy, PyTorch and JAX, the
/// frameworks whose subscripts take index arrays and masks.
bool readsSubscriptOps(Framework framework);
/// "tensorflow, numpy, torch, jax": the keys readsSubscriptOps accepts, for messages.
std::string subscriptFrameworkKeys();
/// The message of an Error or NotModelled outcome as the workbench and the protocol show it:
/// "NumPy 1.24 raises IndexError: index 5 is out of bounds ...", "PyTorch 1.13: not modelled:
/// ...".
std::string outcomeMessage(const FrameworkOutcome& outcome);
/// The plan of a basic-indexing op (OpDef::indexSpec: getitem's `expr`, strided_slice's
/// raw arguments) on `input` as `framework` reads its spec: that framework's result, one output
/// planned from slot 0, with its decode steps. Throws OpError: parse_error where the subscript
/// does not parse (with its position), invalid_argument with outcomeMessage() where the
/// framework raises, unimplemented where SliceScope does not model its reading, and what the
/// model throws (an output over `limits`).
OpPlan planInFramework(Framework framework, const std::string& op, const Attrs& attrs,
                       const Tensor& input, const Limits& limits);

namespace frameworks {

// Helpers shared by the models.

/// Python's slice.indices(size) with the element count, for step != 0, without overflow.
struct PythonSlice
{
    std::int64_t start = 0;
    std::int64_t stop = 0;
    std::int64_t step = 1;
    std::int64_t count = 0;
};
PythonSlice pythonSliceIndices(std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
                               std::int64_t step, std::int64_t size);

/// A Result outcome: plans the picks as one affine piece of input slot 0, with a closing step
/// that says what is read. `outputDims` lists per output dimension its input dimension or -1.
FrameworkOutcome resultOutcome(Framework framework, const Tensor& input,
                               std::vector<AxisPick> picks, std::vector<int> outputDims,
                               std::vector<Step> steps, const Limits& limits);
/// An Error outcome; the last step says what the framework raises.
FrameworkOutcome errorOutcome(Framework framework, std::string errorType, std::string message,
                              std::vector<Step> steps);
/// A NotModelled outcome.
FrameworkOutcome notModelledOutcome(Framework framework, std::string message,
                                    std::vector<Step> steps);

/// Why a NumPy-style framework cannot be modelled on this subscript (a list subscript, a bool,
/// anything but integers, slices, None and ...), or empty if it can. `who` names the framework.
std::string advancedIndexingReason(const Subscript& subscript, const std::string& who);

/// The subscript's items written back as Python (canonical spelling: None, ..., a:b:c).
std::string itemText(const SubscriptItem& item);
std::string subscriptText(const std::vector<SubscriptItem>& items, bool tupleForm);

/// The input dimension each item consumes once one ellipsis is expanded for `rank`: -1 for None
/// and ..., -2 for an item past the last dimension.
std::vector<int> consumedDims(const std::vector<SubscriptItem>& items, int rank);
/// NumPy's output layout for a basic index with at most one ellipsis: per output dimension the
/// input dimension it runs over, or -1 for a new axis.
std::vector<int> basicLayout(const std::vector<SubscriptItem>& items, int rank);
/// The number of integer and slice items (the dimensions a subscript indexes).
int indexedDims(const std::vector<SubscriptItem>& items);
int ellipsisCount(const std::vector<SubscriptItem>& items);
/// Every dimension whole: the picks before any item is applied.
std::vector<AxisPick> wholePicks(const Shape& shape);
/// A Step about item `item` and input dimension `dim` (-1: none), lit up in the views.
Step itemStep(const std::string& title, const std::string& detail, int item, int dim);

} // namespace frameworks

} // namespace ss
