// SPDX-License-Identifier: GPL-3.0-or-later
// ONNX (opset 13): a subscript becomes a graph. One Slice node takes every slice (starts, ends,
// axes, steps; an omitted bound is INT64_MAX or INT64_MIN, as the spec recommends), one Gather
// per integer (a scalar index removes its axis; the spec calls an index outside [-s, s-1] an
// error), and one Unsqueeze adds the new axes. Slice's rule, from the operator's spec: add the
// dimension to negative starts and ends, then clamp starts into [0, dim] and ends into [0, dim]
// for a positive step, starts into [0, dim - 1] and ends into [-1, dim - 1] for a negative one.
// onnx 1.12 (Debian's python3-onnx) has no reference runtime; tests/differential evaluates the
// graphs with these formulas and checks them with onnx.checker.
#include "core/frameworks/onnx_model.h"

#include "core/error.h"
#include "core/onnx_slice_axis.h"
#include "core/strings.h"

#include <algorithm>
#include <limits>

namespace ss {

using namespace frameworks;

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

struct GatherNode
{
    int axis;
    std::int64_t index;
    int item;
};

// The graph for a subscript on an input of rank `rank`, or the reason there is none.
struct OnnxGraph
{
    std::vector<std::int64_t> axes, starts, ends, steps;
    std::vector<int> sliceItems;
    std::vector<GatherNode> gathers; // in the order they run: highest axis first
    std::vector<std::int64_t> unsqueeze;
    std::vector<int> layout; // basicLayout
    std::string notModelled;
    std::string error; // an axis outside the rank
};

OnnxGraph buildGraph(const IndexSpec& spec, int rank)
{
    OnnxGraph g;
    if (!spec.subscript) {
        g.notModelled = spec.noSubscriptMessage();
        return g;
    }
    const Subscript& sub = *spec.subscript;
    if (const std::string why = advancedIndexingReason(sub, "NumPy"); !why.empty()) {
        g.notModelled = "ONNX has no subscripts; SliceScope translates integers, slices, None and "
                        "... into Slice, Gather and Unsqueeze. Here " +
                        why;
        return g;
    }
    const auto& items = sub.items;
    if (ellipsisCount(items) > 1) {
        g.notModelled = "Two ellipses have no translation into a graph (NumPy and TensorFlow "
                        "refuse the subscript too).";
        return g;
    }
    const std::vector<int> dims = consumedDims(items, rank);
    for (std::size_t k = 0; k < items.size(); ++k) {
        const SubscriptItem& it = items[k];
        const int dim = dims[k];
        if (dim == -2) {
            g.error = std::string(it.kind == SubscriptItem::Kind::Integer ? "Gather: axis "
                                                                          : "Slice: axes value ") +
                      num(rank) + " is outside the accepted range [" + num(-rank) + ", " +
                      num(rank - 1) + "] for an input of rank " + num(rank) +
                      " (the subscript indexes " + num(indexedDims(items)) + " dimensions).";
            return g;
        }
        if (it.kind == SubscriptItem::Kind::Slice) {
            const std::int64_t step = it.step.value_or(1);
            if (!it.start && !it.stop && step == 1) continue; // ':' needs no Slice entry
            g.axes.push_back(dim);
            g.starts.push_back(it.start.value_or(step < 0 ? kMax : 0));
            g.ends.push_back(it.stop.value_or(step < 0 ? kMin : kMax));
            g.steps.push_back(step);
            g.sliceItems.push_back(int(k));
        } else if (it.kind == SubscriptItem::Kind::Integer) {
            g.gathers.push_back({dim, *it.start, int(k)});
        }
    }
    std::sort(g.gathers.begin(), g.gathers.end(),
              [](const GatherNode& a, const GatherNode& b) { return a.axis > b.axis; });
    g.layout = basicLayout(items, rank);
    for (std::size_t k = 0; k < g.layout.size(); ++k)
        if (g.layout[k] < 0) g.unsqueeze.push_back(std::int64_t(k));
    return g;
}

} // namespace

Framework OnnxModel::id() const
{
    return Framework::Onnx;
}

std::string_view OnnxModel::title() const
{
    return "ONNX opset 13";
}

FrameworkOutcome OnnxModel::plan(const IndexSpec& spec, const Tensor& input,
                                 const Limits& limits) const
{
    const Framework fw = Framework::Onnx;
    const Shape& shape = input.shape();
    const int rank = int(shape.size());
    const OnnxGraph g = buildGraph(spec, rank);
    std::vector<Step> steps;
    if (!g.notModelled.empty()) return notModelledOutcome(fw, g.notModelled, steps);
    if (!g.error.empty()) return errorOutcome(fw, "ONNX", g.error, steps);
    std::vector<AxisPick> picks = wholePicks(shape);
    for (std::size_t i = 0; i < g.axes.size(); ++i) {
        const int dim = int(g.axes[i]);
        const std::int64_t d = shape[std::size_t(dim)];
        const std::int64_t step = g.steps[i];
        const int item = g.sliceItems[i];
        if (step == 0) // onnx.checker's shape inference (full_check) says so, in these words
            return errorOutcome(fw, "InferenceError",
                                "[ShapeInferenceError] 'step' cannot be 0 for Slice", steps);
        const OnnxSliceAxis a = onnxSliceAxis(d, g.starts[i], g.ends[i], step);
        const std::string detail =
            "Slice on axis " + num(dim) + " (size " + num(d) + "): " + a.detail;
        const std::int64_t first = a.first;
        const std::int64_t count = a.count;
        picks[std::size_t(dim)] = {first, step, count, false};
        steps.push_back(itemStep("Slice, axis " + num(dim), detail, item, dim));
    }
    for (const GatherNode& n : g.gathers) {
        const std::int64_t d = shape[std::size_t(n.axis)];
        if (n.index < -d || n.index >= d)
            return errorOutcome(
                fw, "ONNX",
                "Gather: index " + num(n.index) + " is out of bounds for axis " + num(n.axis) +
                    " of size " + num(d) + "; every index must lie in [" + num(-d) + ", " +
                    num(d - 1) +
                    "] (ONNX Runtime: indices element out of data bounds, idx=" + num(n.index) +
                    " must be within the inclusive range [" + num(-d) + "," + num(d - 1) + "]).",
                steps);
        const std::int64_t at = n.index < 0 ? n.index + d : n.index;
        picks[std::size_t(n.axis)] = {at, 1, 1, true};
        steps.push_back(itemStep("Gather, axis " + num(n.axis),
                                 "A scalar index " + num(n.index) + " takes element " + num(at) +
                                     " and removes the axis (Gather with a rank-0 index).",
                                 n.item, n.axis));
    }
    if (!g.unsqueeze.empty())
        steps.push_back({"Unsqueeze",
                         "Unsqueeze inserts axes of size 1 at output positions " +
                             listText(g.unsqueeze) + " (the None items).",
                         {}});
    return resultOutcome(fw, input, std::move(picks), g.layout, std::move(steps), limits);
}

std::string OnnxModel::code(const IndexSpec& spec, const std::optional<Shape>& shape) const
{
    int rank = 0;
    if (spec.subscript) {
        const auto& items = spec.subscript->items;
        bool afterEllipsis = false;
        bool seen = false;
        for (const SubscriptItem& it : items) {
            if (it.kind == SubscriptItem::Kind::Ellipsis)
                seen = true;
            else if (seen && (it.kind == SubscriptItem::Kind::Integer ||
                              it.kind == SubscriptItem::Kind::Slice))
                afterEllipsis = true;
        }
        if (afterEllipsis && !shape)
            invalidArgument("the ONNX graph names axes by number, and the items after the "
                            "ellipsis need the input's rank: give the shape (--shape)");
        rank = shape ? int(shape->size()) : indexedDims(items);
    }
    const OnnxGraph g = buildGraph(spec, rank);
    if (!g.notModelled.empty()) invalidArgument(g.notModelled);
    if (!g.error.empty()) invalidArgument(g.error);
    std::string out = "import numpy as np\nimport onnx\nfrom onnx import TensorProto, helper\n\n"
                      "nodes, initializers = [], []\n\n\n"
                      "def constant(name, values, dims):\n"
                      "    initializers.append(helper.make_tensor(name, TensorProto.INT64, dims, "
                      "values))\n    return name\n\n\n";
    std::string last = "x";
    if (!g.axes.empty()) {
        const std::string n = num(std::int64_t(g.axes.size()));
        out += "# Slice: an omitted bound is INT64_MAX or INT64_MIN, as the spec recommends.\n";
        out += "nodes.append(helper.make_node(\"Slice\", [\"x\", constant(\"starts\", " +
               listText(g.starts) + ", [" + n + "]), constant(\"ends\", " + listText(g.ends) +
               ", [" + n + "]),\n                                       constant(\"axes\", " +
               listText(g.axes) + ", [" + n + "]), constant(\"steps\", " + listText(g.steps) +
               ", [" + n + "])], [\"sliced\"]))\n";
        last = "sliced";
    }
    for (const GatherNode& gn : g.gathers) {
        const std::string name = "index" + num(gn.axis);
        const std::string outName = "gathered" + num(gn.axis);
        out += "# Gather with a scalar index removes axis " + num(gn.axis) + ".\n";
        out += "nodes.append(helper.make_node(\"Gather\", [\"" + last + "\", constant(\"" + name +
               "\", [" + num(gn.index) + "], [])], [\"" + outName + "\"], axis=" + num(gn.axis) +
               "))\n";
        last = outName;
    }
    if (!g.unsqueeze.empty()) {
        out += "nodes.append(helper.make_node(\"Unsqueeze\", [\"" + last +
               "\", constant(\"new_axes\", " + listText(g.unsqueeze) + ", [" +
               num(std::int64_t(g.unsqueeze.size())) + "])], [\"unsqueezed\"]))\n";
        last = "unsqueezed";
    }
    out += "nodes.append(helper.make_node(\"Identity\", [\"" + last + "\"], [\"y\"]))\n\n";
    out += "element_type = onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.asarray(x).dtype]\n"
           "graph = helper.make_graph(\n"
           "    nodes, \"slicescope\",\n"
           "    [helper.make_tensor_value_info(\"x\", element_type, list(np.shape(x)))],\n"
           "    [helper.make_tensor_value_info(\"y\", element_type, [None] * (np.ndim(x) - " +
           num(std::int64_t(g.gathers.size())) + " + " + num(std::int64_t(g.unsqueeze.size())) +
           "))],\n"
           "    initializer=initializers)\n"
           "model = helper.make_model(graph, opset_imports=[helper.make_opsetid(\"\", 13)])\n"
           "onnx.checker.check_model(model)\n"
           "# Run it with ONNX Runtime: onnxruntime.InferenceSession(model.SerializeToString())"
           ".run(None, {\"x\": x})[0]\n"
           "model\n";
    return out;
}

} // namespace ss
