// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/attr.h"
#include "core/decode.h"
#include "core/plan.h"
#include "core/tensor.h"
#include "core/trace.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ss {

class Executor;
class JobContext;
class OpCall;

/// One tensor input of an op. A list input (concat's `values`) takes several tensors.
struct InputDef
{
    std::string name;
    bool isList = false;
};

/// What an attribute's value must be, checked for every call of the op before it runs
/// (checkAttrs) in the words of OpCall's reader of that kind.
enum class AttrType {
    Any,        ///< read by the op itself (a number or a string, a dtype's name, true or false)
    Int,        ///< an integer (OpCall::requireInt, getInt)
    String,     ///< a string (OpCall::getString)
    Ints,       ///< an integer or a rectangular nest of integer lists (OpCall::intTensor)
    IntsOrNull, ///< the same, or null for the default (tf.gather's axis=None)
    IntList,    ///< a flat list of integers (OpCall::intList)
};

/// Throws bad_request "attribute 'NAME' must be ..." (`spelled`: the name the caller used) if
/// `value` is not of `type`.
void checkAttrType(AttrType type, const Attr& value, const std::string& spelled);

/// One attribute. `defaultText` is shown by `slicescope-cli ops` ("" = required).
struct AttrDef
{
    std::string name;
    std::string defaultText;
    AttrType type = AttrType::Any;
    std::vector<std::string> aliases; ///< older TensorFlow names accepted in its place
};

/// Everything an op produces before its elements are moved.
struct OpPlan
{
    std::vector<OutputPlan> outputs;
    std::vector<Step> steps;
    std::optional<StridedSliceDecode> decode; ///< strided_slice and getitem
    /// Results that are not tensors, written as top-level response members ("encoding",
    /// "expr").
    std::vector<std::pair<std::string, Attr>> extras;
};

/// How a person writes an op's arguments. The GUI picks its argument editor by it and carries a
/// spec between ops that share it; nothing else about an op is read from its name.
enum class Notation {
    Subscript,       ///< a Python subscript in `expr` (getitem, encode)
    RawStridedSlice, ///< begin, end, strides and the five masks (strided_slice and relatives)
    Box,             ///< begin and size per dimension (slice)
    PaddleAxes,      ///< axes, starts, ends and strides (paddle_strided_slice)
    Generic,         ///< one field per attribute
};

/// The part of the family an op belongs to: the op picker groups ops by it, in this order.
enum class OpFamily {
    Slicing,    ///< strided_slice and its relatives, slice, compare
    SplitJoin,  ///< split, concat, stack, unstack
    RepeatPad,  ///< tile, pad
    Reorder,    ///< reverse, reverse_sequence, roll, transpose
    SpaceDepth, ///< space_to_batch, depth_to_space, extract_image_patches, ...
    Index,      ///< gather, boolean_mask, one_hot, dynamic_partition, ...
};

/// "slicing", "splitting and joining", "repeating and padding", "reordering", "space and
/// depth", "gathering and masking".
std::string_view familyName(OpFamily family);

/// "subscript", "raw strided slice", "box", "paddle axes", "generic".
std::string_view notationName(Notation notation);
/// The attributes a notation writes (empty for Generic). An op may take others besides.
const std::vector<std::string>& notationAttrs(Notation notation);

/// One input tensor of an op's example: generated (`dtype`, `shape`, `fill`, as the protocol's
/// "fill"), or written out element by element when `value` is set (a nest of lists of
/// numbers, bools or strings, as the protocol's "value"; the shape is the nesting's).
struct ExampleTensor
{
    DType dtype = DType::Int32;
    Shape shape;
    Fill fill = Fill::Arange;
    Attr value;
};

/// A generated example tensor (arange by default: every element tells where it came from).
ExampleTensor exampleFill(DType dtype, Shape shape, Fill fill = Fill::Arange);
/// An example tensor with these elements.
ExampleTensor exampleValue(DType dtype, Attr value);
/// Makes the tensor. Throws bad_request if `value` is not a rectangular nest of elements of
/// `dtype`, resource_exhausted if it is over `limits`.
Tensor makeExampleTensor(const ExampleTensor& example, const Limits& limits);

/// Arguments that show what an op does: small, valid, and chosen so that the result teaches
/// (an in-range gather with a repeated index, pad with a border of -1 around an arange).
struct OpExample
{
    /// One list per InputDef (exactly one tensor for a non-list input).
    std::vector<std::vector<ExampleTensor>> inputs;
    Attrs attrs;
};

/// The frameworks, in the order every listing shows them. An op names its equivalents in them
/// (OpDef::equivalents); the frameworks library models how each reads an indexing spec.
enum class Framework { NumPy, TensorFlow, PyTorch, Jax, Onnx, Paddle };
/// How many frameworks there are (the size of an array indexed by Framework).
inline constexpr std::size_t kFrameworkCount = 6;

/// What an op is called in one framework: a Python template whose last line is the result, or
/// none, with the reason. Templates name the inputs and attributes in braces: `{name}` is an
/// input (the first is `x`) or an attribute written as a Python literal, `{name=default}` gives
/// the text used when the call leaves the attribute out, `{name|filter}` rewrites the value
/// (the filters are listed in core/frameworks/op_equivalents.cpp), and `{args}` is every input
/// by position, then every given attribute as a keyword, the way TensorFlow's own functions
/// take them.
struct Equivalent
{
    Framework framework = Framework::TensorFlow;
    std::string code; ///< "" when the framework has no equivalent
    std::string note; ///< why there is none, or how this one departs; never empty without code
    /// Only for calls whose attribute `whenAttr` (absent: `whenDefault`) equals `whenValue`,
    /// compared case-insensitively (pad's modes). Empty for every call.
    std::string whenAttr;
    std::string whenValue;
    std::string whenDefault;
};

/// An equivalent with code (and what to know about it, if anything).
Equivalent equivalent(Framework framework, std::string code, std::string note = {});
/// No equivalent in `framework`, and why (what to write instead).
Equivalent noEquivalent(Framework framework, std::string reason);
/// Restricts `e` to calls whose attribute `attr` (absent: `absent`) equals `value`.
Equivalent when(std::string attr, std::string value, std::string absent, Equivalent e);

/// How an op's second input picks the elements of its output, for the GUI's per-element
/// reason ("because indices[1] = 1").
enum class IndexPick {
    None,      ///< not by an index tensor
    AlongAxis, ///< one index per position along `axis`, after `batch_dims` (gather)
    Tuples,    ///< the last dimension of indices is a tuple of coordinates (gather_nd)
};

struct OpDef
{
    std::string name;
    std::vector<std::string> aliases;
    std::string summary; ///< one line for `ops` and the GUI's op picker
    std::vector<InputDef> inputs;
    std::vector<AttrDef> attrs;
    std::string outputs; ///< e.g. "output", "one per piece", "y, idx, count"
    /// Validates exactly as TensorFlow does and plans every output. Throws OpError.
    std::function<OpPlan(const OpCall&)> plan;
    Notation notation = Notation::Generic;
    /// What the GUI opens when the op is picked and `slicescope-cli ops --examples` prints.
    OpExample example;
    OpFamily family = OpFamily::Slicing;
    /// The call's attributes are one basic-indexing spec (a subscript, or strided_slice's raw
    /// arguments) that every framework model reads its own way: getitem and strided_slice.
    bool indexSpec = false;
    IndexPick indexPick = IndexPick::None;
    /// The op in each framework, or why it has none. An op that is one indexing spec
    /// (`indexSpec`) needs none: the framework models write its code.
    std::vector<Equivalent> equivalents;
};

/// Refuses (bad_request) an attribute `def` has under no name or alias, one given under two of
/// its spellings, and one whose value is not of its AttrType: what every call of the op is
/// checked for (OpCall, the code an op is written as).
void checkAttrs(const OpDef& def, const Attrs& attrs);

/// An op's arguments as the planner sees them, with typed attribute readers that answer a
/// mistyped attribute with `bad_request` naming it.
class OpCall
{
public:
    /// `inputs` holds one list per InputDef (exactly one tensor for a non-list input).
    /// Throws bad_request for unknown or doubly-given attributes and wrong input counts.
    OpCall(const OpDef& def, std::vector<std::vector<Tensor>> inputs, Attrs attrs, Limits limits);

    const OpDef& def() const { return *m_def; }
    const Limits& limits() const { return m_limits; }
    /// The executor a planner may split long scans over (the range checks of index tensors);
    /// null (the default) plans on the calling thread.
    Executor* executor() const { return m_executor; }
    void setExecutor(Executor* executor) { m_executor = executor; }
    /// Whether the plan is to be explained in words: its steps, and the decode's notes (the
    /// default). A caller that shows neither (a protocol request without `trace`) says no, and
    /// the ops whose words cost more than their work (strided_slice and getitem, whose small
    /// slices take a few microseconds to plan and several times that to explain) leave them out.
    bool explains() const { return m_explains; }
    void setExplains(bool explains) { m_explains = explains; }

    /// The single tensor of a non-list input.
    const Tensor& input(std::string_view name) const;
    const std::vector<Tensor>& inputList(std::string_view name) const;
    /// The slot number of input `name`'s k-th tensor (list inputs expanded in place).
    int slot(std::string_view name, int k = 0) const;
    /// All inputs in slot order (list inputs expanded in place).
    std::vector<Tensor> allInputs() const;

    /// The attribute under its name or one of its aliases; null if not given.
    const Attr* attr(std::string_view name) const;
    bool has(std::string_view name) const { return attr(name) != nullptr; }
    /// The name the caller used for `name` (an alias, or the name itself).
    std::string spelledAs(std::string_view name) const;

    std::int64_t getInt(std::string_view name, std::int64_t fallback) const;
    std::int64_t requireInt(std::string_view name) const;
    std::string getString(std::string_view name, const std::string& fallback) const;
    /// An integer list (or nested lists) read as TensorFlow reads an index tensor. A missing
    /// attribute is bad_request unless a fallback is given.
    IntTensor intTensor(std::string_view name) const;
    IntTensor intTensor(std::string_view name, const IntTensor& fallback) const;
    /// A flat list of integers (a bare integer is refused).
    std::vector<std::int64_t> intList(std::string_view name) const;

private:
    const AttrDef* findAttr(std::string_view name) const;

    const OpDef* m_def;
    std::vector<std::vector<Tensor>> m_inputs;
    Attrs m_attrs;
    Limits m_limits;
    Executor* m_executor = nullptr;
    bool m_explains = true;
};

/// Reads an attribute value as an integer tensor (shape from nesting). Throws bad_request
/// naming `what` if it is not a rectangular nest of integers.
IntTensor toIntTensor(const Attr& value, const std::string& what);
/// The nesting shape of a list attribute, read along its first elements ([] for a scalar).
Shape attrShape(const Attr& value);

/// Every op, in the order `slicescope-cli ops` lists them (and see core/op_registry.h).
const std::vector<OpDef>& allOps();
/// The op with this name or alias, or null.
const OpDef* findOp(std::string_view name);

/// The work units executePlan reports to a JobContext (elements its pieces copy); planSources
/// reports the same amount. A caller with a progress sink announces the sum of what it will
/// run with ctx->beginWork().
std::int64_t planWork(const OpPlan& plan);
/// Moves the elements: one tensor per output of the plan. The caller's executor splits large
/// copies across its workers; `ctx` may cancel between chunks and hears of the work done.
std::vector<Tensor> executePlan(const OpPlan& plan, const std::vector<Tensor>& inputs,
                                Executor& executor, JobContext* ctx = nullptr);
/// Where every element of output `output` came from: packSource(slot, index) or kNoSource.
/// Runs the same plan as executePlan, writing source addresses instead of values, in one pass
/// over the result. Throws OpError(internal) "left element E of output K unwritten" if no piece
/// writes some element (a planning bug).
SourceList planSources(const OpPlan& plan, int output, Executor& executor,
                       JobContext* ctx = nullptr);

} // namespace ss
