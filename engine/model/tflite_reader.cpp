// SPDX-License-Identifier: GPL-3.0-or-later
// TFLite files: FlatBuffers verified against our schema subset, then the slicing family's
// operators turned into engine requests by their table (tflite_ops.cpp).
#include "model/tflite_reader.h"

#include "core/error.h"
#include "model/tflite_ops.h"

#include <algorithm>
#include <cstring>
#include <flatbuffers/flatbuffers.h>
#include <limits>
#include <map>

namespace ss::model {

namespace tfl = ss::tflite;

namespace {

// An operator's name for the op counts: the schema's builtin name, a custom op's own name, or
// the code (builtins our schema does not list).
std::string opName(const tfl::OperatorCode& oc, std::int32_t code)
{
    if (code == tfl::BuiltinOperator_CUSTOM && oc.custom_code()) return oc.custom_code()->str();
    const std::string name = tfl::EnumNameBuiltinOperator(tfl::BuiltinOperator(code));
    return name.empty() ? "builtin operator " + std::to_string(code) : name;
}

std::optional<DType> dtypeOf(std::int8_t type)
{
    switch (type) {
    case tfl::TensorType_FLOAT32: return DType::Float32;
    case tfl::TensorType_FLOAT64: return DType::Float64;
    case tfl::TensorType_INT32: return DType::Int32;
    case tfl::TensorType_INT64: return DType::Int64;
    case tfl::TensorType_INT16: return DType::Int16;
    case tfl::TensorType_INT8: return DType::Int8;
    case tfl::TensorType_UINT8: return DType::UInt8;
    case tfl::TensorType_BOOL: return DType::Bool;
    case tfl::TensorType_STRING: return DType::String;
    case tfl::TensorType_FLOAT16: return DType::Float16;
    case tfl::TensorType_BFLOAT16: return DType::BFloat16;
    case tfl::TensorType_COMPLEX64: return DType::Complex64;
    case tfl::TensorType_COMPLEX128: return DType::Complex128;
    case tfl::TensorType_UINT16: return DType::UInt16;
    case tfl::TensorType_UINT32: return DType::UInt32;
    case tfl::TensorType_UINT64: return DType::UInt64;
    default: return std::nullopt;
    }
}

// A constant tensor from its buffer: the bytes little-endian, row-major, exactly the size the
// shape and type need. Strings (TFLite's own packed layout) are not read.
std::optional<Tensor> constantOf(const tfl::Tensor& t, const Shape& shape,
                                 std::optional<DType> dtype, const std::string& bytes,
                                 const tfl::Model& model, const ReadLimits& limits,
                                 std::vector<std::string>& warnings, const std::string& name)
{
    const auto* buffers = model.buffers();
    const std::uint32_t index = t.buffer();
    if (index == 0) return std::nullopt; // buffer 0 is the empty sentinel: computed at run time
    if (!buffers || index >= buffers->size())
        invalidArgument("tensor '" + name + "' refers to buffer " + std::to_string(index) +
                        ", but the file has " + std::to_string(buffers ? buffers->size() : 0) +
                        " buffers");
    const tfl::Buffer* buffer = buffers->Get(index);
    const std::uint8_t* data = nullptr;
    std::uint64_t size = 0;
    if (buffer->data() && buffer->data()->size() > 0) {
        data = buffer->data()->data();
        size = buffer->data()->size();
    } else if (buffer->offset() > 1) {
        // Files over 2 GB keep buffers after the FlatBuffer, at an offset from the file's start.
        if (buffer->offset() > bytes.size() || buffer->size() > bytes.size() - buffer->offset())
            invalidArgument("buffer " + std::to_string(index) + " lies outside the file (offset " +
                            std::to_string(buffer->offset()) + ", size " +
                            std::to_string(buffer->size()) + ")");
        data = reinterpret_cast<const std::uint8_t*>(bytes.data()) + buffer->offset();
        size = buffer->size();
    }
    if (!data) return std::nullopt; // an empty buffer: a run-time value (a variable, an input)
    if (!dtype || *dtype == DType::String) return std::nullopt;
    const std::int64_t n = numElements(shape);
    if (n > limits.maxConstantElements) {
        warnings.push_back("constant '" + name + "' has " + std::to_string(n) +
                           " elements; its value is not read");
        return std::nullopt;
    }
    const std::uint64_t need = std::uint64_t(n) * std::uint64_t(dtypeSize(*dtype));
    if (size != need)
        invalidArgument("constant '" + name + "' of shape " + shapeTuple(shape) + " and type " +
                        tfliteTypeText(t.type()) + " needs " + std::to_string(need) +
                        " bytes, but its buffer holds " + std::to_string(size));
    Tensor value = Tensor::empty(*dtype, shape);
    if (need) std::memcpy(value.raw(), data, std::size_t(need));
    return value;
}

ModelValue valueOf(const tfl::SubGraph& graph, std::int32_t index, const std::string& bytes,
                   const tfl::Model& model, const ReadLimits& limits,
                   std::vector<std::string>& warnings)
{
    ModelValue v;
    if (index == -1) return v; // an omitted optional input
    const auto* tensors = graph.tensors();
    if (index < 0 || !tensors || std::uint32_t(index) >= tensors->size())
        invalidArgument("an operator refers to tensor " + std::to_string(index) +
                        ", but the subgraph has " + std::to_string(tensors ? tensors->size() : 0) +
                        " tensors");
    const tfl::Tensor& t = *tensors->Get(std::uint32_t(index));
    v.name = t.name() ? t.name()->str() : "tensor " + std::to_string(index);
    v.dtype = dtypeOf(t.type());
    v.dtypeText = tfliteTypeText(t.type());
    Shape shape;
    if (t.shape())
        for (std::int32_t d : *t.shape()) {
            if (d < 0)
                invalidArgument("tensor '" + v.name + "' has a negative dimension " +
                                std::to_string(d) + " in its shape");
            shape.push_back(d);
        }
    // shape_signature keeps the unknown dimensions (-1) that `shape` fills with 1.
    const auto* signature = t.shape_signature();
    const bool useSignature = signature && t.shape() && signature->size() == t.shape()->size();
    v.stored.hasRank = t.has_rank() || !shape.empty() || t.buffer() != 0;
    if (v.stored.hasRank) {
        for (std::size_t k = 0; k < shape.size(); ++k) {
            const std::int32_t s = useSignature ? signature->Get(std::uint32_t(k)) : 0;
            v.stored.dims.push_back(useSignature && s < 0 ? StoredShape::kUnknownDim : shape[k]);
        }
        v.storedFrom = useSignature ? "shape_signature" : "tensor";
    }
    v.constant = constantOf(t, shape, v.dtype, bytes, model, limits, warnings, v.name);
    return v;
}

// The file's model, once the whole FlatBuffer passed the verifier.
const tfl::Model& verifiedModel(const std::string& bytes)
{
    const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
    if (bytes.size() < 8 || !tfl::ModelBufferHasIdentifier(data))
        invalidArgument("not a TFLite file: its bytes 4 to 7 are not \"TFL3\"");
    // FlatBuffers address at most 2 GB; larger files keep buffers after the FlatBuffer, which
    // the verifier then does not see (constantOf bounds those reads itself).
    const std::size_t flatSize =
        std::min<std::size_t>(bytes.size(), std::size_t(FLATBUFFERS_MAX_BUFFER_SIZE) - 1);
    flatbuffers::Verifier::Options options;
    options.max_depth = 64;
    options.max_tables = 10'000'000;
    flatbuffers::Verifier verifier(data, flatSize, options);
    if (!tfl::VerifyModelBuffer(verifier))
        invalidArgument("the TFLite FlatBuffer is damaged or truncated (it does not pass "
                        "FlatBuffers' verifier for the TFLite schema)");
    return *tfl::GetModel(data);
}

// Where an operator is: its subgraph (and how many the model has), its index over all of them.
struct OperatorPlace
{
    const tfl::SubGraph& graph;
    std::uint32_t subgraph;
    std::uint32_t subgraphs;
    std::int64_t index;
};

// One operator of the family (`name`), translated.
ModelNode readOperator(const tfl::Operator& op, const std::string& name, std::int32_t version,
                       const OperatorPlace& at, const std::string& bytes, const tfl::Model& model,
                       const ReadLimits& limits, std::vector<std::string>& warnings)
{
    ModelNode node;
    node.op = name;
    node.index = at.index;
    node.opVersion = version;
    if (op.inputs())
        for (std::int32_t i : *op.inputs())
            node.inputs.push_back(valueOf(at.graph, i, bytes, model, limits, warnings));
    if (op.outputs())
        for (std::int32_t i : *op.outputs())
            node.outputs.push_back(valueOf(at.graph, i, bytes, model, limits, warnings));
    // Operators have no names in TFLite; their first output's tensor name says what they make
    // (as converters write it: "model/strided_slice").
    node.name = !node.outputs.empty() && !node.outputs[0].name.empty()
                    ? node.outputs[0].name
                    : node.op + "#" + std::to_string(at.index);
    std::string note;
    node.rawAttrs = tfliteOptions(op, node.op, note);
    if (at.subgraphs > 1 && at.subgraph > 0) node.rawAttrs["subgraph"] = std::int64_t(at.subgraph);
    translateTFLiteNode(node);
    if (!note.empty()) node.reason = note + (node.reason.empty() ? "" : "; " + node.reason);
    return node;
}

ModelFile readTFLite(const std::string& path, const std::string& bytes, const ReadLimits& limits)
{
    const tfl::Model& model = verifiedModel(bytes);
    ModelFile file;
    file.format = ModelFormat::TFLite;
    file.path = path;
    file.producer = model.description() ? model.description()->str() : "";
    file.version = "schema " + std::to_string(model.version());
    const auto* codes = model.operator_codes();
    const auto* graphs = model.subgraphs();
    if (!graphs || graphs->size() == 0) invalidArgument("the TFLite model has no subgraph");
    std::int64_t index = 0;
    for (std::uint32_t g = 0; g < graphs->size(); ++g) {
        const tfl::SubGraph& graph = *graphs->Get(g);
        if (!graph.operators()) continue;
        for (const tfl::Operator* op : *graph.operators()) {
            const std::int64_t at = index++;
            const std::uint32_t ci = op->opcode_index();
            if (!codes || ci >= codes->size())
                invalidArgument("operator " + std::to_string(at) + " uses operator code " +
                                std::to_string(ci) + ", but the file has " +
                                std::to_string(codes ? codes->size() : 0));
            const tfl::OperatorCode& oc = *codes->Get(ci);
            // Older writers set only the byte; newer ones both (TFLite takes the larger).
            const std::int32_t code =
                std::max<std::int32_t>(oc.deprecated_builtin_code(), oc.builtin_code());
            ++file.opCounts[opName(oc, code)];
            if (const std::string* family = tfliteFamilyOp(code))
                file.nodes.push_back(readOperator(*op, *family, oc.version(),
                                                  {graph, g, graphs->size(), at}, bytes, model,
                                                  limits, file.warnings));
        }
    }
    file.totalNodes = index;
    return file;
}

} // namespace

ModelReader tfliteReader()
{
    ModelReader r;
    r.format = ModelFormat::TFLite;
    r.extensions = {".tflite"};
    r.sniff = [](std::string_view head) { return head.size() >= 8 && head.substr(4, 4) == "TFL3"; };
    r.read = readTFLite;
    r.translate = translateTFLiteNode;
    r.ops = tfliteOpNames();
    return r;
}

} // namespace ss::model
