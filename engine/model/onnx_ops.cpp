// SPDX-License-Identifier: GPL-3.0-or-later
// The ONNX reader's op table: per op of the slicing family, its inputs as the operator's spec
// names them and how it becomes a request of the engine's ops with ONNX's semantics (the opset's
// rules); where the engine's op means something else (a layout, a mode, sorting), the node says
// so instead of computing it. Adding an op is adding an entry.
#include "model/onnx_ops.h"

#include "core/checked.h"
#include "core/error.h"
#include "core/strings.h"
#include "model/node_translation.h"
#include "model/onnx_reader.h"

#include <algorithm>
#include <functional>
#include <set>

namespace ss::model {

namespace {

// Thrown inside a translation: the node gets no request, and this reason.
[[noreturn]] void noRequest(const std::string& reason)
{
    throw Refusal{reason, {}};
}

std::string attrText(const Attr& a)
{
    if (a.isInt()) return num(a.toInt());
    if (a.isFloat()) {
        std::string t = std::to_string(a.toDouble());
        while (t.size() > 1 && t.back() == '0' && t[t.size() - 2] != '.')
            t.pop_back();
        return t;
    }
    if (a.isString()) return "'" + a.toString() + "'";
    if (a.isList()) {
        std::string t = "[";
        const auto& l = a.toList();
        for (std::size_t k = 0; k < l.size(); ++k) {
            if (k == 16) return t + ", ... (" + num(std::int64_t(l.size())) + " values)]";
            t += (k ? ", " : "") + attrText(l[k]);
        }
        return t + "]";
    }
    return "?";
}

// A constant's values for display: integers as a list, the others by dtype and shape.
std::string constantText(const Tensor& t)
{
    if (t.dtype() == DType::Bool || isInteger(t.dtype())) {
        if (t.rank() == 0) return t.size() ? elementText(t, 0) : "0";
        std::string s = "[";
        for (std::int64_t i = 0; i < t.size(); ++i) {
            if (i == 16) return s + ", ... (" + num(t.size()) + " values)]";
            s += (i ? ", " : "") + elementText(t, i);
        }
        return s + "]";
    }
    if (t.dtype() != DType::String && t.size() <= 8) {
        std::string s = t.rank() == 0 ? "" : "[";
        for (std::int64_t i = 0; i < t.size(); ++i)
            s += (i ? ", " : "") + (t.dtype() == DType::Float32 || t.dtype() == DType::Float64
                                        ? attrText(Attr(t.doubleAt(i)))
                                        : elementText(t, i));
        return s + (t.rank() == 0 ? "" : "]");
    }
    return std::string(dtypeName(t.dtype())) + " " + shapeTuple(t.shape());
}

// Reads a node's inputs and attributes for its translation; every miss is a Refusal.
class NodeReader
{
public:
    NodeReader(const ModelNode& node, const std::vector<std::string>& inputNames)
        : m_node(node), m_inputNames(inputNames)
    {
    }

    // Input k as the operator's spec names it, else "inputs[k]".
    std::string inputName(std::size_t k) const
    {
        return k < m_inputNames.size() ? m_inputNames[k] : "inputs[" + num(std::int64_t(k)) + "]";
    }

    bool has(std::size_t k) const
    {
        return k < m_node.inputs.size() && !m_node.inputs[k].name.empty();
    }
    const ModelValue& value(std::size_t k) const
    {
        if (!has(k)) noRequest("input '" + inputName(k) + "' is missing");
        return m_node.inputs[k];
    }
    // A tensor input of the request: its value when known, else an arange fill of its stored
    // shape, which must be known.
    RequestTensor tensor(std::size_t k) const
    {
        const ModelValue& v = value(k);
        const std::string what = "input '" + inputName(k) + "' (" + v.name + ")";
        RequestTensor t;
        t.from = inputName(k);
        if (v.constant) {
            t.dtype = v.constant->dtype();
            t.shape = v.constant->shape();
            t.value = v.constant;
            return t;
        }
        // Not stored, nor inferred (the node before could not be): said as such, not as a
        // type "unknown" that SliceScope lacks.
        if (!v.dtype && v.dtypeText.empty())
            throw waitsForValue(k, "the element type of " + what +
                                       " is neither stored in the file nor inferred from it: "
                                       "give it a value");
        if (!v.dtype)
            noRequest(what + " has element type " + v.dtypeText +
                      ", which SliceScope does not have");
        if (!v.stored.isFullyKnown())
            throw waitsForValue(k, "the shape of " + what + " is not known (" + v.stored.text() +
                                       "): give it a value");
        t.dtype = *v.dtype;
        t.shape = *v.stored.shape();
        return t;
    }
    // A shape input's integer values, which must be constant.
    // "'starts' (Slice_starts)": the input as the spec names it, and as the file does.
    std::string named(std::size_t k) const
    {
        const std::string spec = inputName(k);
        const std::string& file = m_node.inputs[k].name;
        return "'" + spec + "'" + (file == spec ? "" : " (" + file + ")");
    }
    std::vector<std::int64_t> ints(std::size_t k) const
    {
        const ModelValue& v = value(k);
        if (!v.constant) throw computedAtRunTime(k, named(k));
        if (v.constant->dtype() == DType::String)
            noRequest("'" + inputName(k) + "' holds strings, not integers");
        return v.constant->toInt64Vector();
    }
    const Tensor& constant(std::size_t k) const
    {
        const ModelValue& v = value(k);
        if (!v.constant) throw computedAtRunTime(k, named(k));
        return *v.constant;
    }
    const Attr* attr(const std::string& name) const
    {
        const auto it = m_node.rawAttrs.find(name);
        return it == m_node.rawAttrs.end() ? nullptr : &it->second;
    }
    std::int64_t intAttr(const std::string& name, std::int64_t fallback) const
    {
        const Attr* a = attr(name);
        if (!a) return fallback;
        if (!a->isInt()) noRequest("attribute " + name + " is not an integer");
        return a->toInt();
    }
    std::optional<std::vector<std::int64_t>> intsAttr(const std::string& name) const
    {
        const Attr* a = attr(name);
        if (!a) return std::nullopt;
        std::vector<std::int64_t> v;
        if (a->isList())
            for (const Attr& e : a->toList()) {
                if (!e.isInt()) noRequest("attribute " + name + " is not a list of integers");
                v.push_back(e.toInt());
            }
        else
            noRequest("attribute " + name + " is not a list of integers");
        return v;
    }
    std::string stringAttr(const std::string& name, const std::string& fallback) const
    {
        const Attr* a = attr(name);
        if (!a) return fallback;
        if (!a->isString()) noRequest("attribute " + name + " is not a string");
        return a->toString();
    }

private:
    const ModelNode& m_node;
    const std::vector<std::string>& m_inputNames;
};

Tensor int64Tensor(const Shape& shape, const std::vector<std::int64_t>& values)
{
    return Tensor::fromInts(DType::Int64, shape, values);
}

RequestTensor valueTensor(const std::string& from, Tensor t)
{
    RequestTensor r;
    r.from = from;
    r.dtype = t.dtype();
    r.shape = t.shape();
    r.value = std::move(t);
    return r;
}

// An axis attribute in [-rank, rank - 1] made non-negative; outside it, a Refusal naming
// ONNX's own refusal.
std::int64_t normaliseAxis(std::int64_t axis, std::int64_t rank, const std::string& op)
{
    if (axis < -rank || axis >= rank)
        noRequest(op + ": axis " + num(axis) + " is outside [" + num(-rank) + ", " + num(rank - 1) +
                  "]; ONNX refuses the node");
    return axis < 0 ? axis + rank : axis;
}

// Index values in [-size, -1] counted from the end, as ONNX does (TensorFlow refuses them);
// values outside [-size, size - 1] are left for the engine to refuse, as ONNX refuses them.
bool wrapNegative(std::vector<std::int64_t>& v, std::int64_t size)
{
    bool any = false;
    for (std::int64_t& x : v)
        if (x < 0 && x >= -size) {
            x += size;
            any = true;
        }
    return any;
}

std::vector<std::int64_t> indexValues(const Tensor& t, const std::string& what)
{
    if (t.dtype() != DType::Int32 && t.dtype() != DType::Int64)
        noRequest(what + " has element type " + std::string(dtypeName(t.dtype())) +
                  "; ONNX takes int32 or int64 indices");
    return t.toInt64Vector();
}

NodeRequest request(std::string op,
                    std::vector<std::pair<std::string, std::vector<RequestTensor>>> inputs,
                    Attrs attrs)
{
    NodeRequest r;
    r.op = std::move(op);
    r.inputs = std::move(inputs);
    r.attrs = std::move(attrs);
    return r;
}

// strided_slice arguments that keep every input dimension whole except those in `shrink`
// (taken at index 0 and removed), with a new axis at each output position in `newAxes`.
Attrs maskSlice(std::int64_t rank, const std::set<std::int64_t>& shrink,
                const std::set<std::int64_t>& newAxes)
{
    const std::int64_t entries = rank + std::int64_t(newAxes.size());
    std::vector<std::int64_t> begin, end, strides;
    std::int64_t beginMask = 0, endMask = 0, newAxisMask = 0, shrinkMask = 0;
    std::int64_t dim = 0;
    for (std::int64_t k = 0; k < entries; ++k) {
        begin.push_back(0);
        strides.push_back(1);
        if (newAxes.count(k)) {
            end.push_back(0);
            newAxisMask |= std::int64_t(1) << k;
            continue;
        }
        if (shrink.count(dim)) {
            end.push_back(1);
            shrinkMask |= std::int64_t(1) << k;
        } else {
            end.push_back(0);
            beginMask |= std::int64_t(1) << k;
            endMask |= std::int64_t(1) << k;
        }
        ++dim;
    }
    return {{"begin", Attr::ints(begin)},
            {"end", Attr::ints(end)},
            {"strides", Attr::ints(strides)},
            {"begin_mask", Attr(beginMask)},
            {"end_mask", Attr(endMask)},
            {"new_axis_mask", Attr(newAxisMask)},
            {"shrink_axis_mask", Attr(shrinkMask)},
            {"ellipsis_mask", Attr(0)}};
}

std::string maskNote(const Attrs& attrs)
{
    auto mask = [&](const char* name) { return attrs.at(name).toInt(); };
    return "as strided_slice with begin_mask " + num(mask("begin_mask")) + ", end_mask " +
           num(mask("end_mask")) + ", new_axis_mask " + num(mask("new_axis_mask")) +
           ", shrink_axis_mask " + num(mask("shrink_axis_mask"));
}

// Element i as an attribute: every float (the 16-bit ones too) a double, complex its real part
// (attributes hold no complex number), integers and bool as they are.
Attr scalarAttr(const Tensor& t, std::int64_t i)
{
    if (isFloat(t.dtype()) || isComplex(t.dtype())) return Attr(t.doubleAt(i));
    switch (t.dtype()) {
    case DType::Bool: return Attr(t.intAt(i) != 0);
    case DType::String: return Attr(t.data<std::string>()[i]);
    default: return Attr(t.intAt(i));
    }
}

// ---- translations: each returns the request and a note, or throws a Refusal ----------------

using Translated = std::pair<NodeRequest, std::string>;

Translated slice(const ModelNode& node, const NodeReader& in)
{
    const std::int64_t opset = node.opVersion;
    std::vector<std::int64_t> starts, ends;
    std::optional<std::vector<std::int64_t>> axes, steps;
    if (opset < 10) {
        const auto s = in.intsAttr("starts");
        const auto e = in.intsAttr("ends");
        if (!s || !e) noRequest("Slice before opset 10 needs the starts and ends attributes");
        starts = *s;
        ends = *e;
        axes = in.intsAttr("axes");
    } else {
        starts = in.ints(1);
        ends = in.ints(2);
        if (in.has(3)) axes = in.ints(3);
        if (in.has(4)) steps = in.ints(4);
    }
    Attrs attrs{{"starts", Attr::ints(starts)}, {"ends", Attr::ints(ends)}, {"opset", Attr(opset)}};
    if (axes) attrs["axes"] = Attr::ints(*axes);
    if (steps) attrs["steps"] = Attr::ints(*steps);
    return {request("onnx_slice", {{"data", {in.tensor(0)}}}, attrs), ""};
}

// Gather, GatherND and GatherElements: the data, and the indices as ONNX reads them.
struct GatherInputs
{
    RequestTensor data;
    const Tensor& indices;
    std::vector<std::int64_t> idx;
    std::int64_t rank;
};

GatherInputs gatherInputs(const NodeReader& in)
{
    RequestTensor data = in.tensor(0);
    const Tensor& indices = in.constant(1);
    std::vector<std::int64_t> idx = indexValues(indices, "indices");
    const auto rank = std::int64_t(data.shape.size());
    return {std::move(data), indices, std::move(idx), rank};
}

Translated gather(const ModelNode& node, const NodeReader& in)
{
    GatherInputs g = gatherInputs(in);
    std::string note;
    if (g.rank == 0) noRequest("Gather: data must have rank 1 or more");
    const std::int64_t axis = normaliseAxis(in.intAttr("axis", 0), g.rank, node.op);
    if (wrapNegative(g.idx, g.data.shape[std::size_t(axis)]))
        note = "negative indices have the axis size added, as ONNX counts them from the "
               "end (TensorFlow's gather refuses them)";
    return {request("gather",
                    {{"params", {g.data}},
                     {"indices", {valueTensor("indices", int64Tensor(g.indices.shape(), g.idx))}}},
                    {{"axis", Attr(axis)}, {"batch_dims", Attr(0)}}),
            note};
}

Translated gatherNd(const ModelNode&, const NodeReader& in)
{
    GatherInputs g = gatherInputs(in);
    std::string note;
    const std::int64_t batchDims = in.intAttr("batch_dims", 0);
    const Shape& is = g.indices.shape();
    if (is.empty()) noRequest("GatherND: indices must have rank 1 or more");
    const std::int64_t depth = is.back();
    if (batchDims >= 0 && batchDims + depth <= g.rank && depth > 0) {
        bool any = false;
        for (std::size_t i = 0; i < g.idx.size(); ++i) {
            const std::int64_t size =
                g.data.shape[std::size_t(batchDims + std::int64_t(i) % depth)];
            if (g.idx[i] < 0 && g.idx[i] >= -size) {
                g.idx[i] += size;
                any = true;
            }
        }
        if (any)
            note = "negative indices have the dimension's size added, as ONNX counts "
                   "them from the end (TensorFlow's gather_nd refuses them)";
    }
    return {request("gather_nd",
                    {{"params", {g.data}},
                     {"indices", {valueTensor("indices", int64Tensor(is, g.idx))}}},
                    {{"batch_dims", Attr(batchDims)}}),
            note};
}

// gather_nd reading, for each element of an output of `shape`, the element of `data` at the
// coordinates `source` makes of the output element's own: how an ONNX op that only moves
// elements, and has no engine op of its own, becomes a request (`op` names it in a refusal).
NodeRequest gatherAtCoordinates(RequestTensor data, const Shape& shape,
                                const std::function<void(std::vector<std::int64_t>&)>& source,
                                const std::string& op)
{
    // gather_nd takes no scalar params (TensorFlow's rule): a scalar is read as its one-element
    // vector, at coordinate [0].
    const bool scalar = data.shape.empty();
    if (scalar) {
        data.shape = {1};
        if (data.value) data.value = data.value->reshaped({1});
    }
    Shape coordShape = shape;
    coordShape.push_back(std::int64_t(data.shape.size()));
    const auto n = checkedNumElements(coordShape);
    if (!n || *n > (std::int64_t(1) << 26))
        noRequest(op + ": the output is too large to write out each element's coordinates");
    std::vector<std::int64_t> coords;
    coords.reserve(std::size_t(*n));
    const std::int64_t count = numElements(shape);
    for (std::int64_t p = 0; p < count; ++p) {
        std::vector<std::int64_t> c = unravelIndex(p, shape);
        source(c);
        if (scalar) c = {0};
        coords.insert(coords.end(), c.begin(), c.end());
    }
    return request("gather_nd",
                   {{"params", {data}},
                    {"indices", {valueTensor("indices", int64Tensor(coordShape, coords))}}},
                   {{"batch_dims", Attr(0)}});
}

// output[p] = data[p with axis replaced by indices[p]], which is gather_nd with every element's
// full coordinates.
Translated gatherElements(const ModelNode& node, const NodeReader& in)
{
    GatherInputs g = gatherInputs(in);
    const Shape& is = g.indices.shape();
    if (std::int64_t(is.size()) != g.rank || g.rank == 0)
        noRequest("GatherElements: indices must have the rank of data (" + num(g.rank) + "), not " +
                  num(std::int64_t(is.size())));
    const std::int64_t axis = normaliseAxis(in.intAttr("axis", 0), g.rank, node.op);
    wrapNegative(g.idx, g.data.shape[std::size_t(axis)]);
    const auto& idx = g.idx;
    std::int64_t p = 0;
    NodeRequest r = gatherAtCoordinates(
        g.data, is,
        [&](std::vector<std::int64_t>& c) { c[std::size_t(axis)] = idx[std::size_t(p++)]; },
        node.op);
    return {r, "as gather_nd with each output element's full coordinates (the indices along "
               "axis " + num(axis) + ", the element's own position on the other axes)"};
}

// Pad's pads (an attribute before opset 11, then an input) and its constant.
std::pair<std::vector<std::int64_t>, Attr> padArguments(const NodeReader& in, std::int64_t opset)
{
    std::vector<std::int64_t> pads;
    Attr constant = Attr(0);
    if (opset < 11) {
        const auto p = in.intsAttr(opset < 2 ? "paddings" : "pads");
        if (!p) noRequest("Pad before opset 11 needs the pads attribute");
        pads = *p;
        if (const Attr* v = in.attr("value")) constant = *v;
    } else {
        pads = in.ints(1);
        if (in.has(2)) {
            const Tensor& c = in.constant(2);
            if (c.size() != 1) noRequest("Pad: constant_value must hold one value");
            constant = scalarAttr(c, 0);
        }
    }
    return {pads, constant};
}

// Where ONNX's Pad reads output coordinate `o` of an axis of size `d` padded by `before`: the
// input coordinate, or -1 for the constant.
std::int64_t padSource(std::int64_t o, std::int64_t d, std::int64_t before, const std::string& mode)
{
    const std::int64_t i = o - before;
    if (i >= 0 && i < d) return i;
    if (mode == "edge") return i < 0 ? 0 : d - 1;
    if (mode == "wrap") return (i % d + d) % d;
    if (mode == "reflect") {
        const std::int64_t r = i < 0 ? -i : 2 * (d - 1) - i;
        return r >= 0 && r < d ? r : -2;
    }
    return -1;
}

// Pad's modes without a TensorFlow counterpart (edge, wrap) and negative pads (which crop; the
// engine's pad, TensorFlow's, refuses them): gather_nd with each output element's source.
Translated padByCoordinates(const RequestTensor& data, const std::vector<std::int64_t>& before,
                            const std::vector<std::int64_t>& after, const std::string& mode)
{
    Shape shape;
    for (std::size_t k = 0; k < data.shape.size(); ++k) {
        const std::int64_t d = data.shape[k];
        const std::int64_t size = d + before[k] + after[k];
        if (size < 0)
            noRequest("Pad: pads " + num(before[k]) + " and " + num(after[k]) + " crop axis " +
                      num(std::int64_t(k)) + " of size " + num(d) +
                      " below nothing; ONNX refuses the node");
        for (const std::int64_t o : {std::int64_t(0), size - 1}) {
            if (size == 0) break;
            const std::int64_t from = d == 0 ? -3 : padSource(o, d, before[k], mode);
            if (from == -1)
                noRequest("Pad: pads that crop one side and fill another with the constant "
                          "have no counterpart among the engine's ops (TensorFlow's pad refuses "
                          "negative paddings)");
            if (from < 0)
                noRequest("Pad: axis " + num(std::int64_t(k)) + " of size " + num(d) +
                          " cannot be padded by " + num(before[k]) + " and " + num(after[k]) +
                          " in mode '" + mode + "'; ONNX refuses the node");
        }
        shape.push_back(size);
    }
    NodeRequest r = gatherAtCoordinates(
        data, shape,
        [&](std::vector<std::int64_t>& c) {
            for (std::size_t k = 0; k < c.size(); ++k)
                c[k] = padSource(c[k], data.shape[k], before[k], mode);
        },
        "Pad");
    return {r, "mode '" + mode + "'" +
                   (std::any_of(before.begin(), before.end(), [](std::int64_t p) { return p < 0; }) ||
                            std::any_of(after.begin(), after.end(),
                                        [](std::int64_t p) { return p < 0; })
                        ? " with negative pads (which crop)"
                        : "") +
                   " as gather_nd with each output element's source coordinates (TensorFlow's "
                   "pad has no such mode)"};
}

Translated pad(const ModelNode& node, const NodeReader& in)
{
    const std::string& op = node.op;
    RequestTensor data = in.tensor(0);
    const auto rank = std::int64_t(data.shape.size());
    const std::string mode = in.stringAttr("mode", "constant");
    const auto [pads, constant] = padArguments(in, node.opVersion);
    std::vector<std::int64_t> axes;
    if (in.has(3)) {
        for (std::int64_t a : in.ints(3))
            axes.push_back(normaliseAxis(a, rank, op));
    } else {
        for (std::int64_t a = 0; a < rank; ++a)
            axes.push_back(a);
    }
    const auto n = std::int64_t(axes.size());
    if (std::int64_t(pads.size()) != 2 * n)
        noRequest("Pad: pads has " + num(std::int64_t(pads.size())) + " values; " + num(n) +
                  " axes need " + num(2 * n) + "; ONNX refuses the node");
    std::vector<std::int64_t> before(std::size_t(rank), 0), after(std::size_t(rank), 0);
    for (std::int64_t k = 0; k < n; ++k) {
        before[std::size_t(axes[std::size_t(k)])] = pads[std::size_t(k)];
        after[std::size_t(axes[std::size_t(k)])] = pads[std::size_t(k + n)];
    }
    if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap")
        noRequest("Pad: mode '" + mode + "' is none of ONNX's modes (constant, reflect, edge, "
                  "wrap)");
    if (mode == "edge" || mode == "wrap" ||
        std::any_of(pads.begin(), pads.end(), [](std::int64_t p) { return p < 0; }))
        return padByCoordinates(data, before, after, mode);
    Attr::List paddings;
    for (std::size_t k = 0; k < std::size_t(rank); ++k)
        paddings.push_back(Attr::ints({before[k], after[k]}));
    const std::string tfMode = mode == "constant" ? "CONSTANT" : "REFLECT";
    Attrs attrs{{"paddings", Attr(paddings)}, {"mode", Attr(tfMode)}};
    if (tfMode == "CONSTANT") {
        if (isFloat(data.dtype) || isComplex(data.dtype))
            attrs["constant_values"] = Attr(constant.toDouble());
        else if (constant.isNumber())
            attrs["constant_values"] = Attr(std::int64_t(constant.toDouble()));
        else
            attrs["constant_values"] = constant;
    }
    return {request("pad", {{"tensor", {data}}}, attrs), ""};
}

// Expand: the input broadcast against `shape` (numpy's rule, both ways), each output element
// reading the input element its coordinates broadcast from.
Translated expand(const ModelNode& node, const NodeReader& in)
{
    RequestTensor data = in.tensor(0);
    const std::vector<std::int64_t> target = in.ints(1);
    const std::optional<Shape> shape = broadcastShapes({data.shape, target});
    if (!shape)
        noRequest("Expand: the input's shape " + shapeTuple(data.shape) + " does not broadcast "
                  "with shape " + listText(target) + "; ONNX refuses the node");
    const std::size_t lead = shape->size() - data.shape.size();
    const Shape& from = data.shape;
    NodeRequest r = gatherAtCoordinates(
        data, *shape,
        [&](std::vector<std::int64_t>& c) {
            c.erase(c.begin(), c.begin() + std::ptrdiff_t(lead));
            for (std::size_t k = 0; k < c.size(); ++k)
                if (from[k] == 1) c[k] = 0;
        },
        node.op);
    return {r, "as gather_nd with each output element's source coordinates (a dimension of 1 "
               "repeats; TensorFlow's broadcast_to is not among the engine's ops)"};
}

Translated transpose(const ModelNode&, const NodeReader& in)
{
    Attrs attrs;
    if (const auto perm = in.intsAttr("perm")) attrs["perm"] = Attr::ints(*perm);
    return {request("transpose", {{"a", {in.tensor(0)}}}, attrs), ""};
}

Translated tile(const ModelNode&, const NodeReader& in)
{
    return {request("tile", {{"input", {in.tensor(0)}}}, {{"multiples", Attr::ints(in.ints(1))}}),
            ""};
}

Translated concat(const ModelNode& node, const NodeReader& in)
{
    std::vector<RequestTensor> values;
    for (std::size_t k = 0; k < node.inputs.size(); ++k)
        values.push_back(in.tensor(k));
    const Attr* axis = in.attr("axis");
    if (!axis || !axis->isInt())
        noRequest(node.opVersion < 4 ? "Concat before opset 4 defaults its axis to 1 (not modelled)"
                                     : "Concat needs the axis attribute");
    return {request("concat", {{"values", values}}, {{"axis", *axis}}), ""};
}

Translated split(const ModelNode& node, const NodeReader& in)
{
    RequestTensor data = in.tensor(0);
    const auto rank = std::int64_t(data.shape.size());
    const std::int64_t axis = normaliseAxis(in.intAttr("axis", 0), rank, node.op);
    std::optional<std::vector<std::int64_t>> sizes;
    if (node.opVersion < 13)
        sizes = in.intsAttr("split");
    else if (in.has(1))
        sizes = in.ints(1);
    std::string note;
    Attr splits;
    if (sizes) {
        splits = Attr::ints(*sizes);
    } else if (in.attr("num_outputs")) {
        // opset 18: the last piece is smaller when the size does not divide.
        const std::int64_t parts = in.intAttr("num_outputs", 1);
        const std::int64_t d = data.shape[std::size_t(axis)];
        if (parts < 1) noRequest("Split: num_outputs must be 1 or more");
        const std::int64_t each = (d + parts - 1) / parts;
        std::vector<std::int64_t> s(std::size_t(parts), each);
        s.back() = d - each * (parts - 1);
        if (s.back() < 0)
            noRequest("Split: " + num(d) + " cannot be split into " + num(parts) + " pieces of " +
                      num(each));
        splits = Attr::ints(s);
        if (d % parts)
            note = "num_outputs splits into pieces of " + num(each) + " and a smaller last one";
    } else {
        splits = Attr(std::int64_t(node.outputs.size()));
    }
    return {request("split", {{"value", {data}}},
                    {{"num_or_size_splits", splits}, {"axis", Attr(axis)}}),
            note};
}

// Squeeze's and Unsqueeze's axes: an attribute before opset 13, then an input.
std::optional<std::vector<std::int64_t>> squeezeAxes(const ModelNode& node, const NodeReader& in)
{
    if (node.opVersion < 13) return in.intsAttr("axes");
    if (in.has(1)) return in.ints(1);
    return std::nullopt;
}

Translated maskSliceRequest(RequestTensor data, Attrs attrs)
{
    std::string note = maskNote(attrs);
    return {request("strided_slice", {{"input", {std::move(data)}}}, std::move(attrs)), note};
}

Translated squeeze(const ModelNode& node, const NodeReader& in)
{
    RequestTensor data = in.tensor(0);
    const auto rank = std::int64_t(data.shape.size());
    const auto axes = squeezeAxes(node, in);
    std::set<std::int64_t> shrink;
    if (!axes) {
        for (std::int64_t k = 0; k < rank; ++k)
            if (data.shape[std::size_t(k)] == 1) shrink.insert(k);
    } else {
        for (std::int64_t a : *axes) {
            const std::int64_t k = normaliseAxis(a, rank, node.op);
            if (data.shape[std::size_t(k)] != 1)
                noRequest("Squeeze: axis " + num(a) + " has size " +
                          num(data.shape[std::size_t(k)]) + ", not 1; ONNX refuses the node");
            if (!shrink.insert(k).second) noRequest("Squeeze: axis " + num(a) + " is listed twice");
        }
    }
    Attrs attrs = maskSlice(rank, shrink, {});
    return maskSliceRequest(std::move(data), std::move(attrs));
}

Translated unsqueeze(const ModelNode& node, const NodeReader& in)
{
    RequestTensor data = in.tensor(0);
    const auto rank = std::int64_t(data.shape.size());
    const auto axes = squeezeAxes(node, in);
    if (!axes) noRequest("Unsqueeze needs axes");
    const std::int64_t outRank = rank + std::int64_t(axes->size());
    std::set<std::int64_t> newAxes;
    for (std::int64_t a : *axes) {
        const std::int64_t k = normaliseAxis(a, outRank, node.op);
        if (!newAxes.insert(k).second) noRequest("Unsqueeze: axis " + num(a) + " is listed twice");
    }
    Attrs attrs = maskSlice(rank, {}, newAxes);
    return maskSliceRequest(std::move(data), std::move(attrs));
}

// DepthToSpace and SpaceToDepth are NCHW in ONNX, NHWC in the engine: not computed. `mode`:
// " (mode DCR)" or "".
[[noreturn]] void otherLayout(const std::string& op, const std::string& mode, const char* engineOp)
{
    noRequest(op + " in ONNX moves blocks between the channel axis and the spatial axes of an " +
              "NCHW tensor" + mode + "; the engine's " + engineOp +
              " is TensorFlow's, on NHWC: another layout, so SliceScope does not compute it");
}

Translated depthToSpace(const ModelNode& node, const NodeReader& in)
{
    otherLayout(node.op, " (mode " + in.stringAttr("mode", "DCR") + ")", "depth_to_space");
}

Translated spaceToDepth(const ModelNode& node, const NodeReader&)
{
    otherLayout(node.op, "", "space_to_depth");
}

Translated oneHot(const ModelNode&, const NodeReader& in)
{
    const Tensor& indicesValue = in.value(0).constant ? *in.value(0).constant : Tensor();
    RequestTensor indices = in.tensor(0);
    const auto depthValues = in.constant(1);
    if (depthValues.size() != 1) noRequest("OneHot: depth must hold one value");
    const std::int64_t depth =
        isFloat(depthValues.dtype()) ? std::int64_t(depthValues.doubleAt(0)) : depthValues.intAt(0);
    const Tensor& values = in.constant(2);
    if (values.size() != 2) noRequest("OneHot: values must hold [off_value, on_value]");
    const auto rank = std::int64_t(indices.shape.size());
    std::int64_t axis = in.intAttr("axis", -1);
    if (axis < -rank - 1 || axis > rank)
        noRequest("OneHot: axis " + num(axis) + " is outside [" + num(-rank - 1) + ", " +
                  num(rank) + "]; ONNX refuses the node");
    if (axis < -1) axis += rank + 1;
    std::string note;
    if (indicesValue.isValid()) {
        // ONNX reads indices of any numeric type as integers and counts negative ones from
        // the end of depth; TensorFlow's one_hot gives a row of off_value for them.
        std::vector<std::int64_t> v;
        for (std::int64_t i = 0; i < indicesValue.size(); ++i)
            v.push_back(indicesValue.intAt(i));
        if (wrapNegative(v, depth))
            note = "negative indices have depth added, as ONNX counts them from the end "
                   "(TensorFlow's one_hot gives off_value for them)";
        indices = valueTensor("indices", int64Tensor(indicesValue.shape(), v));
    } else if (indices.dtype != DType::Int32 && indices.dtype != DType::Int64 &&
               indices.dtype != DType::UInt8) {
        throw waitsForValue(0, "OneHot: indices of type " + std::string(dtypeName(indices.dtype)) +
                                   " computed at run time");
    }
    return {request("one_hot", {{"indices", {indices}}},
                    {{"depth", Attr(depth)},
                     {"on_value", scalarAttr(values, 1)},
                     {"off_value", scalarAttr(values, 0)},
                     {"axis", Attr(axis)},
                     {"dtype", Attr(std::string(dtypeName(values.dtype())))}}),
            note};
}

Translated reverseSequence(const ModelNode&, const NodeReader& in)
{
    return {request("reverse_sequence",
                    {{"input", {in.tensor(0)}},
                     {"seq_lengths", {valueTensor("sequence_lens", in.constant(1))}}},
                    {{"seq_axis", Attr(in.intAttr("time_axis", 0))},
                     {"batch_axis", Attr(in.intAttr("batch_axis", 1))}}),
            ""};
}

Translated unique(const ModelNode&, const NodeReader& in)
{
    if (in.attr("axis"))
        noRequest("Unique along an axis (unique slices) has no counterpart among the engine's "
                  "ops; TensorFlow's unique takes a flat input");
    if (in.intAttr("sorted", 1) != 0)
        noRequest("Unique with sorted=1 (the default) sorts the unique values; TensorFlow's "
                  "unique, the engine's, keeps them in order of first appearance");
    RequestTensor x = in.tensor(0);
    std::string note;
    const Shape flat{numElements(x.shape)};
    if (x.shape.size() != 1) {
        note = "the input flattened, as ONNX does without an axis";
        x.shape = flat;
        if (x.value) x.value = x.value->reshaped(flat);
    }
    NodeRequest r =
        request("unique_with_counts", {{"x", {x}}}, {{"out_idx", Attr(std::string("int64"))}});
    r.outputOf = {0, -1, 1, 2}; // Y, indices (no counterpart), inverse_indices, counts
    if (!note.empty()) note += "; ";
    note += "its outputs Y, inverse_indices and counts are the engine's y, idx and count; "
            "indices (first occurrences) has no counterpart";
    return {r, note};
}

Translated compress(const ModelNode& node, const NodeReader& in)
{
    RequestTensor data = in.tensor(0);
    const Tensor& condition = in.constant(1);
    if (condition.rank() != 1) noRequest("Compress: condition must be 1-D");
    std::string note;
    std::int64_t axis = 0;
    if (in.attr("axis")) {
        axis = normaliseAxis(in.intAttr("axis", 0), std::int64_t(data.shape.size()), node.op);
    } else {
        const Shape flat{numElements(data.shape)};
        data.shape = flat;
        if (data.value) data.value = data.value->reshaped(flat);
        note = "the input flattened, as ONNX does without an axis";
    }
    const std::int64_t d = data.shape[std::size_t(axis)];
    if (condition.size() > d)
        noRequest("Compress: condition has " + num(condition.size()) +
                  " entries for an axis of size " + num(d) + "; ONNX refuses the node");
    Tensor mask = Tensor::zeros(DType::Bool, {d});
    for (std::int64_t i = 0; i < condition.size(); ++i)
        mask.data<bool>()[i] = condition.doubleAt(i) != 0;
    if (condition.size() < d) {
        if (!note.empty()) note += "; ";
        note += "the condition is shorter than the axis: the entries past it are not "
                "selected, as ONNX says";
    }
    return {request("boolean_mask",
                    {{"tensor", {data}}, {"mask", {valueTensor("condition", mask)}}},
                    {{"axis", Attr(axis)}}),
            note};
}

// An op of the family: its name, its inputs as the operator's spec names them (a list input
// has none: its inputs are all data, "inputs[k]"), and its translation.
struct OnnxOp
{
    std::string name;
    std::vector<std::string> inputs;
    Translated (*translate)(const ModelNode& node, const NodeReader& in);
    /// Every input is data the request moves (Concat's), shown as shapes, never as values.
    bool listInput = false;
};

const std::vector<OnnxOp>& onnxOps()
{
    static const std::vector<OnnxOp> ops = {
        {"Slice", {"data", "starts", "ends", "axes", "steps"}, slice},
        {"Gather", {"data", "indices"}, gather},
        {"GatherND", {"data", "indices"}, gatherNd},
        {"GatherElements", {"data", "indices"}, gatherElements},
        {"Pad", {"data", "pads", "constant_value", "axes"}, pad},
        {"Transpose", {"data"}, transpose},
        {"Tile", {"input", "repeats"}, tile},
        {"Concat", {}, concat, true},
        {"Split", {"input", "split"}, split},
        {"Squeeze", {"data", "axes"}, squeeze},
        {"Unsqueeze", {"data", "axes"}, unsqueeze},
        {"DepthToSpace", {"input"}, depthToSpace},
        {"SpaceToDepth", {"input"}, spaceToDepth},
        {"OneHot", {"indices", "depth", "values"}, oneHot},
        {"ReverseSequence", {"input", "sequence_lens"}, reverseSequence},
        {"Unique", {"X"}, unique},
        {"Compress", {"input", "condition"}, compress},
        {"Expand", {"input", "shape"}, expand},
    };
    return ops;
}

} // namespace

const std::vector<std::string>& onnxFamilyOps()
{
    static const std::vector<std::string> names = fileOpNames(onnxOps());
    return names;
}

bool isOnnxFamilyOp(const std::string& op)
{
    return findFileOp(onnxOps(), op) != nullptr;
}

void translateOnnxNode(ModelNode& node)
{
    startTranslation(node);
    static const std::vector<std::string> none;
    const OnnxOp* op = findFileOp(onnxOps(), node.op);
    const NodeReader in(node, op ? op->inputs : none);
    for (const auto& [name, value] : node.rawAttrs)
        node.attributes.push_back({name, attrText(value)});
    // The data inputs are shown as shapes in the table; the argument inputs as values.
    for (std::size_t k = 1; k < node.inputs.size(); ++k) {
        const ModelValue& v = node.inputs[k];
        if (v.name.empty() || (op && op->listInput)) continue;
        node.attributes.push_back(
            {in.inputName(k), !v.constant         ? "computed at run time"
                              : v.foldedBy.empty() ? constantText(*v.constant)
                                                   : constantText(*v.constant) + " (computed by " +
                                                         v.foldedBy + " from the file's shapes and constants)"});
    }
    try {
        if (!op) noRequest(node.op + " is not an op of the slicing family");
        auto [r, note] = op->translate(node, in);
        node.request = std::move(r);
        node.reason = std::move(note);
    } catch (const Refusal& e) {
        node.reason = e.reason;
        node.blockedBy = e.blockedBy;
    } catch (const OpError& e) {
        node.reason = e.what();
    }
}

} // namespace ss::model
