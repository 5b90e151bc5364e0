// SPDX-License-Identifier: GPL-3.0-or-later
// The TensorFlow graph reader's op table: per op of the slicing family (by TensorFlow's name),
// how many outputs it has and how it becomes the engine request of the same meaning, with
// TensorFlow's semantics (the engine's own). Adding an op is adding an entry.
#include "model/graphdef_ops.h"

#include "model/node_translation.h"

#include <algorithm>

namespace ss::model {

namespace {

void stridedSlice(const ModelNode& node, Translation& tr, NodeRequest& req)
{
    const StridedSliceInputs in = readStridedSlice(node, tr);
    if (tr.failed()) return;
    const SparseSpec sparse = sparseSpecOf(node, in);
    showSubscript(tr, sparse);
    req.op = "strided_slice";
    req.inputs.push_back({"input", {*in.input}});
    req.attrs = attrsFromSparse(sparse);
}

// GatherV2 (axis as input 2), Gather (axis 0) and GatherNd; batch_dims an attribute.
Translator gather(std::string engineOp, bool axisInput)
{
    return [=](const ModelNode& node, Translation& tr, NodeRequest& req) {
        const auto params = tr.data(0, "params");
        const auto indices = tr.constant(1, "indices");
        std::optional<Tensor> axis;
        if (axisInput) axis = tr.scalar(2, "axis");
        const std::int64_t batchDims = intAttr(node, "batch_dims");
        tr.show("batch_dims", std::to_string(batchDims));
        if (tr.failed()) return;
        req.op = engineOp;
        req.inputs.push_back({"params", {*params}});
        req.inputs.push_back(
            {"indices", {{indices->dtype(), indices->shape(), indices, "indices"}}});
        req.attrs = {{"batch_dims", batchDims}};
        if (engineOp == "gather") req.attrs["axis"] = axis ? axis->toInt64Vector()[0] : 0;
    };
}

// Pad, PadV2 (constant_values as input 2) and MirrorPad (its mode attribute).
Translator pad(bool withValue, bool mirror)
{
    return [=](const ModelNode& node, Translation& tr, NodeRequest& req) {
        const auto input = tr.data(0, "input");
        const auto paddings = tr.pairs(1, "paddings");
        std::optional<Tensor> fill;
        if (withValue) fill = tr.scalar(2, "constant_values");
        const std::string mode = mirror ? stringAttr(node, "mode") : "CONSTANT";
        if (mirror) tr.show("mode", mode);
        if (tr.failed()) return;
        req.op = "pad";
        req.inputs.push_back({"tensor", {*input}});
        req.attrs = {{"paddings", *paddings}, {"mode", mode}};
        if (fill) req.attrs["constant_values"] = scalarAttr(*fill);
    };
}

// Where a joining op keeps its axis: ConcatV2 as its last input, Concat (TensorFlow 1) as its
// first, Pack as an attribute.
enum class AxisAt { LastInput, FirstInput, Attribute };

Translator join(std::string engineOp, AxisAt at)
{
    return [=](const ModelNode& node, Translation& tr, NodeRequest& req) {
        const std::size_t n = node.inputs.size();
        const std::size_t first = at == AxisAt::FirstInput ? 1 : 0;
        const std::size_t last = at == AxisAt::LastInput ? (n ? n - 1 : 0) : n;
        std::vector<RequestTensor> values;
        for (std::size_t k = first; k < last; ++k)
            if (auto t = tr.data(k, "values[" + std::to_string(k - first) + "]"))
                values.push_back(*t);
        std::optional<Tensor> axis;
        if (at != AxisAt::Attribute) axis = tr.scalar(at == AxisAt::FirstInput ? 0 : n - 1, "axis");
        if (at == AxisAt::Attribute) tr.show("axis", std::to_string(intAttr(node, "axis")));
        if (tr.failed()) return;
        req.op = engineOp;
        req.inputs.push_back({"values", values});
        req.attrs = {{"axis", axis ? axis->toInt64Vector()[0] : intAttr(node, "axis")}};
    };
}

// Split (axis, then the tensor; num_split pieces) and SplitV (tensor, size_splits, axis).
Translator split(bool sized)
{
    return [=](const ModelNode& node, Translation& tr, NodeRequest& req) {
        const auto axis = tr.scalar(sized ? 2 : 0, "axis");
        const auto input = tr.data(sized ? 0 : 1, "value");
        std::optional<std::vector<std::int64_t>> sizes;
        if (sized) sizes = tr.ints(1, "size_splits");
        tr.show("num_split", std::to_string(intAttr(node, "num_split")));
        if (tr.failed()) return;
        req.op = "split";
        req.inputs.push_back({"value", {*input}});
        req.attrs = {
            {"num_or_size_splits", sized ? Attr::ints(*sizes) : Attr(intAttr(node, "num_split"))},
            {"axis", axis->toInt64Vector()[0]}};
    };
}

// Unique (y, idx) and UniqueWithCounts (y, idx, count).
Translator unique(bool withCounts)
{
    return [=](const ModelNode& node, Translation& tr, NodeRequest& req) {
        const auto x = tr.data(0, "x");
        const std::string idx = stringAttr(node, "out_idx", "DT_INT32");
        tr.show("out_idx", idx);
        if (tr.failed()) return;
        req.op = "unique_with_counts";
        req.inputs.push_back({"x", {*x}});
        req.attrs = {{"out_idx", idx == "DT_INT64" ? "int64" : "int32"}};
        if (!withCounts) req.outputOf = {0, 1};
    };
}

// An op of the family: its name, its translation, and how many outputs it has where the graph
// does not store their shapes: the attribute that counts them, or `outputs`.
struct GraphDefOp
{
    std::string name;
    Translator translate;
    const char* outputsAttr = nullptr;
    int outputs = 1;
};

const std::vector<GraphDefOp>& graphDefOps()
{
    static const std::vector<GraphDefOp> ops = {
        {"StridedSlice", stridedSlice},
        {"Slice", dataWithIntLists("slice", "input", "input", {"begin", "size"})},
        {"GatherV2", gather("gather", true)},
        {"Gather", gather("gather", false)},
        {"GatherNd", gather("gather_nd", false)},
        {"Pad", pad(false, false)},
        {"PadV2", pad(true, false)},
        {"MirrorPad", pad(false, true)},
        {"Transpose", dataWithIntLists("transpose", "input", "a", {"perm"})},
        {"Tile", dataWithIntLists("tile", "input", "input", {"multiples"})},
        {"ConcatV2", join("concat", AxisAt::LastInput)},
        {"Concat", join("concat", AxisAt::FirstInput)},
        {"Split", split(false), "num_split"},
        {"SplitV", split(true), "num_split"},
        {"Pack", join("stack", AxisAt::Attribute)},
        {"Unpack", unstackFrom("value"), "num"},
        {"ReverseV2", dataWithIntLists("reverse", "input", "tensor", {"axis"})},
        {"ReverseSequence", translateReverseSequence},
        {"SpaceToBatchND", spaceBatchNd(true)},
        {"BatchToSpaceND", spaceBatchNd(false)},
        {"DepthToSpace", depthSpace("depth_to_space", true)},
        {"SpaceToDepth", depthSpace("space_to_depth", true)},
        {"OneHot", oneHot(false)},
        {"Unique", unique(false), nullptr, 2},
        {"UniqueWithCounts", unique(true), nullptr, 3},
    };
    return ops;
}

} // namespace

bool isGraphDefFamilyOp(const std::string& op)
{
    return findFileOp(graphDefOps(), op) != nullptr;
}

int graphDefOutputCount(const ModelNode& node)
{
    const GraphDefOp* op = findFileOp(graphDefOps(), node.op);
    if (!op) return 1;
    if (!op->outputsAttr) return op->outputs;
    return int(std::clamp<std::int64_t>(intAttr(node, op->outputsAttr), 1, 1 << 16));
}

std::vector<std::string> graphDefOpNames()
{
    return fileOpNames(graphDefOps());
}

void translateGraphDefNode(ModelNode& node)
{
    translateByTable(graphDefOps(), node);
}

} // namespace ss::model
