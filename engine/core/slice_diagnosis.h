// SPDX-License-Identifier: GPL-3.0-or-later
// What a slice program reads, and what a wrong output reveals: chains of ops composed from their
// plans, the equivalence of two chains for every input of a shape, the simplest subscript that
// reads a given selection, and the diagnosis of an actual output against the expected one.
#pragma once

#include "core/attr.h"
#include "core/op.h"
#include "core/shape.h"
#include "core/tensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ss {

class Executor;

/// One step of a chain: an op applied to the previous step's output (its first input), with
/// constant tensors for its other inputs, if it has any (a model's Gather node: its indices).
struct ChainStep
{
    const OpDef* op = nullptr;
    Attrs attrs;
    std::vector<std::vector<Tensor>> constants; ///< per input after the first
};

/// What a chain reads: for every output element (row-major), the flat index of the input
/// element it is a copy of, or kNoSource for a constant (padding).
struct ChainPlan
{
    Shape inputShape;
    Shape outputShape;
    std::vector<std::int64_t> sources;
};

/// Plans every step on a tensor of the shape the previous step gives (the plans of these ops do
/// not depend on the values of the chained input) and composes their sources; elements of a
/// step's constants count as constants. Throws OpError: bad_request for an op whose inputs
/// after the first are not all given as constants, or that gives no single output ("step 2:
/// ..."), and whatever the op refuses, prefixed with the step number.
ChainPlan planChain(const std::vector<ChainStep>& steps, const Shape& inputShape, DType dtype,
                    const Limits& limits, Executor& executor);

/// "x[1, 2]" for a flat index of `shape` ("x" for a scalar, "a constant" for kNoSource).
std::string sourceText(std::int64_t source, const Shape& shape);
/// "[0, 1]" for a flat index of `shape`.
std::string positionText(std::int64_t flat, const Shape& shape);

/// Whether two chains read the same input elements in the same order for every input.
struct Equivalence
{
    bool same = false;
    bool shapesDiffer = false;
    std::int64_t position = -1; ///< first output element where they part (same shapes)
    std::int64_t sourceA = kNoSource;
    std::int64_t sourceB = kNoSource;
    std::string explanation; ///< one sentence: why they are or are not the same
};
/// Decided from the plans alone: equal output shapes and equal sources, element by element.
Equivalence compareChains(const ChainPlan& a, const ChainPlan& b);

/// One output axis of a selection: it runs over input axis `inputAxis` from `begin` in steps of
/// `stride`, `count` elements; or, with inputAxis -1, it is a new axis of size 1.
struct SelectionAxis
{
    int inputAxis = -1;
    std::int64_t begin = 0;
    std::int64_t stride = 1;
    std::int64_t count = 1;
    bool operator==(const SelectionAxis&) const = default;
};

/// A strided selection, possibly with its output axes in another order than its input axes
/// (a strided slice followed by a transpose). Output axes of size 1 are always new axes, and the
/// input axes that no output axis runs over hold one index: so that one selection has one form.
struct Selection
{
    Shape inputShape;
    std::vector<SelectionAxis> axes; ///< per output axis
    std::vector<std::int64_t>
        fixed; ///< per input axis: its index, or -1 if an output axis runs over it
    /// The input axes of the output axes that are not new, in output order.
    std::vector<int> runAxes() const;
    bool transposed() const;
};

/// The selection whose sources are exactly `sources` (flat input indices), or nullopt if none
/// is: a strided slice with new and removed axes, possibly transposed. Empty outputs and
/// outputs with constants have none.
std::optional<Selection> fitSelection(const Shape& inputShape, const Shape& outputShape,
                                      const std::vector<std::int64_t>& sources);

/// The selection as Python: "x[8::-1]", "x[1:4, None, ::2]", "x[:, 1:3].transpose(1, 0)".
std::string selectionText(const Selection& selection);
/// What the selection does, in words: "a strided slice, then a transpose (1, 0)", "a reverse of
/// axis 0", "a transpose (1, 0)", "new axes", "a copy of x".
std::string selectionWords(const Selection& selection);

/// One output axis that takes a list of indices of its input axis (a gather along it).
struct AxisTake
{
    int outputAxis = 0;
    std::vector<std::int64_t> indices;
};

/// A selection some of whose output axes take an index list instead of a strided run: a gather
/// per axis (TensorFlow's gather, NumPy's take), after a strided slice and transpose. The base
/// runs over the whole input axis of each taken output axis.
struct GatherFit
{
    Selection base;
    std::vector<AxisTake> takes; ///< in output axis order, never empty
};

/// The gather whose sources are exactly `sources`, or nullopt if none is or fitSelection fits
/// (a strided run is the simpler spec). Every output axis runs over one input axis, each input
/// axis is run over by at most one output axis.
std::optional<GatherFit> fitGather(const Shape& inputShape, const Shape& outputShape,
                                   const std::vector<std::int64_t>& sources);

/// The gather as Python: "x.take([2, 0, 1], axis=0)", "x[1, :, ::2].take([3, 0], axis=0)".
std::string gatherText(const GatherFit& gather);
/// In words: "a gather of indices [2, 0, 1] along axis 0", after the base's words if it does
/// more than run over whole axes.
std::string gatherWords(const GatherFit& gather);

/// The bug classes a diagnosis names (the public reports of converters and runtimes).
enum class DiagnosisClass {
    Equivalent,     ///< the actual output is the expected one
    BeginOffByOne,  ///< one axis starts (or one removed axis is indexed) one element off
    NewAxisMoved,   ///< the same elements, a size-1 axis at another position
    AxisMoved,      ///< the same axes, transposed
    SignFlipped,    ///< one axis walked with the stride's sign flipped
    StridesDropped, ///< one axis walked with stride 1 instead of its stride
    EndReadAsLast,  ///< an end meaning "to the end" read as the last index (one element short)
    EndOffByOne,    ///< one axis ends one element early or late (another end than "to the end")
    OtherSpec,      ///< a simple spec fits, but none of the classes above
    NoSimpleSpec,   ///< the sources are known but no simple spec reads them
    Unknown,        ///< the input's values repeat: the sources cannot be recovered
};
/// "equivalent", "begin_off_by_one", "new_axis_moved", "axis_moved", "sign_flipped",
/// "strides_dropped", "end_read_as_last", "end_off_by_one", "other_spec", "no_simple_spec",
/// "unknown".
std::string_view diagnosisClassName(DiagnosisClass c);

/// One element where the actual output differs from the expected.
struct ElementDifference
{
    std::int64_t position = 0; ///< flat index of the expected output
    std::string expected;      ///< the value, as text
    std::string actual;
    std::int64_t expectedSource = kNoSource;
    std::int64_t actualSource = kNoSource; ///< kNoSource when not recovered
};

/// What the caller knows of the expected spec beyond its sources.
struct DiagnoseContext
{
    std::string expectedText;      ///< how the user wrote it ("" = the fitted subscript)
    bool expectedEndIsMax = false; ///< an end was INT_MAX / INT64_MAX ("to the end")
    int maxDifferences = 5;
};

/// The context of an op's expected output: the `expr` of a subscript op as written, and whether
/// an end of its strided slice decode (or its `ends`) was INT_MAX or more.
DiagnoseContext diagnoseContextFor(const OpDef& op, const Attrs& attrs,
                                   const StridedSliceDecode* decode);

/// Whether a planned strided slice (or an ONNX Slice's `ends`) gives an end of INT_MAX or more:
/// "to the end" in TensorFlow and ONNX, and what some converters read as the last index.
bool readsEndAtMax(const OpPlan& plan, const Attrs& attrs);
/// The same from the plan's decode (null when the op has none).
bool readsEndAtMax(const StridedSliceDecode* decode, const Attrs& attrs);

struct Diagnosis
{
    DiagnosisClass kind = DiagnosisClass::Unknown;
    std::string sentence;  ///< the difference, in words ("strides were ignored on axis 1")
    std::string shapeNote; ///< why the shapes differ, "" if they do not
    std::int64_t matching = 0;
    std::int64_t differing = 0; ///< with equal shapes; else every element counts as differing
    /// The first differences: element for element with equal shapes; else at the positions both
    /// shapes have (equal ranks), or by position with the size-1 axes left out (equal shapes
    /// without them), as `pairing` says; none when the shapes allow no pairing.
    std::vector<ElementDifference> differences;
    /// How the differences of different shapes were paired, or why they could not be: "at the
    /// positions both shapes have", "by position with the size-1 axes left out", "the elements
    /// cannot be paired by position: the outputs have ranks 2 and 1"; "" for equal shapes.
    std::string pairing;
    /// False when the shapes allow no pairing (`pairing` says why).
    bool paired = true;
    /// Every differing element's flat output index, in order (equal shapes only).
    std::vector<std::int64_t> differingPositions;
    bool sourcesRecovered = false;           ///< the input's values are all distinct
    std::vector<std::int64_t> actualSources; ///< per actual element (kNoSource: not in the input)
    std::optional<Selection> expectedFit;
    std::optional<Selection> actualFit;
    /// When no strided selection reads the actual elements: the gather that does, if any.
    std::optional<GatherFit> actualGather;
    /// The actual spec (selectionText or gatherText), "" when none fits.
    std::string actualSpec() const;
};

/// The element-by-element comparison, the shape explanation, the recovered sources and the
/// class of the difference. `expectedSources` are the flat input indices of `expected`'s
/// elements (kNoSource for a constant). Strings compare as text, numbers as doubles.
Diagnosis diagnoseOutput(const Tensor& input, const Tensor& expected,
                         const std::vector<std::int64_t>& expectedSources, const Tensor& actual,
                         const DiagnoseContext& context);

/// Element `i` of `t` as the diagnosis writes values: "7", "2.5", "\"ab\"", "True", "(1+2j)".
std::string elementValueText(const Tensor& t, std::int64_t i);

/// Why two shapes differ, in words ("the actual output has an extra axis of size 1 at position
/// 2"); "" if they are equal.
std::string shapeDifference(const Shape& expected, const Shape& actual);

} // namespace ss
