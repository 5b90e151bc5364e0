// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What every reader does to turn one node into an engine request: take the tensors the engine
// moves (constants, or arange fills of their stored shape), insist that arguments are constants,
// show them for display, and stop at the first thing it cannot model with a reason (and, when
// that is a value known only at run time, the input it is). Each reader keeps its ops in a table
// (onnx_ops.cpp, tflite_ops.cpp, graphdef_ops.cpp): one entry per op of the file, looked up by
// the op's name; the translations TFLite and TensorFlow graphs share are here.

#include "core/decode.h"
#include "core/error.h"
#include "core/slice_expr.h"
#include "core/strings.h"
#include "model/model_graph.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ss::model {

/// Element `i` of a constant as Python prints it: integers in full (uint64 beyond int64 too),
/// float32 and float64 as Python's repr, float16 and bfloat16 in their own shortest form,
/// complex as "(a+bj)". Strings are not shown element by element.
inline std::string elementText(const Tensor& t, std::int64_t i)
{
    const DType d = t.dtype();
    if (d == DType::UInt64) return std::to_string(t.data<std::uint64_t>()[i]);
    if (d == DType::Float16 || d == DType::BFloat16) return shortestDecimal(t.doubleAt(i), d);
    if (isFloat(d)) return pythonFloatRepr(t.doubleAt(i));
    if (isComplex(d)) {
        const std::complex<double> c = t.complexAt(i);
        const DType part = d == DType::Complex64 ? DType::Float32 : DType::Float64;
        const std::string imag = shortestDecimal(c.imag(), part);
        return "(" + shortestDecimal(c.real(), part) + (imag.front() == '-' ? "" : "+") + imag +
               "j)";
    }
    return std::to_string(t.intAt(i));
}

/// Why a node has no request, and the input (ModelNode::blockedBy) whose value, given, would let
/// its translation go on.
struct Refusal
{
    std::string reason;
    std::vector<std::size_t> blockedBy;
};

/// The one place that says an input's value is computed at run time: `input` names node input
/// `k` ("'starts' (Slice_starts)"), `then` says what to do about it.
inline Refusal computedAtRunTime(std::size_t k, const std::string& input,
                                 const std::string& then = "")
{
    return {input + " is computed at run time" + then, {k}};
}

/// Node input `k` blocks the request for another reason that a value given for it removes (its
/// shape or type is known only at run time).
inline Refusal waitsForValue(std::size_t k, std::string reason)
{
    return {std::move(reason), {k}};
}

/// A translation starts afresh: what an earlier one found (before a value was given) goes.
inline void startTranslation(ModelNode& node)
{
    node.attributes.clear();
    node.request.reset();
    node.reason.clear();
    node.blockedBy.clear();
}

/// Builds a node's request input by input, or stops at the first thing it cannot model.
class Translation
{
public:
    explicit Translation(ModelNode& node) : m_node(node) { startTranslation(node); }

    const ModelNode& node() const { return m_node; }
    bool failed() const { return !m_refusal.reason.empty(); }

    /// The node input `k`, named `role`: present in the file.
    const ModelValue* input(std::size_t k, const std::string& role)
    {
        if (failed()) return nullptr;
        if (k >= m_node.inputs.size() || m_node.inputs[k].name.empty()) {
            fail(m_node.op + " needs its input " + std::to_string(k) + " (" + role +
                 "), which the file does not give");
            return nullptr;
        }
        return &m_node.inputs[k];
    }

    /// A tensor the engine moves: its value if the file holds it, else an arange fill of its
    /// shape (the stored one, with unknown sizes as the file's placeholder sizes).
    std::optional<RequestTensor> data(std::size_t k, const std::string& role)
    {
        const ModelValue* v = input(k, role);
        if (!v) return std::nullopt;
        if (!v->dtype) {
            fail(role + " is " + v->dtypeText + ", a type SliceScope does not have");
            return std::nullopt;
        }
        if (!v->stored.hasRank) {
            fail("the file gives no shape for " + role + " ('" + v->name + "')");
            return std::nullopt;
        }
        RequestTensor t;
        t.dtype = *v->dtype;
        t.from = role;
        if (v->constant) {
            t.shape = v->constant->shape();
            t.value = v->constant;
        } else {
            for (std::int64_t d : v->stored.dims)
                t.shape.push_back(d == StoredShape::kUnknownDim ? 1 : d);
            if (!v->stored.isFullyKnown())
                note(role + " has unknown dimensions " + v->stored.text() +
                     "; SliceScope uses size 1 for them, as the file's shape does");
        }
        return t;
    }

    /// An argument: it must be a constant in the file (or a value the user gave it).
    std::optional<Tensor> constant(std::size_t k, const std::string& role)
    {
        const ModelValue* v = input(k, role);
        if (!v) return std::nullopt;
        if (!v->constant && !v->dtype) {
            fail(role + " ('" + v->name + "') is " + v->dtypeText +
                 ", a type SliceScope does not have");
            return std::nullopt;
        }
        if (!v->constant) {
            fail(computedAtRunTime(k, role + " ('" + v->name + "')",
                                   "; give it a value to see what the node does"));
            return std::nullopt;
        }
        show(role, valueText(*v->constant));
        return v->constant;
    }

    /// An integer argument as a flat list.
    std::optional<std::vector<std::int64_t>> ints(std::size_t k, const std::string& role)
    {
        const auto t = constant(k, role);
        if (!t) return std::nullopt;
        if (!isInteger(t->dtype())) {
            fail(role + " is " + std::string(dtypeName(t->dtype())) + ", not integers");
            return std::nullopt;
        }
        return t->toInt64Vector();
    }

    /// A [n, 2] integer argument (paddings, crops) as [[before, after], ...].
    std::optional<Attr> pairs(std::size_t k, const std::string& role)
    {
        const auto t = constant(k, role);
        if (!t) return std::nullopt;
        if (!isInteger(t->dtype()) || t->rank() != 2 || t->shape()[1] != 2) {
            fail(role + " must be integers of shape (n, 2), not " +
                 std::string(dtypeName(t->dtype())) + " " + shapeTuple(t->shape()));
            return std::nullopt;
        }
        const auto v = t->toInt64Vector();
        Attr::List rows;
        for (std::size_t r = 0; r + 1 < v.size(); r += 2)
            rows.push_back(Attr::List{v[r], v[r + 1]});
        return Attr(rows);
    }

    /// A scalar argument (an axis, a depth): one element of any shape.
    std::optional<Tensor> scalar(std::size_t k, const std::string& role)
    {
        const auto t = constant(k, role);
        if (!t) return std::nullopt;
        if (t->size() != 1) {
            fail(role + " must hold one value, not " + std::to_string(t->size()));
            return std::nullopt;
        }
        return t;
    }

    void show(const std::string& name, const std::string& text)
    {
        m_node.attributes.push_back({name, text});
    }
    void fail(const std::string& reason) { fail(Refusal{reason, {}}); }
    void fail(Refusal refusal)
    {
        if (!failed()) m_refusal = std::move(refusal);
    }
    void note(const std::string& text) { m_notes += (m_notes.empty() ? "" : "; ") + text; }

    void finish(NodeRequest request)
    {
        if (failed()) {
            m_node.reason = m_refusal.reason;
            m_node.blockedBy = m_refusal.blockedBy;
            return;
        }
        m_node.request = std::move(request);
        m_node.reason = m_notes;
    }

    static std::string valueText(const Tensor& t)
    {
        if (t.dtype() == DType::String) return "strings " + shapeTuple(t.shape());
        if (t.size() > 16) return std::string(dtypeName(t.dtype())) + " " + shapeTuple(t.shape());
        std::string text = "[";
        for (std::int64_t i = 0; i < t.size(); ++i)
            text += (i ? ", " : "") + elementText(t, i);
        text += "]";
        if (t.rank() == 0) text = text.substr(1, text.size() - 2);
        return text;
    }

private:
    ModelNode& m_node;
    Refusal m_refusal;
    std::string m_notes;
};

/// An attribute from a one-element tensor (bool, integer or float).
inline Attr scalarAttr(const Tensor& t)
{
    if (t.dtype() == DType::Bool) return Attr(t.toInt64Vector()[0] != 0);
    if (isFloat(t.dtype()) || isComplex(t.dtype())) return Attr(t.doubleAt(0)); // real part
    return Attr(t.toInt64Vector()[0]);
}

/// A node's integer attribute as the reader stored it (rawAttrs), or `fallback`.
inline std::int64_t intAttr(const ModelNode& node, const char* name, std::int64_t fallback = 0)
{
    const auto it = node.rawAttrs.find(name);
    return it != node.rawAttrs.end() && it->second.isInt() ? it->second.toInt() : fallback;
}

/// A node's string attribute, or `fallback`.
inline std::string stringAttr(const ModelNode& node, const char* name,
                              const std::string& fallback = "")
{
    const auto it = node.rawAttrs.find(name);
    return it != node.rawAttrs.end() && it->second.isString() ? it->second.toString() : fallback;
}

// ---- the op tables of TFLite and TensorFlow graphs --------------------------------------------

/// How one op of a file becomes an engine request: reads the node's inputs and attributes through
/// `tr` (which stops at the first thing it cannot model) and fills `req`.
using Translator = std::function<void(const ModelNode& node, Translation& tr, NodeRequest& req)>;

/// The entry of a reader's op table (entries with the op's `name` as the file spells it) for
/// `name`, or null: an op the reader does not translate.
template <class Entry>
const Entry* findFileOp(const std::vector<Entry>& table, const std::string& name)
{
    const auto it =
        std::find_if(table.begin(), table.end(), [&](const Entry& e) { return e.name == name; });
    return it == table.end() ? nullptr : &*it;
}

/// The names of a table's ops, in its order: the ops the reader lists.
template <class Entry> std::vector<std::string> fileOpNames(const std::vector<Entry>& table)
{
    std::vector<std::string> names;
    for (const Entry& e : table)
        names.push_back(e.name);
    return names;
}

/// Translates `node` with its entry of `table` (entries with a `name` and a Translator
/// `translate`); `finish` runs before the request is kept (what the reader shows of every node).
template <class Entry>
void translateByTable(const std::vector<Entry>& table, ModelNode& node,
                      const std::function<void(const ModelNode&, Translation&)>& finish = {})
{
    Translation tr(node);
    NodeRequest req;
    if (const Entry* op = findFileOp(table, node.op))
        op->translate(node, tr, req);
    else
        tr.fail("internal: " + node.op + " has no translation");
    if (finish) finish(node, tr);
    tr.finish(std::move(req));
}

// Ops that TFLite and TensorFlow graphs spell alike (attributes seq_dim, batch_dim; inputs
// input, block_shape, paddings or crops), translated once for both readers.

/// An op whose input 0 is the tensor the engine moves (`role`, the engine's input `engineInput`)
/// and whose other inputs are integer lists, each the engine attribute of its name: Slice (begin,
/// size), Transpose (perm), Tile (multiples), ReverseV2 (axis).
inline Translator dataWithIntLists(std::string engineOp, std::string role, std::string engineInput,
                                   std::vector<std::string> lists)
{
    return [=](const ModelNode&, Translation& tr, NodeRequest& req) {
        const auto input = tr.data(0, role);
        std::vector<std::optional<std::vector<std::int64_t>>> values;
        for (std::size_t k = 0; k < lists.size(); ++k)
            values.push_back(tr.ints(k + 1, lists[k]));
        if (tr.failed()) return;
        req.op = engineOp;
        req.inputs.push_back({engineInput, {*input}});
        for (std::size_t k = 0; k < lists.size(); ++k)
            req.attrs[lists[k]] = Attr::ints(*values[k]);
    };
}

/// A mask attribute shown as its number and bits: "5 (0b101: dims 0, 2)".
inline void showMask(const ModelNode& node, Translation& tr, const char* name, int entries)
{
    const std::int64_t m = intAttr(node, name);
    tr.show(name, std::to_string(m) + " (" + maskBinary(std::int32_t(m), entries) + ")");
}

/// StridedSlice / STRIDED_SLICE's inputs: the tensor, begin, end and strides.
struct StridedSliceInputs
{
    std::optional<RequestTensor> input;
    std::optional<std::vector<std::int64_t>> begin, end, strides;
};

/// Reads them and shows the five masks (with as many entries as begin has).
inline StridedSliceInputs readStridedSlice(const ModelNode& node, Translation& tr)
{
    StridedSliceInputs in;
    in.input = tr.data(0, "input");
    in.begin = tr.ints(1, "begin");
    in.end = tr.ints(2, "end");
    in.strides = tr.ints(3, "strides");
    const int entries = in.begin ? int(in.begin->size()) : 0;
    for (const char* m :
         {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"})
        showMask(node, tr, m, entries);
    return in;
}

/// The spec they and the masks make (every input read).
inline SparseSpec sparseSpecOf(const ModelNode& node, const StridedSliceInputs& in)
{
    SparseSpec sparse;
    sparse.begin = *in.begin;
    sparse.end = *in.end;
    sparse.strides = *in.strides;
    sparse.beginMask = std::int32_t(intAttr(node, "begin_mask"));
    sparse.endMask = std::int32_t(intAttr(node, "end_mask"));
    sparse.ellipsisMask = std::int32_t(intAttr(node, "ellipsis_mask"));
    sparse.newAxisMask = std::int32_t(intAttr(node, "new_axis_mask"));
    sparse.shrinkAxisMask = std::int32_t(intAttr(node, "shrink_axis_mask"));
    return sparse;
}

/// Shows the spec as the subscript it means, where begin, end and strides agree in length and
/// the encoder can write one (otherwise the engine's error says why).
inline void showSubscript(Translation& tr, const SparseSpec& sparse)
{
    if (sparse.begin.size() != sparse.end.size() || sparse.end.size() != sparse.strides.size())
        return;
    try {
        tr.show("subscript", toExpr(sparse));
    } catch (const OpError&) {
        // A spec the encoder cannot write as a subscript: the engine's error says why.
    }
}

/// Unpack / UNPACK: the tensor (`role`), num and axis.
inline Translator unstackFrom(std::string role)
{
    return [=](const ModelNode& node, Translation& tr, NodeRequest& req) {
        const auto input = tr.data(0, role);
        tr.show("num", std::to_string(intAttr(node, "num")));
        tr.show("axis", std::to_string(intAttr(node, "axis")));
        if (tr.failed()) return;
        req.op = "unstack";
        req.inputs.push_back({"value", {*input}});
        req.attrs = {{"num", intAttr(node, "num")}, {"axis", intAttr(node, "axis")}};
    };
}

/// OneHot / ONE_HOT: indices, depth, on_value, off_value and the axis attribute (default -1).
/// `oneType`: on_value and off_value must have one type (TFLite's rule).
inline Translator oneHot(bool oneType)
{
    return [oneType](const ModelNode& node, Translation& tr, NodeRequest& req) {
        const auto indices = tr.data(0, "indices");
        const auto depth = tr.scalar(1, "depth");
        const auto on = tr.scalar(2, "on_value");
        const auto off = tr.scalar(3, "off_value");
        tr.show("axis", std::to_string(intAttr(node, "axis", -1)));
        if (oneType && !tr.failed() && on->dtype() != off->dtype())
            tr.fail("on_value is " + std::string(dtypeName(on->dtype())) + " but off_value is " +
                    std::string(dtypeName(off->dtype())) + " (TFLite needs one type)");
        if (tr.failed()) return;
        req.op = "one_hot";
        req.inputs.push_back({"indices", {*indices}});
        req.attrs = {{"depth", depth->toInt64Vector()[0]},
                     {"on_value", scalarAttr(*on)},
                     {"off_value", scalarAttr(*off)},
                     {"axis", intAttr(node, "axis", -1)},
                     {"dtype", std::string(dtypeName(on->dtype()))}};
    };
}

/// DepthToSpace / SpaceToDepth (DEPTH_TO_SPACE / SPACE_TO_DEPTH), NHWC as the engine's.
/// `hasFormat`: TensorFlow's data_format attribute, shown; NCHW is named as not modelled.
inline Translator depthSpace(std::string engineOp, bool hasFormat)
{
    return [=](const ModelNode& node, Translation& tr, NodeRequest& req) {
        const auto input = tr.data(0, "input");
        const std::string format = stringAttr(node, "data_format", "NHWC");
        tr.show("block_size", std::to_string(intAttr(node, "block_size")));
        if (hasFormat) tr.show("data_format", format);
        if (format != "NHWC")
            tr.fail("data_format " + format + " is not modelled (SliceScope has NHWC)");
        if (tr.failed()) return;
        req.op = engineOp;
        req.inputs.push_back({"input", {*input}});
        req.attrs = {{"block_size", intAttr(node, "block_size")}};
    };
}

/// ReverseSequence / REVERSE_SEQUENCE.
inline void translateReverseSequence(const ModelNode& node, Translation& tr, NodeRequest& req)
{
    const auto input = tr.data(0, "input");
    const auto lengths = tr.constant(1, "seq_lengths");
    tr.show("seq_dim", std::to_string(intAttr(node, "seq_dim")));
    tr.show("batch_dim", std::to_string(intAttr(node, "batch_dim")));
    if (tr.failed()) return;
    req.op = "reverse_sequence";
    req.inputs.push_back({"input", {*input}});
    req.inputs.push_back(
        {"seq_lengths", {{lengths->dtype(), lengths->shape(), lengths, "seq_lengths"}}});
    req.attrs = {{"seq_axis", intAttr(node, "seq_dim")},
                 {"batch_axis", intAttr(node, "batch_dim")}};
}

/// SpaceToBatchND / BatchToSpaceND (SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND).
inline Translator spaceBatchNd(bool toBatch)
{
    return [toBatch](const ModelNode&, Translation& tr, NodeRequest& req) {
        const auto input = tr.data(0, "input");
        const auto block = tr.ints(1, "block_shape");
        const auto pads = tr.pairs(2, toBatch ? "paddings" : "crops");
        if (tr.failed()) return;
        req.op = toBatch ? "space_to_batch_nd" : "batch_to_space_nd";
        req.inputs.push_back({"input", {*input}});
        req.attrs = {{"block_shape", Attr::ints(*block)}, {toBatch ? "paddings" : "crops", *pads}};
    };
}

} // namespace ss::model
