// SPDX-License-Identifier: GPL-3.0-or-later
// ONNX files through onnx's own C++ classes (Debian's libonnx): the protobuf is parsed by
// ModelProto, checked by onnx::checker and shape-inferred by onnx::shape_inference. Each node of
// the family becomes a request of the engine's ops that has ONNX's semantics; where the engine's
// op means something else (a layout, a mode, sorting), the node says so instead of computing it.
#include "model/onnx_reader.h"

#include "core/checked.h"
#include "core/error.h"
#include "core/strings.h"
#include "model/node_translation.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>
#include <poll.h>
#include <set>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ss::model {

namespace {

namespace ox = ONNX_NAMESPACE;

// Thrown inside a translation: the node gets no request, and this reason.
struct NoRequest
{
    std::string reason;
};

[[noreturn]] void noRequest(const std::string& reason)
{
    throw NoRequest{reason};
}

// What a Pad mode without a TensorFlow counterpart does instead.
std::string padModeDoes(const std::string& mode)
{
    if (mode == "edge") return "'edge' repeats the border element, which none of them does";
    if (mode == "wrap")
        return "'wrap' takes the elements of the opposite side (a circular pad), which none of "
               "them does";
    return "'" + mode + "' is none of ONNX's modes either (constant, reflect, edge, wrap)";
}

std::optional<DType> dtypeOf(int elemType)
{
    switch (elemType) {
    case ox::TensorProto_DataType_FLOAT: return DType::Float32;
    case ox::TensorProto_DataType_DOUBLE: return DType::Float64;
    case ox::TensorProto_DataType_INT8: return DType::Int8;
    case ox::TensorProto_DataType_UINT8: return DType::UInt8;
    case ox::TensorProto_DataType_INT16: return DType::Int16;
    case ox::TensorProto_DataType_INT32: return DType::Int32;
    case ox::TensorProto_DataType_INT64: return DType::Int64;
    case ox::TensorProto_DataType_BOOL: return DType::Bool;
    case ox::TensorProto_DataType_STRING: return DType::String;
    case ox::TensorProto_DataType_FLOAT16: return DType::Float16;
    case ox::TensorProto_DataType_BFLOAT16: return DType::BFloat16;
    case ox::TensorProto_DataType_COMPLEX64: return DType::Complex64;
    case ox::TensorProto_DataType_COMPLEX128: return DType::Complex128;
    case ox::TensorProto_DataType_UINT16: return DType::UInt16;
    case ox::TensorProto_DataType_UINT32: return DType::UInt32;
    case ox::TensorProto_DataType_UINT64: return DType::UInt64;
    default: return std::nullopt;
    }
}

std::string dtypeTextOf(int elemType)
{
    if (!ox::TensorProto_DataType_IsValid(elemType)) return "type " + num(elemType);
    return ox::TensorProto_DataType_Name(elemType);
}

// What the file says about one value: its type and shape, and where that comes from.
struct ValueInfo
{
    int elemType = 0;
    StoredShape shape;
    std::string from;
};

ValueInfo valueInfoFrom(const ox::TypeProto& type, const std::string& from)
{
    ValueInfo v;
    v.from = from;
    if (!type.has_tensor_type()) return v;
    const auto& tt = type.tensor_type();
    v.elemType = tt.elem_type();
    if (!tt.has_shape()) return v;
    v.shape.hasRank = true;
    for (const auto& d : tt.shape().dim()) {
        if (d.has_dim_value() && d.dim_value() >= 0) {
            v.shape.dims.push_back(d.dim_value());
            v.shape.symbols.emplace_back();
        } else {
            v.shape.dims.push_back(StoredShape::kUnknownDim);
            v.shape.symbols.push_back(d.has_dim_param() ? d.dim_param() : "");
        }
    }
    return v;
}

// How many values of `dtype` a TensorProto holds: strings, raw data (whole values only, else
// -1), or the typed field onnx.proto assigns the dtype: complex values are (real, imaginary)
// pairs in float_data and double_data, float16 and bfloat16 their 16 bits in int32_data,
// uint32 and uint64 in uint64_data.
std::int64_t storedValues(const ox::TensorProto& t, DType dtype)
{
    const auto pairs = [](int count) { return count % 2 ? -1 : std::int64_t(count / 2); };
    if (dtype == DType::String) return t.string_data_size();
    if (t.has_raw_data()) {
        const auto bytes = std::int64_t(t.raw_data().size());
        return bytes % dtypeSize(dtype) ? -1 : bytes / dtypeSize(dtype);
    }
    switch (dtype) {
    case DType::Float32: return t.float_data_size();
    case DType::Complex64: return pairs(t.float_data_size());
    case DType::Float64: return t.double_data_size();
    case DType::Complex128: return pairs(t.double_data_size());
    case DType::Int64: return t.int64_data_size();
    case DType::UInt32:
    case DType::UInt64: return t.uint64_data_size();
    default: return t.int32_data_size(); // float16, bfloat16 bits; the small integers; bool
    }
}

// A TensorProto's values, or why there are none ("stored in an external file").
std::optional<Tensor> tensorFromProto(const ox::TensorProto& t, const ReadLimits& limits,
                                      std::string& why)
{
    const auto dtype = dtypeOf(t.data_type());
    if (!dtype) {
        why = "its element type " + dtypeTextOf(t.data_type()) + " is not one SliceScope has";
        return std::nullopt;
    }
    if (t.data_location() == ox::TensorProto_DataLocation_EXTERNAL) {
        why = "its values are stored in an external file, which SliceScope does not open";
        return std::nullopt;
    }
    Shape shape;
    for (std::int64_t d : t.dims()) {
        if (d < 0) {
            why = "it has a negative dimension " + num(d);
            return std::nullopt;
        }
        shape.push_back(d);
    }
    if (shape.size() > 32) {
        why = "its rank " + num(std::int64_t(shape.size())) + " is above 32";
        return std::nullopt;
    }
    const auto n = checkedNumElements(shape);
    if (!n || *n > limits.maxConstantElements) {
        why = "it has more than " + num(limits.maxConstantElements) + " elements";
        return std::nullopt;
    }
    // The values must be there before the tensor is made: a file of a few bytes may claim
    // 2^28 strings.
    const std::int64_t stored = storedValues(t, *dtype);
    if (stored != *n) {
        why = stored < 0 ? "its data is not a whole number of " + std::string(dtypeName(*dtype)) +
                               " values"
                         : "it holds " + num(stored) + " values for shape " + shapeTuple(shape);
        return std::nullopt;
    }
    Tensor out = Tensor::empty(*dtype, shape);
    if (*dtype == DType::String) {
        for (std::int64_t i = 0; i < *n; ++i)
            out.data<std::string>()[i] = t.string_data(int(i));
        return out;
    }
    if (t.has_raw_data()) {
        // ONNX stores raw data little-endian, as this machine is.
        const std::string& raw = t.raw_data();
        if (*n > 0) std::memcpy(out.raw(), raw.data(), raw.size());
        if (*dtype == DType::Bool)
            for (std::int64_t i = 0; i < *n; ++i)
                out.data<bool>()[i] = raw[std::size_t(i)] != 0;
        return out;
    }
    switch (*dtype) {
    case DType::Float32:
        for (std::int64_t i = 0; i < *n; ++i)
            out.data<float>()[i] = t.float_data(int(i));
        break;
    case DType::Complex64:
        for (std::int64_t i = 0; i < *n; ++i)
            out.data<std::complex<float>>()[i] = {t.float_data(int(2 * i)),
                                                  t.float_data(int(2 * i + 1))};
        break;
    case DType::Float64:
        for (std::int64_t i = 0; i < *n; ++i)
            out.data<double>()[i] = t.double_data(int(i));
        break;
    case DType::Complex128:
        for (std::int64_t i = 0; i < *n; ++i)
            out.data<std::complex<double>>()[i] = {t.double_data(int(2 * i)),
                                                   t.double_data(int(2 * i + 1))};
        break;
    case DType::Int64:
        for (std::int64_t i = 0; i < *n; ++i)
            out.data<std::int64_t>()[i] = t.int64_data(int(i));
        break;
    case DType::UInt32:
        for (std::int64_t i = 0; i < *n; ++i)
            out.data<std::uint32_t>()[i] = std::uint32_t(t.uint64_data(int(i)));
        break;
    case DType::UInt64:
        for (std::int64_t i = 0; i < *n; ++i)
            out.data<std::uint64_t>()[i] = t.uint64_data(int(i));
        break;
    case DType::Float16:
        for (std::int64_t i = 0; i < *n; ++i)
            out.data<Float16>()[i].bits = std::uint16_t(t.int32_data(int(i)));
        break;
    case DType::BFloat16:
        for (std::int64_t i = 0; i < *n; ++i)
            out.data<BFloat16>()[i].bits = std::uint16_t(t.int32_data(int(i)));
        break;
    default: // int32, int16, int8, uint8, uint16 and bool live in int32_data
        for (std::int64_t i = 0; i < *n; ++i)
            out.setFromInt(i, t.int32_data(int(i)));
        break;
    }
    return out;
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

Attr attrFromProto(const ox::AttributeProto& a)
{
    switch (a.type()) {
    case ox::AttributeProto_AttributeType_INT: return Attr(std::int64_t(a.i()));
    case ox::AttributeProto_AttributeType_FLOAT: return Attr(double(a.f()));
    case ox::AttributeProto_AttributeType_STRING: return Attr(a.s());
    case ox::AttributeProto_AttributeType_INTS: {
        Attr::List l;
        for (auto v : a.ints())
            l.emplace_back(std::int64_t(v));
        return Attr(std::move(l));
    }
    case ox::AttributeProto_AttributeType_FLOATS: {
        Attr::List l;
        for (auto v : a.floats())
            l.emplace_back(double(v));
        return Attr(std::move(l));
    }
    case ox::AttributeProto_AttributeType_STRINGS: {
        Attr::List l;
        for (const auto& v : a.strings())
            l.emplace_back(v);
        return Attr(std::move(l));
    }
    default: return Attr(std::string("(") + ox::AttributeProto_AttributeType_Name(a.type()) + ")");
    }
}

// The names of each family op's inputs, as the operator's spec names them.
const std::map<std::string, std::vector<std::string>>& inputNames()
{
    static const std::map<std::string, std::vector<std::string>> names = {
        {"Slice", {"data", "starts", "ends", "axes", "steps"}},
        {"Gather", {"data", "indices"}},
        {"GatherND", {"data", "indices"}},
        {"GatherElements", {"data", "indices"}},
        {"Pad", {"data", "pads", "constant_value", "axes"}},
        {"Transpose", {"data"}},
        {"Tile", {"input", "repeats"}},
        {"Concat", {}},
        {"Split", {"input", "split"}},
        {"Squeeze", {"data", "axes"}},
        {"Unsqueeze", {"data", "axes"}},
        {"DepthToSpace", {"input"}},
        {"SpaceToDepth", {"input"}},
        {"OneHot", {"indices", "depth", "values"}},
        {"ReverseSequence", {"input", "sequence_lens"}},
        {"Unique", {"X"}},
        {"Compress", {"input", "condition"}},
    };
    return names;
}

std::string inputName(const ModelNode& node, std::size_t k)
{
    const auto it = inputNames().find(node.op);
    if (it != inputNames().end() && k < it->second.size()) return it->second[k];
    return "inputs[" + num(std::int64_t(k)) + "]";
}

// Reads a node's inputs and attributes for its translation; every miss is a NoRequest.
class NodeReader
{
public:
    explicit NodeReader(const ModelNode& node) : m_node(node) {}

    bool has(std::size_t k) const
    {
        return k < m_node.inputs.size() && !m_node.inputs[k].name.empty();
    }
    const ModelValue& value(std::size_t k) const
    {
        if (!has(k)) noRequest("input '" + inputName(m_node, k) + "' is missing");
        return m_node.inputs[k];
    }
    // A tensor input of the request: its value when known, else an arange fill of its stored
    // shape, which must be known.
    RequestTensor tensor(std::size_t k) const
    {
        const ModelValue& v = value(k);
        const std::string what = "input '" + inputName(m_node, k) + "' (" + v.name + ")";
        RequestTensor t;
        t.from = inputName(m_node, k);
        if (v.constant) {
            t.dtype = v.constant->dtype();
            t.shape = v.constant->shape();
            t.value = v.constant;
            return t;
        }
        // Not stored, nor inferred (the node before could not be): said as such, not as a
        // type "unknown" that SliceScope lacks.
        if (!v.dtype && v.dtypeText.empty())
            noRequest("the element type of " + what +
                      " is neither stored in the file nor inferred from it: give it a value");
        if (!v.dtype)
            noRequest(what + " has element type " + v.dtypeText +
                      ", which SliceScope does not have");
        if (!v.stored.isFullyKnown())
            noRequest("the shape of " + what + " is not known (" + v.stored.text() +
                      "): give it a value");
        t.dtype = *v.dtype;
        t.shape = *v.stored.shape();
        return t;
    }
    // A shape input's integer values, which must be constant.
    // "'starts' (Slice_starts)": the input as the spec names it, and as the file does.
    std::string named(std::size_t k) const
    {
        const std::string spec = inputName(m_node, k);
        const std::string& file = m_node.inputs[k].name;
        return "'" + spec + "'" + (file == spec ? "" : " (" + file + ")");
    }
    std::vector<std::int64_t> ints(std::size_t k) const
    {
        const ModelValue& v = value(k);
        if (!v.constant) noRequest(named(k) + " is computed at run time");
        if (v.constant->dtype() == DType::String)
            noRequest("'" + inputName(m_node, k) + "' holds strings, not integers");
        return v.constant->toInt64Vector();
    }
    const Tensor& constant(std::size_t k) const
    {
        const ModelValue& v = value(k);
        if (!v.constant) noRequest(named(k) + " is computed at run time");
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

// An axis attribute in [-rank, rank - 1] made non-negative; outside it, a NoRequest naming
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

// The translation of one node; throws NoRequest. Returns the request and a note.
std::pair<NodeRequest, std::string> translateOnnx(const ModelNode& node)
{
    const NodeReader in(node);
    const std::string& op = node.op;
    const std::int64_t opset = node.opVersion;
    std::string note;

    if (op == "Slice") {
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
        Attrs attrs{
            {"starts", Attr::ints(starts)}, {"ends", Attr::ints(ends)}, {"opset", Attr(opset)}};
        if (axes) attrs["axes"] = Attr::ints(*axes);
        if (steps) attrs["steps"] = Attr::ints(*steps);
        return {request("onnx_slice", {{"data", {in.tensor(0)}}}, attrs), note};
    }
    if (op == "Gather" || op == "GatherElements" || op == "GatherND") {
        RequestTensor data = in.tensor(0);
        const Tensor& indices = in.constant(1);
        std::vector<std::int64_t> idx = indexValues(indices, "indices");
        const auto rank = std::int64_t(data.shape.size());
        if (op == "Gather") {
            if (rank == 0) noRequest("Gather: data must have rank 1 or more");
            const std::int64_t axis = normaliseAxis(in.intAttr("axis", 0), rank, op);
            if (wrapNegative(idx, data.shape[std::size_t(axis)]))
                note = "negative indices have the axis size added, as ONNX counts them from the "
                       "end (TensorFlow's gather refuses them)";
            return {
                request("gather",
                        {{"params", {data}},
                         {"indices", {valueTensor("indices", int64Tensor(indices.shape(), idx))}}},
                        {{"axis", Attr(axis)}, {"batch_dims", Attr(0)}}),
                note};
        }
        if (op == "GatherND") {
            const std::int64_t batchDims = in.intAttr("batch_dims", 0);
            const Shape& is = indices.shape();
            if (is.empty()) noRequest("GatherND: indices must have rank 1 or more");
            const std::int64_t depth = is.back();
            if (batchDims >= 0 && batchDims + depth <= rank && depth > 0) {
                bool any = false;
                for (std::size_t i = 0; i < idx.size(); ++i) {
                    const std::int64_t size =
                        data.shape[std::size_t(batchDims + std::int64_t(i) % depth)];
                    if (idx[i] < 0 && idx[i] >= -size) {
                        idx[i] += size;
                        any = true;
                    }
                }
                if (any)
                    note = "negative indices have the dimension's size added, as ONNX counts "
                           "them from the end (TensorFlow's gather_nd refuses them)";
            }
            return {request("gather_nd",
                            {{"params", {data}},
                             {"indices", {valueTensor("indices", int64Tensor(is, idx))}}},
                            {{"batch_dims", Attr(batchDims)}}),
                    note};
        }
        // GatherElements: output[p] = data[p with axis replaced by indices[p]], which is
        // gather_nd with every element's full coordinates.
        const Shape& is = indices.shape();
        if (std::int64_t(is.size()) != rank || rank == 0)
            noRequest("GatherElements: indices must have the rank of data (" + num(rank) +
                      "), not " + num(std::int64_t(is.size())));
        const std::int64_t axis = normaliseAxis(in.intAttr("axis", 0), rank, op);
        wrapNegative(idx, data.shape[std::size_t(axis)]);
        Shape coordShape = is;
        coordShape.push_back(rank);
        const auto n = checkedNumElements(coordShape);
        if (!n || *n > (std::int64_t(1) << 26))
            noRequest("GatherElements: the indices are too many to write out as coordinates");
        std::vector<std::int64_t> coords;
        coords.reserve(std::size_t(*n));
        for (std::int64_t p = 0; p < std::int64_t(idx.size()); ++p) {
            auto c = unravelIndex(p, is);
            c[std::size_t(axis)] = idx[std::size_t(p)];
            coords.insert(coords.end(), c.begin(), c.end());
        }
        note = "as gather_nd with each output element's full coordinates (the indices along "
               "axis " +
               num(axis) + ", the element's own position on the other axes)";
        return {request("gather_nd",
                        {{"params", {data}},
                         {"indices", {valueTensor("indices", int64Tensor(coordShape, coords))}}},
                        {{"batch_dims", Attr(0)}}),
                note};
    }
    if (op == "Pad") {
        RequestTensor data = in.tensor(0);
        const auto rank = std::int64_t(data.shape.size());
        std::vector<std::int64_t> pads;
        std::string mode = in.stringAttr("mode", "constant");
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
        if (std::any_of(pads.begin(), pads.end(), [](std::int64_t p) { return p < 0; }))
            noRequest("Pad: negative pads crop the input in ONNX; TensorFlow's pad, the engine's, "
                      "refuses negative paddings, so SliceScope does not compute this node");
        Attr::List paddings(std::size_t(rank), Attr::ints({0, 0}));
        for (std::int64_t k = 0; k < n; ++k)
            paddings[std::size_t(axes[std::size_t(k)])] =
                Attr::ints({pads[std::size_t(k)], pads[std::size_t(k + n)]});
        std::string tfMode;
        if (mode == "constant")
            tfMode = "CONSTANT";
        else if (mode == "reflect")
            tfMode = "REFLECT";
        else
            noRequest("Pad: mode '" + mode +
                      "' has no counterpart among TensorFlow's pad modes (CONSTANT, REFLECT, "
                      "SYMMETRIC): " +
                      padModeDoes(mode));
        Attrs attrs{{"paddings", Attr(paddings)}, {"mode", Attr(tfMode)}};
        if (tfMode == "CONSTANT") {
            if (isFloat(data.dtype) || isComplex(data.dtype))
                attrs["constant_values"] = Attr(constant.toDouble());
            else if (constant.isNumber())
                attrs["constant_values"] = Attr(std::int64_t(constant.toDouble()));
            else
                attrs["constant_values"] = constant;
        }
        return {request("pad", {{"tensor", {data}}}, attrs), note};
    }
    if (op == "Transpose") {
        Attrs attrs;
        if (const auto perm = in.intsAttr("perm")) attrs["perm"] = Attr::ints(*perm);
        return {request("transpose", {{"a", {in.tensor(0)}}}, attrs), note};
    }
    if (op == "Tile") {
        return {
            request("tile", {{"input", {in.tensor(0)}}}, {{"multiples", Attr::ints(in.ints(1))}}),
            note};
    }
    if (op == "Concat") {
        std::vector<RequestTensor> values;
        for (std::size_t k = 0; k < node.inputs.size(); ++k)
            values.push_back(in.tensor(k));
        const Attr* axis = in.attr("axis");
        if (!axis || !axis->isInt())
            noRequest(opset < 4 ? "Concat before opset 4 defaults its axis to 1 (not modelled)"
                                : "Concat needs the axis attribute");
        return {request("concat", {{"values", values}}, {{"axis", *axis}}), note};
    }
    if (op == "Split") {
        RequestTensor data = in.tensor(0);
        const auto rank = std::int64_t(data.shape.size());
        const std::int64_t axis = normaliseAxis(in.intAttr("axis", 0), rank, op);
        std::optional<std::vector<std::int64_t>> sizes;
        if (opset < 13)
            sizes = in.intsAttr("split");
        else if (in.has(1))
            sizes = in.ints(1);
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
                noRequest("Split: " + num(d) + " cannot be split into " + num(parts) +
                          " pieces of " + num(each));
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
    if (op == "Squeeze" || op == "Unsqueeze") {
        RequestTensor data = in.tensor(0);
        const auto rank = std::int64_t(data.shape.size());
        std::optional<std::vector<std::int64_t>> axes;
        if (opset < 13)
            axes = in.intsAttr("axes");
        else if (in.has(1))
            axes = in.ints(1);
        Attrs attrs;
        if (op == "Squeeze") {
            std::set<std::int64_t> shrink;
            if (!axes) {
                for (std::int64_t k = 0; k < rank; ++k)
                    if (data.shape[std::size_t(k)] == 1) shrink.insert(k);
            } else {
                for (std::int64_t a : *axes) {
                    const std::int64_t k = normaliseAxis(a, rank, op);
                    if (data.shape[std::size_t(k)] != 1)
                        noRequest("Squeeze: axis " + num(a) + " has size " +
                                  num(data.shape[std::size_t(k)]) +
                                  ", not 1; ONNX refuses the node");
                    if (!shrink.insert(k).second)
                        noRequest("Squeeze: axis " + num(a) + " is listed twice");
                }
            }
            attrs = maskSlice(rank, shrink, {});
        } else {
            if (!axes) noRequest("Unsqueeze needs axes");
            const std::int64_t outRank = rank + std::int64_t(axes->size());
            std::set<std::int64_t> newAxes;
            for (std::int64_t a : *axes) {
                const std::int64_t k = normaliseAxis(a, outRank, op);
                if (!newAxes.insert(k).second)
                    noRequest("Unsqueeze: axis " + num(a) + " is listed twice");
            }
            attrs = maskSlice(rank, {}, newAxes);
        }
        note = maskNote(attrs);
        return {request("strided_slice", {{"input", {data}}}, attrs), note};
    }
    if (op == "DepthToSpace" || op == "SpaceToDepth") {
        noRequest(op +
                  " in ONNX moves blocks between the channel axis and the spatial axes of an "
                  "NCHW tensor" +
                  (op == "DepthToSpace" ? " (mode " + in.stringAttr("mode", "DCR") + ")"
                                        : std::string()) +
                  "; the engine's " + (op == "DepthToSpace" ? "depth_to_space" : "space_to_depth") +
                  " is TensorFlow's, on NHWC: another layout, so SliceScope does not compute it");
    }
    if (op == "OneHot") {
        const Tensor& indicesValue = in.value(0).constant ? *in.value(0).constant : Tensor();
        RequestTensor indices = in.tensor(0);
        const auto depthValues = in.constant(1);
        if (depthValues.size() != 1) noRequest("OneHot: depth must hold one value");
        const std::int64_t depth = isFloat(depthValues.dtype())
                                       ? std::int64_t(depthValues.doubleAt(0))
                                       : depthValues.intAt(0);
        const Tensor& values = in.constant(2);
        if (values.size() != 2) noRequest("OneHot: values must hold [off_value, on_value]");
        const auto rank = std::int64_t(indices.shape.size());
        std::int64_t axis = in.intAttr("axis", -1);
        if (axis < -rank - 1 || axis > rank)
            noRequest("OneHot: axis " + num(axis) + " is outside [" + num(-rank - 1) + ", " +
                      num(rank) + "]; ONNX refuses the node");
        if (axis < -1) axis += rank + 1;
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
            noRequest("OneHot: indices of type " + std::string(dtypeName(indices.dtype)) +
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
    if (op == "ReverseSequence") {
        return {request("reverse_sequence",
                        {{"input", {in.tensor(0)}},
                         {"seq_lengths", {valueTensor("sequence_lens", in.constant(1))}}},
                        {{"seq_axis", Attr(in.intAttr("time_axis", 0))},
                         {"batch_axis", Attr(in.intAttr("batch_axis", 1))}}),
                note};
    }
    if (op == "Unique") {
        if (in.attr("axis"))
            noRequest("Unique along an axis (unique slices) has no counterpart among the engine's "
                      "ops; TensorFlow's unique takes a flat input");
        if (in.intAttr("sorted", 1) != 0)
            noRequest("Unique with sorted=1 (the default) sorts the unique values; TensorFlow's "
                      "unique, the engine's, keeps them in order of first appearance");
        RequestTensor x = in.tensor(0);
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
    if (op == "Compress") {
        RequestTensor data = in.tensor(0);
        const Tensor& condition = in.constant(1);
        if (condition.rank() != 1) noRequest("Compress: condition must be 1-D");
        std::int64_t axis = 0;
        if (in.attr("axis")) {
            axis = normaliseAxis(in.intAttr("axis", 0), std::int64_t(data.shape.size()), op);
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
    noRequest(op + " is not an op of the slicing family");
}

void translateNode(ModelNode& node)
{
    node.attributes.clear();
    node.request.reset();
    node.reason.clear();
    for (const auto& [name, value] : node.rawAttrs)
        node.attributes.push_back({name, attrText(value)});
    // The data inputs are shown as shapes in the table; the argument inputs as values.
    for (std::size_t k = 1; k < node.inputs.size(); ++k) {
        const ModelValue& v = node.inputs[k];
        if (v.name.empty() || node.op == "Concat") continue;
        node.attributes.push_back(
            {inputName(node, k), v.constant ? constantText(*v.constant) : "computed at run time"});
    }
    try {
        auto [r, note] = translateOnnx(node);
        node.request = std::move(r);
        node.reason = std::move(note);
    } catch (const NoRequest& e) {
        node.reason = e.reason;
    } catch (const OpError& e) {
        node.reason = e.what();
    }
}

// onnx's message on one line. Its sentences break lines ("input 'b' of node: \nname: t1
// OpType: Transpose\n is not output of any previous nodes."), and the checker's context block
// ("\n\n==> Context: Bad node spec for node. Name: t1 ...") names the node: both are kept, the
// context in parentheses.
std::string oneLine(const std::string& text)
{
    const auto collapse = [](std::string_view part) {
        std::string out;
        for (const char c : part) {
            const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
            if (space && (out.empty() || out.back() == ' ')) continue;
            out += space ? ' ' : c;
        }
        if (!out.empty() && out.back() == ' ') out.pop_back();
        return out;
    };
    constexpr std::string_view kContext = "==> Context:";
    const std::size_t at = text.find(kContext);
    std::string t = collapse(std::string_view(text).substr(0, at));
    if (at != std::string::npos) {
        const std::string context = collapse(std::string_view(text).substr(at + kContext.size()));
        if (!context.empty()) t += " (" + context + ")";
    }
    if (t.size() > 400) t = t.substr(0, 400) + "...";
    return t;
}

// onnx.checker and shape inference (initializers and Constant nodes folded in, data
// propagation on) as libonnx runs them. Their complaints go to `warnings`.
ox::ModelProto checkAndInferHere(const ox::ModelProto& model)
{
    ox::ModelProto result;
    std::string warnings;
    try {
        ox::checker::check_model(model);
    } catch (const std::exception& e) {
        warnings += "onnx.checker: " + oneLine(e.what()) + "\n";
    }
    ox::ModelProto copy = model;
    try {
        ox::shape_inference::InferShapes(copy, ox::OpSchemaRegistry::Instance(),
                                         ox::ShapeInferenceOptions(false, 0, true));
    } catch (const std::exception& e) {
        warnings += "shape inference: " + oneLine(e.what()) + "\n";
    }
    *result.mutable_graph()->mutable_value_info() = copy.graph().value_info();
    *result.mutable_graph()->mutable_output() = copy.graph().output();
    result.set_doc_string(warnings);
    return result;
}

bool writeAll(int fd, const std::string& bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += std::size_t(n);
    }
    return true;
}

// libonnx 1.12's shape inference dereferences invalid attributes and inputs of some nodes (a
// corrupted file crashes it: tests/fuzz/corpus/model_onnx holds such files), and what it
// reads is the file. So the checker and inference run in a child process that sends back the
// inferred value_info: a child that crashes or takes over a minute leaves the file's own
// shapes, with a warning, and this process unharmed.
//
// The child is this same program started afresh (/proc/self/exe) with kCheckChildVariable set:
// the static object below runs the check before main and exits, in whatever program links this
// reader (the CLI, the GUI, a test, a fuzzer). A fork without exec would be simpler, but the
// GUI has threads: one holding the allocator's or the loader's lock at the fork leaves the
// child waiting for it forever (a risk everywhere, and a likely one under AddressSanitizer,
// whose allocator in GCC 12 takes no lock around a fork).
constexpr const char* kCheckChildVariable = "SLICESCOPE_ONNX_CHECK_CHILD";

bool readAll(int fd, std::string& bytes)
{
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) return true;
        bytes.append(buffer, std::size_t(n));
    }
}

// The child: the model on standard input, the checked result on standard output.
[[noreturn]] void runCheckChild()
{
    // A crash ends the child at once: no handler installed before main (a sanitizer's report)
    // runs, and no core file is written.
    for (const int sig : {SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT})
        ::signal(sig, SIG_DFL);
    const rlimit noCore{0, 0};
    ::setrlimit(RLIMIT_CORE, &noCore);
    std::string bytes;
    ox::ModelProto model;
    if (!readAll(0, bytes) || bytes.size() > std::size_t(INT_MAX) ||
        !model.ParseFromArray(bytes.data(), int(bytes.size())))
        ::_exit(1);
    bytes.clear();
    checkAndInferHere(model).SerializeToString(&bytes);
    ::_exit(writeAll(1, bytes) ? 0 : 1);
}

const struct CheckChildEntry
{
    CheckChildEntry()
    {
        if (std::getenv(kCheckChildVariable)) runCheckChild();
    }
} checkChildEntry;

// Starts the child with the serialised model as its standard input; returns its pid (or -1)
// and the read end of its standard output in `output`.
pid_t startCheckChild(const std::string& model, int& output)
{
    const int input = ::memfd_create("slicescope-onnx-model", MFD_CLOEXEC);
    if (input < 0) return -1;
    int fds[2];
    if (!writeAll(input, model) || ::lseek(input, 0, SEEK_SET) != 0 ||
        ::pipe2(fds, O_CLOEXEC) != 0) {
        ::close(input);
        return -1;
    }
    std::vector<std::string> variables;
    for (char** e = environ; *e; ++e)
        variables.emplace_back(*e);
    variables.push_back(std::string(kCheckChildVariable) + "=1");
    std::vector<char*> envp;
    for (std::string& v : variables)
        envp.push_back(v.data());
    envp.push_back(nullptr);
    char name[] = "slicescope-onnx-check";
    char* argv[] = {name, nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, input, 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    if (::posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv, envp.data()) != 0) pid = -1;
    posix_spawn_file_actions_destroy(&actions);
    ::close(input);
    ::close(fds[1]);
    if (pid < 0)
        ::close(fds[0]);
    else
        output = fds[0];
    return pid;
}

// Cancelling `limits.job` kills the child and throws OpError(Cancelled): the GUI's Cancel, a
// second file opened meanwhile, or the window closing, never waits out the minute.
ox::ModelProto checkAndInfer(const ox::ModelProto& model, const ReadLimits& limits,
                             std::vector<std::string>& warnings)
{
    std::string serialised;
    int output = -1;
    const pid_t pid =
        model.SerializeToString(&serialised) ? startCheckChild(serialised, output) : pid_t(-1);
    if (pid < 0) {
        warnings.push_back("onnx.checker and shape inference were not run: no process");
        return {};
    }
    std::string bytes;
    bool timedOut = false;
    bool cancelled = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    // A job is looked at every 50 ms, so that cancelling it is seen at once.
    const long long wakeMs = limits.job ? 50 : 1000;
    for (;;) {
        if (limits.job && limits.job->isCancelled()) {
            cancelled = true;
            break;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        if (left <= 0) {
            timedOut = true;
            break;
        }
        pollfd p{output, POLLIN, 0};
        const int ready = ::poll(&p, 1, int(std::min<long long>(left, wakeMs)));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        char buffer[65536];
        const ssize_t n = ::read(output, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        bytes.append(buffer, std::size_t(n));
    }
    ::close(output);
    if (timedOut || cancelled) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (cancelled) limits.throwIfCancelled();
    ox::ModelProto result;
    if (timedOut || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        !result.ParseFromString(bytes)) {
        warnings.push_back(std::string("onnx's checker and shape inference ") +
                           (timedOut              ? "took over a minute"
                            : WIFSIGNALED(status) ? "crashed on this file (signal " +
                                                        std::to_string(WTERMSIG(status)) + ")"
                                                  : "failed") +
                           "; the shapes are the file's own");
        return {};
    }
    std::size_t start = 0;
    const std::string& text = result.doc_string();
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        warnings.push_back(text.substr(start, end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return result;
}

// A node's name as the Model dock and `model` list it: the file's, or "Op#index".
std::string nodeName(const ox::NodeProto& n, int index)
{
    return n.name().empty() ? n.op_type() + "#" + num(index) : n.name();
}

// "A, B, C" of at most five names, then "and N more".
std::string someNames(const std::vector<std::string>& names)
{
    constexpr std::size_t kShown = 5;
    const std::vector<std::string> shown(
        names.begin(), names.begin() + std::ptrdiff_t(std::min(kShown, names.size())));
    return joinText(shown, [](const std::string& s) { return s; }) +
           (names.size() > kShown ? " and " + num(std::int64_t(names.size() - kShown)) + " more"
                                  : "");
}

// The nodes of `g` that can never run, each with why, in our words (index -> reason), and
// the graph's own problem for the warnings. ONNX runs a node once every input it reads is made
// (by a graph input, an initializer or an earlier node): a node on a cycle waits for itself,
// one reading a value nothing makes waits forever, and so does every node after them. onnx's
// checker only says the list is not sorted, and shape inference leaves their types out.
struct Unrunnable
{
    std::map<int, std::string> nodes;
    std::vector<std::string> warnings;
};

Unrunnable nodesThatCannotRun(const ox::GraphProto& g)
{
    const int n = g.node_size();
    std::set<std::string> made{""}; // "": an optional input left out
    for (const auto& v : g.input())
        made.insert(v.name());
    for (const auto& t : g.initializer())
        made.insert(t.name());
    std::map<std::string, int> producer;
    for (int i = 0; i < n; ++i)
        for (const auto& out : g.node(i).output())
            if (!out.empty()) producer.emplace(out, i);
    // Kahn's order over what each node waits for.
    std::vector<int> waiting(std::size_t(n), 0);
    std::map<std::string, std::vector<int>> readers;
    std::map<int, std::string> missing; // a node -> an input nothing makes
    for (int i = 0; i < n; ++i) {
        const std::set<std::string> inputs(g.node(i).input().begin(), g.node(i).input().end());
        for (const std::string& in : inputs) {
            if (made.count(in)) continue;
            if (!producer.count(in)) {
                missing.emplace(i, in);
                continue;
            }
            ++waiting[std::size_t(i)];
            readers[in].push_back(i);
        }
    }
    std::vector<int> ready;
    for (int i = 0; i < n; ++i)
        if (waiting[std::size_t(i)] == 0 && !missing.count(i)) ready.push_back(i);
    std::vector<bool> runs(std::size_t(n), false);
    while (!ready.empty()) {
        const int i = ready.back();
        ready.pop_back();
        runs[std::size_t(i)] = true;
        for (const auto& out : g.node(i).output()) {
            if (!made.insert(out).second) continue;
            for (int r : readers[out])
                if (--waiting[std::size_t(r)] == 0 && !missing.count(r)) ready.push_back(r);
        }
    }
    Unrunnable result;
    std::set<int> stuck;
    for (int i = 0; i < n; ++i)
        if (!runs[std::size_t(i)]) stuck.insert(i);
    if (stuck.empty()) return result;
    // The cycles: the stuck nodes left once those with no stuck node before them, or none
    // after them, are taken away (one reading a missing value, those after a cycle).
    std::map<int, std::set<int>> before, after; // among the stuck nodes
    for (int i : stuck)
        for (const auto& in : g.node(i).input())
            if (const auto p = producer.find(in); p != producer.end() && stuck.count(p->second)) {
                before[i].insert(p->second);
                after[p->second].insert(i);
            }
    std::set<int> cycle = stuck;
    std::vector<int> outside;
    for (int i : stuck)
        if (before[i].empty() || after[i].empty()) outside.push_back(i);
    while (!outside.empty()) {
        const int i = outside.back();
        outside.pop_back();
        if (!cycle.erase(i)) continue;
        for (int o : after[i])
            if (before[o].erase(i) && before[o].empty()) outside.push_back(o);
        for (int o : before[i])
            if (after[o].erase(i) && after[o].empty()) outside.push_back(o);
    }
    std::vector<std::string> cycleNames;
    for (int i : cycle)
        cycleNames.push_back(nodeName(g.node(i), i));
    const std::string cycleText = "the graph has a cycle through nodes " + someNames(cycleNames) +
                                  ": each needs an output of the next, so none of them ever runs";
    if (!cycle.empty()) result.warnings.push_back(cycleText);
    for (int i : stuck) {
        std::string why;
        if (cycle.count(i)) {
            why = cycleText;
        } else if (const auto m = missing.find(i); m != missing.end()) {
            why = "its input '" + m->second +
                  "' is never made: no node, initializer or graph input has that name";
            result.warnings.push_back("node " + nodeName(g.node(i), i) + " reads '" + m->second +
                                      "', which nothing in the graph makes");
        } else {
            for (const auto& in : g.node(i).input())
                if (const auto p = producer.find(in);
                    p != producer.end() && stuck.count(p->second)) {
                    why = "its input '" + in + "' comes from node " +
                          nodeName(g.node(p->second), p->second) + ", which never runs";
                    break;
                }
        }
        result.nodes.emplace(i, why);
    }
    return result;
}

ModelFile readOnnx(const std::string& path, const std::string& bytes, const ReadLimits& limits)
{
    ox::ModelProto model;
    if (bytes.size() > std::size_t(INT_MAX))
        invalidArgument("an ONNX file larger than 2 GiB keeps its tensors outside it; this one "
                        "is " +
                        num(std::int64_t(bytes.size())) + " bytes");
    if (!model.ParseFromArray(bytes.data(), int(bytes.size())))
        invalidArgument("not a valid ONNX model: the protobuf does not parse (a truncated file, "
                        "or another format)");
    if (!model.has_graph() || (model.graph().node_size() == 0 && model.graph().input_size() == 0 &&
                               model.graph().output_size() == 0))
        invalidArgument("not an ONNX model: it holds no graph");
    ModelFile f;
    f.format = ModelFormat::Onnx;
    f.path = path;
    f.producer = model.producer_name();
    if (!model.producer_version().empty()) f.producer += " " + model.producer_version();
    std::int64_t opset = -1;
    for (const auto& o : model.opset_import())
        if (o.domain().empty() || o.domain() == "ai.onnx") opset = o.version();
    if (opset < 1) {
        f.warnings.push_back("the file imports no opset of the default domain; opset 1 assumed");
        opset = 1;
    }
    f.version = "opset " + num(opset) + ", IR version " + num(model.ir_version());

    // onnx's checker and shape inference, away from this process (see checkAndInfer).
    const ox::ModelProto checked = checkAndInfer(model, limits, f.warnings);
    const Unrunnable unrunnable = nodesThatCannotRun(model.graph());
    f.warnings.insert(f.warnings.end(), unrunnable.warnings.begin(), unrunnable.warnings.end());

    const ox::GraphProto& g = model.graph();
    // What the file itself stores about each value.
    std::map<std::string, ValueInfo> stored;
    for (const auto& v : g.input())
        stored[v.name()] = valueInfoFrom(v.type(), "graph input");
    for (const auto& v : g.value_info())
        stored[v.name()] = valueInfoFrom(v.type(), "value_info");
    for (const auto& v : g.output())
        stored[v.name()] = valueInfoFrom(v.type(), "graph output");
    std::set<std::string> initialized;
    for (const auto& t : g.initializer())
        initialized.insert(t.name());
    for (const auto& v : g.input())
        if (!initialized.count(v.name())) f.runTimeInputs.push_back(v.name());
    for (const auto& v : g.output())
        f.graphOutputs.push_back(v.name());
    // Constants: initializers and Constant nodes.
    std::map<std::string, Tensor> constants;
    std::map<std::string, std::string> constantWhy;
    for (const auto& t : g.initializer()) {
        std::string why;
        if (auto value = tensorFromProto(t, limits, why))
            constants[t.name()] = std::move(*value);
        else
            constantWhy[t.name()] = why;
        if (!stored.count(t.name())) {
            ValueInfo v;
            v.elemType = t.data_type();
            v.shape.hasRank = true;
            for (std::int64_t d : t.dims()) {
                v.shape.dims.push_back(d >= 0 ? d : StoredShape::kUnknownDim);
                v.shape.symbols.emplace_back();
            }
            v.from = "initializer";
            stored[t.name()] = v;
        }
    }
    for (const auto& n : g.node()) {
        if (n.op_type() != "Constant" || n.output_size() != 1 ||
            !(n.domain().empty() || n.domain() == "ai.onnx") || n.attribute_size() != 1)
            continue;
        const auto& a = n.attribute(0);
        std::optional<Tensor> value;
        std::string why;
        if (a.name() == "value" && a.has_t()) {
            value = tensorFromProto(a.t(), limits, why);
        } else if (a.name() == "value_int") {
            value = Tensor::fromInts(DType::Int64, {}, {a.i()});
        } else if (a.name() == "value_ints" && a.ints_size() <= limits.maxConstantElements) {
            value = Tensor::fromInts(DType::Int64, {std::int64_t(a.ints_size())},
                                     {a.ints().begin(), a.ints().end()});
        } else if (a.name() == "value_float") {
            value = Tensor::scalar(DType::Float32, double(a.f()));
        } else if (a.name() == "value_floats" && a.floats_size() <= limits.maxConstantElements) {
            Tensor t = Tensor::empty(DType::Float32, {std::int64_t(a.floats_size())});
            for (int i = 0; i < a.floats_size(); ++i)
                t.data<float>()[i] = a.floats(i);
            value = t;
        }
        if (value)
            constants[n.output(0)] = std::move(*value);
        else if (!why.empty())
            constantWhy[n.output(0)] = why;
    }

    // What shape inference adds where the file leaves a shape out.
    std::map<std::string, ValueInfo> inferred;
    for (const auto& v : checked.graph().value_info())
        inferred[v.name()] = valueInfoFrom(v.type(), "shape inference");
    for (const auto& v : checked.graph().output())
        inferred[v.name()] = valueInfoFrom(v.type(), "shape inference");

    auto describe = [&](const std::string& name) {
        ModelValue v;
        v.name = name;
        if (name.empty()) return v;
        const ValueInfo* info = nullptr;
        if (const auto it = stored.find(name); it != stored.end()) info = &it->second;
        const auto inf = inferred.find(name);
        // A file's own entry without a shape (or type) is completed by inference.
        if ((!info || !info->shape.hasRank) && inf != inferred.end() && inf->second.shape.hasRank)
            info = &inf->second;
        if (info) {
            int elemType = info->elemType;
            if (elemType == 0 && inf != inferred.end()) elemType = inf->second.elemType;
            v.dtype = dtypeOf(elemType);
            v.dtypeText = elemType ? dtypeTextOf(elemType) : "";
            v.stored = info->shape;
            v.storedFrom = info->shape.hasRank ? info->from : "";
        }
        if (const auto c = constants.find(name); c != constants.end()) {
            v.constant = c->second;
            if (!v.dtype) {
                v.dtype = c->second.dtype();
                v.dtypeText = std::string(dtypeName(c->second.dtype()));
            }
        }
        return v;
    };

    const auto& family = onnxFamilyOps();
    f.totalNodes = g.node_size();
    for (int i = 0; i < g.node_size(); ++i) {
        limits.throwIfCancelled();
        const auto& n = g.node(i);
        ++f.opCounts[n.domain().empty() || n.domain() == "ai.onnx"
                         ? n.op_type()
                         : n.domain() + "." + n.op_type()];
        if (!(n.domain().empty() || n.domain() == "ai.onnx")) continue;
        if (std::find(family.begin(), family.end(), n.op_type()) == family.end()) continue;
        ModelNode node;
        node.name = nodeName(n, i);
        node.op = n.op_type();
        node.index = i;
        node.opVersion = opset;
        for (const auto& name : n.input())
            node.inputs.push_back(describe(name));
        for (const auto& name : n.output())
            node.outputs.push_back(describe(name));
        for (const auto& a : n.attribute())
            node.rawAttrs[a.name()] = attrFromProto(a);
        translateNode(node);
        // A constant the reader could not take says why, instead of "computed at run time".
        if (!node.request)
            for (const ModelValue& v : node.inputs)
                if (const auto w = constantWhy.find(v.name);
                    w != constantWhy.end() && node.reason.find(v.name) != std::string::npos)
                    node.reason += " (it is a constant, but " + w->second + ")";
        // A node that never runs has no output to compare, whatever its inputs' types say.
        if (const auto never = unrunnable.nodes.find(i); never != unrunnable.nodes.end()) {
            node.request.reset();
            node.reason = never->second;
        }
        f.nodes.push_back(std::move(node));
    }
    return f;
}

} // namespace

const std::vector<std::string>& onnxFamilyOps()
{
    static const std::vector<std::string> ops = {
        "Slice",        "Gather", "GatherND",        "GatherElements", "Pad",       "Transpose",
        "Tile",         "Concat", "Split",           "Squeeze",        "Unsqueeze", "DepthToSpace",
        "SpaceToDepth", "OneHot", "ReverseSequence", "Unique",         "Compress"};
    return ops;
}

Tensor readOnnxTensor(const std::string& path, const std::string& bytes, const ReadLimits& limits)
{
    ox::TensorProto proto;
    if (bytes.size() > std::size_t(INT_MAX) ||
        !proto.ParseFromArray(bytes.data(), int(bytes.size())))
        invalidArgument(path + ": not an ONNX TensorProto: the protobuf does not parse");
    std::string why;
    std::optional<Tensor> value = tensorFromProto(proto, limits, why);
    if (!value) invalidArgument(path + ": the TensorProto has no value SliceScope takes: " + why);
    return std::move(*value);
}

ModelReader onnxModelReader()
{
    ModelReader r;
    r.format = ModelFormat::Onnx;
    r.extensions = {".onnx"};
    // A ModelProto starts with ir_version (field 1, varint: 0x08), which onnx writers put first.
    r.sniff = [](std::string_view head) { return !head.empty() && head[0] == '\x08'; };
    r.read = readOnnx;
    r.translate = translateNode;
    return r;
}

} // namespace ss::model
