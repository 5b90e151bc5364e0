// SPDX-License-Identifier: GPL-3.0-or-later
// TensorFlow graphs: protobuf messages of our own (graphdef.proto), the family's nodes turned
// into engine requests by their table (graphdef_ops.cpp).
#include "model/graphdef_reader.h"

#include "core/error.h"
#include "graphdef.pb.h"
#include "model/graphdef_ops.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/text_format.h>
#include <map>
#include <set>

namespace ss::model {

namespace pb = slicescope::tf;

namespace {

std::optional<DType> dtypeOf(int type)
{
    switch (type) {
    case pb::DT_FLOAT: return DType::Float32;
    case pb::DT_DOUBLE: return DType::Float64;
    case pb::DT_INT32: return DType::Int32;
    case pb::DT_INT64: return DType::Int64;
    case pb::DT_INT16: return DType::Int16;
    case pb::DT_INT8: return DType::Int8;
    case pb::DT_UINT8: return DType::UInt8;
    case pb::DT_BOOL: return DType::Bool;
    case pb::DT_STRING: return DType::String;
    case pb::DT_HALF: return DType::Float16;
    case pb::DT_BFLOAT16: return DType::BFloat16;
    case pb::DT_COMPLEX64: return DType::Complex64;
    case pb::DT_COMPLEX128: return DType::Complex128;
    case pb::DT_UINT16: return DType::UInt16;
    case pb::DT_UINT32: return DType::UInt32;
    case pb::DT_UINT64: return DType::UInt64;
    default: return std::nullopt;
    }
}

std::string typeText(int type)
{
    return pb::DataType_IsValid(type) ? pb::DataType_Name(pb::DataType(type))
                                      : "type " + std::to_string(type);
}

// `node` and `field` name where the shape is stored, for the error a bad size gives.
StoredShape storedOf(const pb::TensorShapeProto& s, const std::string& node, const char* field)
{
    StoredShape out;
    if (s.unknown_rank()) return out;
    out.hasRank = true;
    for (const auto& d : s.dim()) {
        if (d.size() < -1)
            invalidArgument("node '" + node + "': its " + field + " has dimension " +
                            std::to_string(d.size()) + " (a size is 0 or more, or -1 if unknown)");
        out.dims.push_back(d.size() < 0 ? StoredShape::kUnknownDim : d.size());
        out.symbols.push_back(d.name());
    }
    return out;
}

// A Const's value: tensor_content (raw little-endian) or the typed list, whose last element
// repeats to fill the shape.
std::optional<Tensor> tensorOf(const pb::TensorProto& p, const ReadLimits& limits,
                               const std::string& name, std::vector<std::string>& warnings)
{
    const auto dtype = dtypeOf(p.dtype());
    if (!dtype || *dtype == DType::String) return std::nullopt;
    const StoredShape stored = storedOf(p.tensor_shape(), name, "value");
    if (!stored.isFullyKnown()) invalidArgument("constant '" + name + "' has no full shape");
    const Shape shape = *stored.shape();
    const std::int64_t n = numElements(shape);
    if (n > limits.maxConstantElements) {
        warnings.push_back("constant '" + name + "' has " + std::to_string(n) +
                           " elements; its value is not read");
        return std::nullopt;
    }
    Tensor t = Tensor::empty(*dtype, shape);
    const std::size_t bytes = std::size_t(n) * std::size_t(dtypeSize(*dtype));
    if (!p.tensor_content().empty()) {
        if (p.tensor_content().size() != bytes)
            invalidArgument("constant '" + name + "' of shape " + shapeTuple(shape) + " needs " +
                            std::to_string(bytes) + " bytes, but its tensor_content has " +
                            std::to_string(p.tensor_content().size()));
        if (bytes) std::memcpy(t.raw(), p.tensor_content().data(), bytes);
        return t;
    }
    // `set(i, k)` stores list entry k as element i.
    auto fillWith = [&](int count, auto set) {
        if (count == 0) {
            for (std::int64_t i = 0; i < n; ++i)
                t.setFromInt(i, 0);
            return;
        }
        if (count > n)
            invalidArgument("constant '" + name + "' lists " + std::to_string(count) +
                            " values for " + std::to_string(n) + " elements");
        for (std::int64_t i = 0; i < n; ++i)
            set(i, int(std::min<std::int64_t>(i, count - 1)));
    };
    auto fill = [&](int count, auto get, bool isFloat) {
        fillWith(count, [&](std::int64_t i, int k) {
            if (isFloat)
                t.setFromDouble(i, double(get(k)));
            else
                t.setFromInt(i, std::int64_t(get(k)));
        });
    };
    // Complex lists hold (real, imaginary) pairs: a pair is one value.
    auto fillComplex = [&](int count, auto get) {
        if (count % 2)
            invalidArgument("constant '" + name + "' lists " + std::to_string(count) +
                            " numbers for complex values, which come in pairs");
        fillWith(count / 2, [&](std::int64_t i, int k) {
            t.setFromComplex(i, {double(get(2 * k)), double(get(2 * k + 1))});
        });
    };
    switch (*dtype) {
    case DType::Float16:
        fillWith(p.half_val_size(), [&](std::int64_t i, int k) {
            t.data<Float16>()[i].bits = std::uint16_t(p.half_val(k));
        });
        break;
    case DType::BFloat16:
        fillWith(p.half_val_size(), [&](std::int64_t i, int k) {
            t.data<BFloat16>()[i].bits = std::uint16_t(p.half_val(k));
        });
        break;
    case DType::Complex64:
        fillComplex(p.scomplex_val_size(), [&](int k) { return p.scomplex_val(k); });
        break;
    case DType::Complex128:
        fillComplex(p.dcomplex_val_size(), [&](int k) { return p.dcomplex_val(k); });
        break;
    case DType::UInt32:
        fill(
            p.uint32_val_size(), [&](int k) { return p.uint32_val(k); }, false);
        break;
    case DType::UInt64:
        fillWith(p.uint64_val_size(),
                 [&](std::int64_t i, int k) { t.data<std::uint64_t>()[i] = p.uint64_val(k); });
        break;
    case DType::Float32:
        fill(
            p.float_val_size(), [&](int k) { return p.float_val(k); }, true);
        break;
    case DType::Float64:
        fill(
            p.double_val_size(), [&](int k) { return p.double_val(k); }, true);
        break;
    case DType::Int64:
        fill(
            p.int64_val_size(), [&](int k) { return p.int64_val(k); }, false);
        break;
    case DType::Bool:
        fill(
            p.bool_val_size(), [&](int k) { return p.bool_val(k) ? 1 : 0; }, false);
        break;
    default:
        fill(
            p.int_val_size(), [&](int k) { return p.int_val(k); }, false);
        break;
    }
    return t;
}

// "node:1" -> ("node", 1); "node" -> ("node", 0). Control inputs ("^node") are not data.
std::pair<std::string, int> splitInput(const std::string& input)
{
    const auto colon = input.rfind(':');
    if (colon != std::string::npos && colon + 1 < input.size() &&
        std::all_of(input.begin() + std::ptrdiff_t(colon) + 1, input.end(),
                    [](char c) { return c >= '0' && c <= '9'; }) &&
        input.size() - colon - 1 < 9)
        return {input.substr(0, colon), std::stoi(input.substr(colon + 1))};
    return {input, 0};
}

const pb::AttrValue* attrOf(const pb::NodeDef& n, const char* name)
{
    const auto it = n.attr().find(name);
    return it == n.attr().end() ? nullptr : &it->second;
}

// Attributes as the engine's Attr values: ints, floats, bools, strings, types (by name), lists.
Attrs rawAttrsOf(const pb::NodeDef& n)
{
    Attrs a;
    for (const auto& [key, v] : n.attr()) {
        if (key.starts_with("_")) continue; // _output_shapes, _class: not the op's
        switch (v.value_case()) {
        case pb::AttrValue::kI: a[key] = std::int64_t(v.i()); break;
        case pb::AttrValue::kF: a[key] = double(v.f()); break;
        case pb::AttrValue::kB: a[key] = v.b(); break;
        case pb::AttrValue::kS: a[key] = v.s(); break;
        case pb::AttrValue::kType: a[key] = typeText(v.type()); break;
        case pb::AttrValue::kList: {
            Attr::List l;
            for (auto i : v.list().i())
                l.push_back(std::int64_t(i));
            a[key] = l;
            break;
        }
        default: break;
        }
    }
    return a;
}

// How many outputs a family node has: as many as its stored shapes, else as its op says.
int outputCount(const pb::NodeDef& n, const ModelNode& node)
{
    if (const auto* s = attrOf(n, "_output_shapes"); s && s->has_list() && s->list().shape_size())
        return s->list().shape_size();
    return graphDefOutputCount(node);
}

class GraphIndex
{
public:
    GraphIndex(const pb::GraphDef& g, const ReadLimits& limits, std::vector<std::string>& warnings)
        : m_limits(limits), m_warnings(warnings)
    {
        for (const auto& n : g.node())
            m_nodes.emplace(n.name(), &n);
    }

    // The value `input` names, as the producing node describes it; `typeAttr` of the consumer
    // gives the dtype where the producer does not.
    ModelValue value(const std::string& input, std::optional<DType> consumerType,
                     const std::string& consumerTypeText)
    {
        ModelValue v;
        const auto [node, k] = splitInput(input);
        v.name = input;
        const auto it = m_nodes.find(node);
        if (it == m_nodes.end()) {
            m_warnings.push_back("input '" + input + "' names no node of the graph");
            v.dtype = consumerType;
            v.dtypeText = consumerTypeText;
            return v;
        }
        const pb::NodeDef& p = *it->second;
        const pb::AttrValue* type = attrOf(p, "dtype");
        if (!type) type = attrOf(p, "T");
        if (type && type->value_case() == pb::AttrValue::kType && p.op() != "Shape") {
            v.dtype = dtypeOf(type->type());
            v.dtypeText = typeText(type->type());
        } else {
            v.dtype = consumerType;
            v.dtypeText = consumerTypeText;
        }
        if (const auto* s = attrOf(p, "_output_shapes");
            s && s->has_list() && k < s->list().shape_size()) {
            v.stored = storedOf(s->list().shape(k), p.name(), "_output_shapes");
            v.storedFrom = "_output_shapes";
        } else if (const auto* shape = attrOf(p, "shape"); shape && shape->has_shape()) {
            v.stored = storedOf(shape->shape(), p.name(), "shape");
            v.storedFrom = "shape";
        }
        if (p.op() == "Const" && k == 0)
            if (const auto* val = attrOf(p, "value"); val && val->has_tensor()) {
                v.constant = tensorOf(val->tensor(), m_limits, p.name(), m_warnings);
                if (!v.stored.hasRank) {
                    v.stored = storedOf(val->tensor().tensor_shape(), p.name(), "value");
                    v.storedFrom = "value";
                }
            }
        return v;
    }

private:
    std::map<std::string, const pb::NodeDef*> m_nodes;
    const ReadLimits& m_limits;
    std::vector<std::string>& m_warnings;
};

// The dtype a node's data inputs have, from its own type attribute.
std::pair<std::optional<DType>, std::string> dataType(const pb::NodeDef& n)
{
    for (const char* name : {"T", "Tparams"})
        if (const auto* t = attrOf(n, name); t && t->value_case() == pb::AttrValue::kType)
            return {dtypeOf(t->type()), typeText(t->type())};
    return {std::nullopt, ""};
}

ModelFile fromGraph(const pb::GraphDef& graph, const std::string& path, const ReadLimits& limits,
                    const std::string& version)
{
    ModelFile file;
    file.format = ModelFormat::GraphDef;
    file.path = path;
    file.version = version;
    file.totalNodes = graph.node_size();
    GraphIndex index(graph, limits, file.warnings);
    std::int64_t at = 0;
    for (const pb::NodeDef& n : graph.node()) {
        const std::int64_t position = at++;
        ++file.opCounts[n.op()];
        if (!isGraphDefFamilyOp(n.op())) continue;
        ModelNode node;
        node.name = n.name().empty() ? n.op() + "#" + std::to_string(position) : n.name();
        node.op = n.op();
        node.index = position;
        const auto [type, typeName] = dataType(n);
        for (const std::string& in : n.input()) {
            if (in.starts_with("^")) continue; // control dependency
            node.inputs.push_back(index.value(in, type, typeName));
        }
        node.rawAttrs = rawAttrsOf(n);
        const int outputs = outputCount(n, node);
        const auto* shapes = attrOf(n, "_output_shapes");
        for (int k = 0; k < outputs; ++k) {
            ModelValue out;
            out.name = k == 0 ? n.name() : n.name() + ":" + std::to_string(k);
            out.dtype = type;
            out.dtypeText = typeName;
            if (shapes && shapes->has_list() && k < shapes->list().shape_size()) {
                out.stored = storedOf(shapes->list().shape(k), n.name(), "_output_shapes");
                out.storedFrom = "_output_shapes";
            }
            node.outputs.push_back(std::move(out));
        }
        translateGraphDefNode(node);
        file.nodes.push_back(std::move(node));
    }
    return file;
}

// Our copy of TensorFlow's messages lives in package slicescope.tf (graphdef.proto); a message
// naming one says TensorFlow's name for it, as in "tensorflow.AttrValue".
std::string withTensorflowNames(std::string message)
{
    static const std::string ours = "slicescope.tf.";
    for (std::size_t at = message.find(ours); at != std::string::npos; at = message.find(ours, at))
        message.replace(at, ours.size(), "tensorflow.");
    return message;
}

// The byte offset of protobuf's (line, column), both 0-based (a tab advances the column to the
// next multiple of 8, as protobuf's tokenizer counts).
std::size_t offsetOf(const std::string& text, int line, int column)
{
    std::size_t at = 0;
    for (int l = 0; l < line && at < text.size(); ++at)
        if (text[at] == '\n') ++l;
    for (int c = 0; c < column && at < text.size() && text[at] != '\n'; ++at)
        c = text[at] == '\t' ? (c / 8 + 1) * 8 : c + 1;
    return at;
}

// Protobuf reports text-format errors through a collector; we want the first one as a message,
// not a line on stderr.
class FirstError : public google::protobuf::io::ErrorCollector
{
public:
    void AddError(int line, google::protobuf::io::ColumnNumber column,
                  const std::string& message) override
    {
        if (text.empty()) {
            text = withTensorflowNames(message);
            firstLine = line;
            firstColumn = column;
        }
    }
    void AddWarning(int, google::protobuf::io::ColumnNumber, const std::string&) override {}
    /// The first error in our words, with its line and column in `parsed` and protobuf's own
    /// text after it: a file cut short ends inside a message, where protobuf only says what
    /// token it expected ("Expected identifier, got: ").
    std::string describe(const std::string& parsed) const
    {
        const std::string where =
            "line " + std::to_string(firstLine + 1) + ", column " + std::to_string(firstColumn + 1);
        const std::size_t last = parsed.find_last_not_of(" \t\r\n");
        if (last == std::string::npos || offsetOf(parsed, firstLine, firstColumn) > last)
            return "the text ends at " + where +
                   " before what it opened is closed (cut short? a '}' or a value is missing); "
                   "protobuf: " +
                   text;
        return where + ": " + text;
    }
    std::string text;
    int firstLine = 0; ///< 0-based, of the first error
    int firstColumn = 0;
};

template <class Message> bool parseBinary(Message& m, const std::string& bytes)
{
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                              int(std::min<std::size_t>(bytes.size(), INT32_MAX)));
    in.SetRecursionLimit(64);
    return m.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
}

template <class Message> bool parseText(Message& m, const std::string& bytes, std::string& error)
{
    google::protobuf::TextFormat::Parser parser;
    FirstError errors;
    parser.RecordErrorsTo(&errors);
    parser.SetRecursionLimit(64);
    const bool ok = parser.ParseFromString(bytes, &m);
    if (!ok) error = errors.describe(bytes);
    return ok;
}

// Protobuf logs what it dislikes in a damaged file (invalid UTF-8 in a string field) on stderr;
// the reader reports the failure itself, so the log stays quiet while it parses.
class QuietProtobuf
{
public:
    QuietProtobuf() : m_old(google::protobuf::SetLogHandler(nullptr)) {}
    ~QuietProtobuf() { google::protobuf::SetLogHandler(m_old); }
    QuietProtobuf(const QuietProtobuf&) = delete;
    QuietProtobuf& operator=(const QuietProtobuf&) = delete;

private:
    google::protobuf::LogHandler* m_old;
};

ModelFile readGraphDef(const std::string& path, const std::string& bytes, const ReadLimits& limits)
{
    const QuietProtobuf quiet;
    const std::string fileName = std::filesystem::path(path).filename().string();
    const bool text = fileName.ends_with(".pbtxt");
    const bool savedModel = fileName.starts_with("saved_model.");
    pb::GraphDef graph;
    std::string version;
    auto fromSaved = [&](const pb::SavedModel& sm) {
        if (sm.meta_graphs_size() == 0) invalidArgument("the SavedModel has no MetaGraphDef");
        graph = sm.meta_graphs(0).graph_def();
        version = "SavedModel schema " + std::to_string(sm.saved_model_schema_version());
    };
    if (text) {
        std::string error;
        pb::SavedModel sm;
        if (savedModel && parseText(sm, bytes, error)) {
            fromSaved(sm);
        } else if (!parseText(graph, bytes, error)) {
            invalidArgument("not a TensorFlow GraphDef in text form: " + error);
        }
    } else {
        pb::SavedModel sm;
        if (savedModel) {
            if (!parseBinary(sm, bytes))
                invalidArgument("not a TensorFlow SavedModel: the protobuf does not parse");
            fromSaved(sm);
        } else if (!parseBinary(graph, bytes)) {
            if (!parseBinary(sm, bytes) || sm.meta_graphs_size() == 0)
                invalidArgument("not a TensorFlow GraphDef or SavedModel: the protobuf does not "
                                "parse");
            fromSaved(sm);
        }
    }
    if (graph.node_size() == 0)
        invalidArgument("the file holds no graph node (is it a TensorFlow graph?)");
    if (version.empty()) version = "producer " + std::to_string(graph.versions().producer());
    ModelFile file = fromGraph(graph, path, limits, version);
    return file;
}

} // namespace

ModelFile readGraphDefText(const std::string& text, const ReadLimits& limits)
{
    const QuietProtobuf quiet;
    pb::GraphDef graph;
    google::protobuf::TextFormat::Parser parser;
    FirstError errors;
    parser.RecordErrorsTo(&errors);
    parser.SetRecursionLimit(64);
    if (!parser.ParseFromString(text, &graph)) {
        // A NodeDef's own fields, as printed inside `node { ... }`, are one node.
        pb::NodeDef node;
        google::protobuf::TextFormat::Parser nodeParser;
        FirstError nodeErrors;
        nodeParser.RecordErrorsTo(&nodeErrors);
        nodeParser.SetRecursionLimit(64);
        const bool bare = text.find("node") == std::string::npos ||
                          text.find_first_not_of(" \t\r\n") != text.find("node");
        if (!bare || !nodeParser.ParseFromString(text, &node)) {
            const FirstError& first = bare ? nodeErrors : errors;
            const std::size_t at = offsetOf(text, first.firstLine, first.firstColumn);
            int position = 0;
            for (std::size_t i = 0; i < at; ++i)
                position += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
            std::size_t end = at;
            while (end < text.size() && text[end] != '\n' && end - at < 30)
                ++end;
            throw OpError(ErrorCode::ParseError,
                          "the node text does not read: " + first.describe(text) +
                              " (at position " + std::to_string(position) + ": '" +
                              text.substr(at, end - at) + "')",
                          position);
        }
        *graph.add_node() = node;
    }
    if (graph.node_size() == 0)
        throw OpError(ErrorCode::ParseError, "the node text holds no node", 0);
    return fromGraph(graph, "the pasted text", limits, "");
}

ModelReader graphDefReader()
{
    ModelReader r;
    r.format = ModelFormat::GraphDef;
    r.extensions = {".pb", ".pbtxt"};
    r.sniff = nullptr; // a protobuf has no signature
    r.read = readGraphDef;
    r.translate = translateGraphDefNode;
    r.ops = graphDefOpNames();
    return r;
}

} // namespace ss::model
