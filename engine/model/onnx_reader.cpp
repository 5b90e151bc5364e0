// SPDX-License-Identifier: GPL-3.0-or-later
// ONNX files through onnx's own C++ classes (Debian's libonnx): the protobuf is parsed by
// ModelProto, checked by onnx::checker and shape-inferred by onnx::shape_inference in a child
// process (onnx_checker.cpp). Each node of the family is translated by its entry of the op table
// (onnx_ops.cpp).
#include "model/onnx_reader.h"

#include "core/checked.h"
#include "core/error.h"
#include "core/strings.h"
#include "model/onnx_checker.h"
#include "model/onnx_ops.h"
#include "model/onnx_shape_folding.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <onnx/onnx_pb.h>
#include <set>

namespace ss::model {

namespace {

namespace ox = ONNX_NAMESPACE;

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

// A TensorProto's shape, once its values are known to be there and within the limits; or none,
// with why ("stored in an external file").
std::optional<Shape> checkedShape(const ox::TensorProto& t, DType dtype, const ReadLimits& limits,
                                  std::string& why)
{
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
    const std::int64_t stored = storedValues(t, dtype);
    if (stored != *n) {
        why = stored < 0
                  ? "its data is not a whole number of " + std::string(dtypeName(dtype)) + " values"
                  : "it holds " + num(stored) + " values for shape " + shapeTuple(shape);
        return std::nullopt;
    }
    return shape;
}

// The `n` values of a TensorProto without raw data, from the typed field onnx.proto assigns
// the dtype of `out`.
void fillFromTypedFields(const ox::TensorProto& t, Tensor& out, std::int64_t n)
{
    const DType dtype = out.dtype();
    switch (dtype) {
    case DType::Float32:
        for (std::int64_t i = 0; i < n; ++i)
            out.data<float>()[i] = t.float_data(int(i));
        break;
    case DType::Complex64:
        for (std::int64_t i = 0; i < n; ++i)
            out.data<std::complex<float>>()[i] = {t.float_data(int(2 * i)),
                                                  t.float_data(int(2 * i + 1))};
        break;
    case DType::Float64:
        for (std::int64_t i = 0; i < n; ++i)
            out.data<double>()[i] = t.double_data(int(i));
        break;
    case DType::Complex128:
        for (std::int64_t i = 0; i < n; ++i)
            out.data<std::complex<double>>()[i] = {t.double_data(int(2 * i)),
                                                   t.double_data(int(2 * i + 1))};
        break;
    case DType::Int64:
        for (std::int64_t i = 0; i < n; ++i)
            out.data<std::int64_t>()[i] = t.int64_data(int(i));
        break;
    case DType::UInt32:
        for (std::int64_t i = 0; i < n; ++i)
            out.data<std::uint32_t>()[i] = std::uint32_t(t.uint64_data(int(i)));
        break;
    case DType::UInt64:
        for (std::int64_t i = 0; i < n; ++i)
            out.data<std::uint64_t>()[i] = t.uint64_data(int(i));
        break;
    case DType::Float16:
        for (std::int64_t i = 0; i < n; ++i)
            out.data<Float16>()[i].bits = std::uint16_t(t.int32_data(int(i)));
        break;
    case DType::BFloat16:
        for (std::int64_t i = 0; i < n; ++i)
            out.data<BFloat16>()[i].bits = std::uint16_t(t.int32_data(int(i)));
        break;
    default: // int32, int16, int8, uint8, uint16 and bool live in int32_data
        for (std::int64_t i = 0; i < n; ++i)
            out.setFromInt(i, t.int32_data(int(i)));
        break;
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
    const std::optional<Shape> shape = checkedShape(t, *dtype, limits, why);
    if (!shape) return std::nullopt;
    const std::int64_t n = numElements(*shape);
    Tensor out = Tensor::empty(*dtype, *shape);
    if (*dtype == DType::String) {
        for (std::int64_t i = 0; i < n; ++i)
            out.data<std::string>()[i] = t.string_data(int(i));
        return out;
    }
    if (t.has_raw_data()) {
        // ONNX stores raw data little-endian, as this machine is.
        const std::string& raw = t.raw_data();
        if (n > 0) std::memcpy(out.raw(), raw.data(), raw.size());
        if (*dtype == DType::Bool)
            for (std::int64_t i = 0; i < n; ++i)
                out.data<bool>()[i] = raw[std::size_t(i)] != 0;
        return out;
    }
    fillFromTypedFields(t, out, n);
    return out;
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

// Who makes each value: the node of each output.
std::map<std::string, int> producers(const ox::GraphProto& g)
{
    std::map<std::string, int> producer;
    for (int i = 0; i < g.node_size(); ++i)
        for (const auto& out : g.node(i).output())
            if (!out.empty()) producer.emplace(out, i);
    return producer;
}

// The nodes that run (Kahn's order over what each node waits for), and in `missing`, per node
// reading a value nothing makes, one such value.
std::vector<bool> nodesThatRun(const ox::GraphProto& g, const std::map<std::string, int>& producer,
                               std::map<int, std::string>& missing)
{
    const int n = g.node_size();
    std::set<std::string> made{""}; // "": an optional input left out
    for (const auto& v : g.input())
        made.insert(v.name());
    for (const auto& t : g.initializer())
        made.insert(t.name());
    std::vector<int> waiting(std::size_t(n), 0);
    std::map<std::string, std::vector<int>> readers;
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
    return runs;
}

// The cycles among the stuck nodes: those left once the ones with no stuck node before them, or
// none after them, are taken away (one reading a missing value, those after a cycle).
std::set<int> cyclesAmong(const ox::GraphProto& g, const std::set<int>& stuck,
                          const std::map<std::string, int>& producer)
{
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
    return cycle;
}

Unrunnable nodesThatCannotRun(const ox::GraphProto& g)
{
    const std::map<std::string, int> producer = producers(g);
    std::map<int, std::string> missing; // a node -> an input nothing makes
    const std::vector<bool> runs = nodesThatRun(g, producer, missing);
    Unrunnable result;
    std::set<int> stuck;
    for (int i = 0; i < g.node_size(); ++i)
        if (!runs[std::size_t(i)]) stuck.insert(i);
    if (stuck.empty()) return result;
    const std::set<int> cycle = cyclesAmong(g, stuck, producer);
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

// ---- readOnnx's stages --------------------------------------------------------------------

// The file parsed, with a graph.
ox::ModelProto parseModel(const std::string& bytes)
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
    return model;
}

bool isDefaultDomain(const std::string& domain)
{
    return domain.empty() || domain == "ai.onnx";
}

// What the file says about itself (producer, opset, IR version); returns the default domain's
// opset.
std::int64_t describeFile(const ox::ModelProto& model, ModelFile& f)
{
    f.producer = model.producer_name();
    if (!model.producer_version().empty()) f.producer += " " + model.producer_version();
    std::int64_t opset = -1;
    for (const auto& o : model.opset_import())
        if (isDefaultDomain(o.domain())) opset = o.version();
    if (opset < 1) {
        f.warnings.push_back("the file imports no opset of the default domain; opset 1 assumed");
        opset = 1;
    }
    f.version = "opset " + num(opset) + ", IR version " + num(model.ir_version());
    return opset;
}

// The graph's inputs that have no initializer (run time's), and its outputs.
void listGraphInputsAndOutputs(const ox::GraphProto& g, ModelFile& f)
{
    std::set<std::string> initialized;
    for (const auto& t : g.initializer())
        initialized.insert(t.name());
    for (const auto& v : g.input())
        if (!initialized.count(v.name())) f.runTimeInputs.push_back(v.name());
    for (const auto& v : g.output())
        f.graphOutputs.push_back(v.name());
}

// Everything the graph knows about its values, by name, and the description of one of them.
struct GraphValues
{
    std::map<std::string, ValueInfo> stored;   // the file's own
    std::map<std::string, ValueInfo> inferred; // shape inference's
    std::map<std::string, Tensor> constants;
    std::map<std::string, std::string> constantWhy; // a constant kept without its value: why
    std::map<std::string, std::string> foldedBy;    // a constant folded at reading: the node's name

    ModelValue describe(const std::string& name) const;
};

// What the file itself stores about each value: graph inputs, value_info, graph outputs, and
// the initializers' dims where none of those speaks of them.
std::map<std::string, ValueInfo> storedInfos(const ox::GraphProto& g)
{
    std::map<std::string, ValueInfo> stored;
    for (const auto& v : g.input())
        stored[v.name()] = valueInfoFrom(v.type(), "graph input");
    for (const auto& v : g.value_info())
        stored[v.name()] = valueInfoFrom(v.type(), "value_info");
    for (const auto& v : g.output())
        stored[v.name()] = valueInfoFrom(v.type(), "graph output");
    for (const auto& t : g.initializer()) {
        if (stored.count(t.name())) continue;
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
    return stored;
}

// What shape inference adds where the file leaves a shape out.
std::map<std::string, ValueInfo> inferredInfos(const ox::ModelProto& checked)
{
    std::map<std::string, ValueInfo> inferred;
    for (const auto& v : checked.graph().value_info())
        inferred[v.name()] = valueInfoFrom(v.type(), "shape inference");
    for (const auto& v : checked.graph().output())
        inferred[v.name()] = valueInfoFrom(v.type(), "shape inference");
    return inferred;
}

// A Constant node's value (`value`, `value_int(s)`, `value_float(s)`), or none (`why` says why
// when there is a reason to give).
std::optional<Tensor> constantNodeValue(const ox::AttributeProto& a, const ReadLimits& limits,
                                        std::string& why)
{
    if (a.name() == "value" && a.has_t()) return tensorFromProto(a.t(), limits, why);
    if (a.name() == "value_int") return Tensor::fromInts(DType::Int64, {}, {a.i()});
    if (a.name() == "value_ints" && a.ints_size() <= limits.maxConstantElements)
        return Tensor::fromInts(DType::Int64, {std::int64_t(a.ints_size())},
                                {a.ints().begin(), a.ints().end()});
    if (a.name() == "value_float") return Tensor::scalar(DType::Float32, double(a.f()));
    if (a.name() == "value_floats" && a.floats_size() <= limits.maxConstantElements) {
        Tensor t = Tensor::empty(DType::Float32, {std::int64_t(a.floats_size())});
        for (int i = 0; i < a.floats_size(); ++i)
            t.data<float>()[i] = a.floats(i);
        return t;
    }
    return std::nullopt;
}

// Constants: initializers and Constant nodes.
void readConstants(const ox::GraphProto& g, const ReadLimits& limits, GraphValues& values)
{
    for (const auto& t : g.initializer()) {
        std::string why;
        if (auto value = tensorFromProto(t, limits, why))
            values.constants[t.name()] = std::move(*value);
        else
            values.constantWhy[t.name()] = why;
    }
    for (const auto& n : g.node()) {
        if (n.op_type() != "Constant" || n.output_size() != 1 || !isDefaultDomain(n.domain()) ||
            n.attribute_size() != 1)
            continue;
        std::string why;
        if (auto value = constantNodeValue(n.attribute(0), limits, why))
            values.constants[n.output(0)] = std::move(*value);
        else if (!why.empty())
            values.constantWhy[n.output(0)] = why;
    }
}

ModelValue GraphValues::describe(const std::string& name) const
{
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
        if (const auto by = foldedBy.find(name); by != foldedBy.end()) v.foldedBy = by->second;
        if (!v.dtype) {
            v.dtype = c->second.dtype();
            v.dtypeText = std::string(dtypeName(c->second.dtype()));
        }
    }
    return v;
}

// Node `n` as the reader describes it (op, opset, inputs, outputs, attributes), untranslated.
ModelNode describeNode(const ox::NodeProto& n, int i, std::int64_t opset, const GraphValues& values)
{
    ModelNode node;
    node.name = nodeName(n, i);
    node.op = n.op_type();
    node.index = i;
    node.opVersion = opset;
    for (const auto& name : n.input())
        node.inputs.push_back(values.describe(name));
    for (const auto& name : n.output())
        node.outputs.push_back(values.describe(name));
    for (const auto& a : n.attribute())
        node.rawAttrs[a.name()] = attrFromProto(a);
    return node;
}

// ConstantOfShape's value and Cast's type, which rawAttrs does not keep.
FoldAttributes foldAttributes(const ox::NodeProto& n, const ReadLimits& limits)
{
    FoldAttributes extra;
    for (const auto& a : n.attribute()) {
        std::string why;
        if (a.name() == "value" && a.has_t()) extra.value = tensorFromProto(a.t(), limits, why);
        if (a.name() == "to" && a.type() == ox::AttributeProto_AttributeType_INT)
            extra.to = dtypeOf(int(a.i()));
    }
    return extra;
}

// The shape computations whose inputs the file fixes (onnx_shape_folding.h), folded in graph
// order into `values`: their outputs become constants, named with the node that computed them.
// All the folded values together hold at most limits.maxConstantElements elements.
void foldShapeComputations(const ox::GraphProto& g, std::int64_t opset, const Unrunnable& never,
                           const ReadLimits& limits, GraphValues& values)
{
    Executor executor(1, true);
    std::int64_t budget = limits.maxConstantElements;
    for (int i = 0; i < g.node_size(); ++i) {
        limits.throwIfCancelled();
        const auto& n = g.node(i);
        if (!isDefaultDomain(n.domain()) || n.op_type() == "Constant" || never.nodes.count(i))
            continue;
        const bool readsOnlyKnown =
            std::all_of(n.input().begin(), n.input().end(), [&](const std::string& in) {
                return in.empty() || values.constants.count(in);
            });
        if (!readsOnlyKnown && n.op_type() != "Shape" && n.op_type() != "Size") continue;
        const auto outputs =
            foldNode(describeNode(n, i, opset, values), foldAttributes(n, limits), executor);
        if (!outputs) continue;
        for (int k = 0; k < n.output_size(); ++k) {
            const Tensor& t = (*outputs)[std::size_t(k)];
            if (n.output(k).empty() || values.constants.count(n.output(k)) || t.size() > budget)
                continue;
            budget -= t.size();
            values.constants[n.output(k)] = t;
            values.foldedBy[n.output(k)] = nodeName(n, i);
        }
    }
}

// Shape inference reads the values of small initializers only (a shape, starts, pads): the
// large ones (weights) go as graph inputs of their type and shape instead, so that running it
// again does not send and parse a model's weights a second time.
void dropWeights(ox::GraphProto& g)
{
    std::set<std::string> inputs;
    for (const auto& in : g.input())
        inputs.insert(in.name());
    google::protobuf::RepeatedPtrField<ox::TensorProto> small;
    for (ox::TensorProto& t : *g.mutable_initializer()) {
        std::int64_t n = 1;
        for (const std::int64_t d : t.dims())
            n = d < 0 || d > kMaxFoldedElements ? kMaxFoldedElements + 1
                                                : std::min(n * d, kMaxFoldedElements + 1);
        if (n <= kMaxFoldedElements) {
            small.Add()->Swap(&t);
            continue;
        }
        if (inputs.count(t.name())) continue; // IR 3: declared as an input already
        auto* type = g.add_input();
        type->set_name(t.name());
        auto* tensor = type->mutable_type()->mutable_tensor_type();
        tensor->set_elem_type(t.data_type());
        auto* shape = tensor->mutable_shape();
        for (const std::int64_t d : t.dims())
            shape->add_dim()->set_dim_value(d);
    }
    g.mutable_initializer()->Swap(&small);
}

// A copy of the model with the folded integer values as initializers (the nodes that made them
// left out, so that each value is defined once; no weights), for shape inference to run again with
// them known: the nodes after a Slice whose ends only folding knows (torch's chunk, F.pad from
// opset 11) then learn their inputs' types and shapes as ONNX infers them.
ox::ModelProto withFoldedValues(const ox::ModelProto& model, const GraphValues& values)
{
    ox::ModelProto copy = model;
    ox::GraphProto& g = *copy.mutable_graph();
    std::set<std::string> added;
    for (const auto& [name, by] : values.foldedBy) {
        const Tensor& t = values.constants.at(name);
        const int type = t.dtype() == DType::Int64   ? ox::TensorProto_DataType_INT64
                         : t.dtype() == DType::Int32 ? ox::TensorProto_DataType_INT32
                         : t.dtype() == DType::Bool  ? ox::TensorProto_DataType_BOOL
                                                     : 0;
        if (type == 0) continue;
        ox::TensorProto& p = *g.add_initializer();
        p.set_name(name);
        p.set_data_type(type);
        for (const std::int64_t d : t.shape())
            p.add_dims(d);
        p.set_raw_data(static_cast<const char*>(t.raw()),
                       std::size_t(t.size()) * std::size_t(dtypeSize(t.dtype())));
        added.insert(name);
    }
    dropWeights(g);
    google::protobuf::RepeatedPtrField<ox::NodeProto> kept;
    for (const ox::NodeProto& n : g.node())
        if (!std::all_of(n.output().begin(), n.output().end(),
                         [&](const std::string& out) { return added.count(out) > 0; }))
            *kept.Add() = n;
    g.mutable_node()->Swap(&kept);
    return copy;
}

// One family node, translated; `never` is why it can never run, if it cannot.
ModelNode readNode(const ox::NodeProto& n, int i, std::int64_t opset, const GraphValues& values,
                   const std::string* never)
{
    ModelNode node = describeNode(n, i, opset, values);
    translateOnnxNode(node);
    // A constant the reader could not take says why, instead of "computed at run time".
    if (!node.request)
        for (const ModelValue& v : node.inputs)
            if (const auto w = values.constantWhy.find(v.name);
                w != values.constantWhy.end() && node.reason.find(v.name) != std::string::npos)
                node.reason += " (it is a constant, but " + w->second + ")";
    // A node that never runs has no output to compare, whatever its inputs' types say, and no
    // value given makes it run.
    if (never) {
        node.request.reset();
        node.reason = *never;
        node.blockedBy.clear();
    }
    return node;
}

ModelFile readOnnx(const std::string& path, const std::string& bytes, const ReadLimits& limits)
{
    const ox::ModelProto model = parseModel(bytes);
    ModelFile f;
    f.format = ModelFormat::Onnx;
    f.path = path;
    const std::int64_t opset = describeFile(model, f);

    // onnx's checker and shape inference, away from this process (onnx_checker.h).
    const ox::ModelProto checked = checkAndInfer(model, limits, f.warnings);
    const Unrunnable unrunnable = nodesThatCannotRun(model.graph());
    f.warnings.insert(f.warnings.end(), unrunnable.warnings.begin(), unrunnable.warnings.end());

    const ox::GraphProto& g = model.graph();
    listGraphInputsAndOutputs(g, f);
    GraphValues values;
    values.stored = storedInfos(g);
    readConstants(g, limits, values);
    values.inferred = inferredInfos(checked);
    foldShapeComputations(g, opset, unrunnable, limits, values);
    if (!values.foldedBy.empty()) {
        std::vector<std::string> again; // the file's complaints, said once already
        for (auto& [name, info] :
             inferredInfos(checkAndInfer(withFoldedValues(model, values), limits, again)))
            values.inferred[name] = std::move(info);
    }

    f.totalNodes = g.node_size();
    for (int i = 0; i < g.node_size(); ++i) {
        limits.throwIfCancelled();
        const auto& n = g.node(i);
        const bool inDefaultDomain = isDefaultDomain(n.domain());
        ++f.opCounts[inDefaultDomain ? n.op_type() : n.domain() + "." + n.op_type()];
        if (!inDefaultDomain || !isOnnxFamilyOp(n.op_type())) continue;
        const auto never = unrunnable.nodes.find(i);
        f.nodes.push_back(readNode(n, i, opset, values,
                                   never != unrunnable.nodes.end() ? &never->second : nullptr));
    }
    return f;
}

} // namespace

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
    r.translate = translateOnnxNode;
    r.ops = onnxFamilyOps();
    return r;
}

} // namespace ss::model