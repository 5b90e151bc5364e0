// SPDX-License-Identifier: GPL-3.0-or-later
// TFLite files: FlatBuffers verified against our schema subset, then the slicing family's
// operators turned into engine requests.
#include "model/tflite_reader.h"

#include "core/decode.h"
#include "core/error.h"
#include "core/slice_expr.h"
#include "model/node_translation.h"
#include "tflite_schema_generated.h"

#include <algorithm>
#include <cstring>
#include <flatbuffers/flatbuffers.h>
#include <limits>
#include <map>

namespace ss::model {

namespace tfl = ss::tflite;

namespace {

// The family's operators by builtin code.
const std::map<std::int32_t, std::string>& familyOps()
{
    static const std::map<std::int32_t, std::string> ops = {
        {tfl::BuiltinOperator_STRIDED_SLICE, "STRIDED_SLICE"},
        {tfl::BuiltinOperator_SLICE, "SLICE"},
        {tfl::BuiltinOperator_GATHER, "GATHER"},
        {tfl::BuiltinOperator_GATHER_ND, "GATHER_ND"},
        {tfl::BuiltinOperator_PAD, "PAD"},
        {tfl::BuiltinOperator_PADV2, "PADV2"},
        {tfl::BuiltinOperator_MIRROR_PAD, "MIRROR_PAD"},
        {tfl::BuiltinOperator_TRANSPOSE, "TRANSPOSE"},
        {tfl::BuiltinOperator_TILE, "TILE"},
        {tfl::BuiltinOperator_CONCATENATION, "CONCATENATION"},
        {tfl::BuiltinOperator_SPLIT, "SPLIT"},
        {tfl::BuiltinOperator_SPLIT_V, "SPLIT_V"},
        {tfl::BuiltinOperator_PACK, "PACK"},
        {tfl::BuiltinOperator_UNPACK, "UNPACK"},
        {tfl::BuiltinOperator_REVERSE_V2, "REVERSE_V2"},
        {tfl::BuiltinOperator_REVERSE_SEQUENCE, "REVERSE_SEQUENCE"},
        {tfl::BuiltinOperator_SPACE_TO_BATCH_ND, "SPACE_TO_BATCH_ND"},
        {tfl::BuiltinOperator_BATCH_TO_SPACE_ND, "BATCH_TO_SPACE_ND"},
        {tfl::BuiltinOperator_DEPTH_TO_SPACE, "DEPTH_TO_SPACE"},
        {tfl::BuiltinOperator_SPACE_TO_DEPTH, "SPACE_TO_DEPTH"},
        {tfl::BuiltinOperator_ONE_HOT, "ONE_HOT"},
        {tfl::BuiltinOperator_UNIQUE, "UNIQUE"},
    };
    return ops;
}

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

std::string typeText(std::int8_t type)
{
    if (type >= tfl::TensorType_MIN && type <= tfl::TensorType_MAX)
        return tfl::EnumNameTensorType(tfl::TensorType(type));
    return "type " + std::to_string(type);
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
                        typeText(t.type()) + " needs " + std::to_string(need) +
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
    v.dtypeText = typeText(t.type());
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

// The builtin options of one operator as raw attributes (TFLite's field names). An operator
// whose options are absent, or of another op's type, reads as all defaults, as TFLite does.
Attrs optionsOf(const tfl::Operator& op, std::int32_t code, std::string& note)
{
    Attrs a;
    const auto type = op.builtin_options_type();
    auto expect = [&](tfl::BuiltinOptions want) {
        if (type == tfl::BuiltinOptions_NONE) return false;
        if (type != want) {
            note = "its options are " + std::string(tfl::EnumNameBuiltinOptions(type)) + ", not " +
                   tfl::EnumNameBuiltinOptions(want) + "; read as the defaults";
            return false;
        }
        return true;
    };
    switch (code) {
    case tfl::BuiltinOperator_STRIDED_SLICE: {
        const auto* o = expect(tfl::BuiltinOptions_StridedSliceOptions)
                            ? op.builtin_options_as_StridedSliceOptions()
                            : nullptr;
        a["begin_mask"] = std::int64_t(o ? o->begin_mask() : 0);
        a["end_mask"] = std::int64_t(o ? o->end_mask() : 0);
        a["ellipsis_mask"] = std::int64_t(o ? o->ellipsis_mask() : 0);
        a["new_axis_mask"] = std::int64_t(o ? o->new_axis_mask() : 0);
        a["shrink_axis_mask"] = std::int64_t(o ? o->shrink_axis_mask() : 0);
        a["offset"] = o ? o->offset() : false;
        break;
    }
    case tfl::BuiltinOperator_GATHER: {
        const auto* o = expect(tfl::BuiltinOptions_GatherOptions)
                            ? op.builtin_options_as_GatherOptions()
                            : nullptr;
        a["axis"] = std::int64_t(o ? o->axis() : 0);
        a["batch_dims"] = std::int64_t(o ? o->batch_dims() : 0);
        break;
    }
    case tfl::BuiltinOperator_MIRROR_PAD: {
        const auto* o = expect(tfl::BuiltinOptions_MirrorPadOptions)
                            ? op.builtin_options_as_MirrorPadOptions()
                            : nullptr;
        const auto mode = o ? o->mode() : tfl::MirrorPadMode_REFLECT;
        a["mode"] = mode == tfl::MirrorPadMode_SYMMETRIC ? "SYMMETRIC"
                    : mode == tfl::MirrorPadMode_REFLECT ? "REFLECT"
                                                         : "mode " + std::to_string(int(mode));
        break;
    }
    case tfl::BuiltinOperator_CONCATENATION: {
        const auto* o = expect(tfl::BuiltinOptions_ConcatenationOptions)
                            ? op.builtin_options_as_ConcatenationOptions()
                            : nullptr;
        a["axis"] = std::int64_t(o ? o->axis() : 0);
        const auto act = o ? o->fused_activation_function() : tfl::ActivationFunctionType_NONE;
        a["fused_activation_function"] =
            act >= tfl::ActivationFunctionType_MIN && act <= tfl::ActivationFunctionType_MAX
                ? std::string(tfl::EnumNameActivationFunctionType(act))
                : "activation " + std::to_string(int(act));
        break;
    }
    case tfl::BuiltinOperator_SPLIT: {
        const auto* o = expect(tfl::BuiltinOptions_SplitOptions)
                            ? op.builtin_options_as_SplitOptions()
                            : nullptr;
        a["num_splits"] = std::int64_t(o ? o->num_splits() : 0);
        break;
    }
    case tfl::BuiltinOperator_SPLIT_V: {
        const auto* o = expect(tfl::BuiltinOptions_SplitVOptions)
                            ? op.builtin_options_as_SplitVOptions()
                            : nullptr;
        a["num_splits"] = std::int64_t(o ? o->num_splits() : 0);
        break;
    }
    case tfl::BuiltinOperator_PACK: {
        const auto* o =
            expect(tfl::BuiltinOptions_PackOptions) ? op.builtin_options_as_PackOptions() : nullptr;
        a["values_count"] = std::int64_t(o ? o->values_count() : 0);
        a["axis"] = std::int64_t(o ? o->axis() : 0);
        break;
    }
    case tfl::BuiltinOperator_UNPACK: {
        const auto* o = expect(tfl::BuiltinOptions_UnpackOptions)
                            ? op.builtin_options_as_UnpackOptions()
                            : nullptr;
        a["num"] = std::int64_t(o ? o->num() : 0);
        a["axis"] = std::int64_t(o ? o->axis() : 0);
        break;
    }
    case tfl::BuiltinOperator_REVERSE_SEQUENCE: {
        const auto* o = expect(tfl::BuiltinOptions_ReverseSequenceOptions)
                            ? op.builtin_options_as_ReverseSequenceOptions()
                            : nullptr;
        a["seq_dim"] = std::int64_t(o ? o->seq_dim() : 0);
        a["batch_dim"] = std::int64_t(o ? o->batch_dim() : 0);
        break;
    }
    case tfl::BuiltinOperator_DEPTH_TO_SPACE: {
        const auto* o = expect(tfl::BuiltinOptions_DepthToSpaceOptions)
                            ? op.builtin_options_as_DepthToSpaceOptions()
                            : nullptr;
        a["block_size"] = std::int64_t(o ? o->block_size() : 0);
        break;
    }
    case tfl::BuiltinOperator_SPACE_TO_DEPTH: {
        const auto* o = expect(tfl::BuiltinOptions_SpaceToDepthOptions)
                            ? op.builtin_options_as_SpaceToDepthOptions()
                            : nullptr;
        a["block_size"] = std::int64_t(o ? o->block_size() : 0);
        break;
    }
    case tfl::BuiltinOperator_ONE_HOT: {
        const auto* o = expect(tfl::BuiltinOptions_OneHotOptions)
                            ? op.builtin_options_as_OneHotOptions()
                            : nullptr;
        a["axis"] = std::int64_t(o ? o->axis() : -1);
        break;
    }
    case tfl::BuiltinOperator_UNIQUE: {
        const auto* o = expect(tfl::BuiltinOptions_UniqueOptions)
                            ? op.builtin_options_as_UniqueOptions()
                            : nullptr;
        a["idx_out_type"] = typeText(o ? o->idx_out_type() : tfl::TensorType_INT32);
        break;
    }
    default: // SLICE, GATHER_ND, PAD, PADV2, TRANSPOSE, TILE, REVERSE_V2, SPACE_TO_BATCH_ND,
             // BATCH_TO_SPACE_ND: every argument is an input tensor
        break;
    }
    return a;
}

ModelFile readTFLite(const std::string& path, const std::string& bytes, const ReadLimits& limits)
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
    const tfl::Model& model = *tfl::GetModel(data);

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
            const auto family = familyOps().find(code);
            if (family == familyOps().end()) continue;
            ModelNode node;
            node.op = family->second;
            node.index = at;
            node.opVersion = oc.version();
            if (op->inputs())
                for (std::int32_t i : *op->inputs())
                    node.inputs.push_back(valueOf(graph, i, bytes, model, limits, file.warnings));
            if (op->outputs())
                for (std::int32_t i : *op->outputs())
                    node.outputs.push_back(valueOf(graph, i, bytes, model, limits, file.warnings));
            // Operators have no names in TFLite; their first output's tensor name says what
            // they make (as converters write it: "model/strided_slice").
            node.name = !node.outputs.empty() && !node.outputs[0].name.empty()
                            ? node.outputs[0].name
                            : node.op + "#" + std::to_string(at);
            std::string note;
            node.rawAttrs = optionsOf(*op, code, note);
            if (graphs->size() > 1 && g > 0) node.rawAttrs["subgraph"] = std::int64_t(g);
            translateTFLiteNode(node);
            if (!note.empty()) node.reason = note + (node.reason.empty() ? "" : "; " + node.reason);
            file.nodes.push_back(std::move(node));
        }
    }
    file.totalNodes = index;
    return file;
}

// ---- translation --------------------------------------------------------------------------

void showMask(ModelNode& node, const char* name, int entries)
{
    const std::int64_t m = intAttr(node, name);
    node.attributes.push_back(
        {name, std::to_string(m) + " (" + maskBinary(std::int32_t(m), entries) + ")"});
}

void translateStridedSlice(ModelNode& node, Translation& tr, NodeRequest& req)
{
    const auto input = tr.data(0, "input");
    const auto begin = tr.ints(1, "begin");
    const auto end = tr.ints(2, "end");
    const auto strides = tr.ints(3, "strides");
    const int entries = begin ? int(begin->size()) : 0;
    for (const char* m :
         {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"})
        showMask(node, m, entries);
    const auto off = node.rawAttrs.find("offset");
    const bool offset = off != node.rawAttrs.end() && off->second.isBool() && off->second.toBool();
    tr.show("offset",
            offset ? "true: each end counts from its begin (end = begin + end)" : "false");
    if (tr.failed()) return;
    SparseSpec sparse;
    sparse.begin = *begin;
    sparse.end = *end;
    sparse.strides = *strides;
    sparse.beginMask = std::int32_t(intAttr(node, "begin_mask"));
    sparse.endMask = std::int32_t(intAttr(node, "end_mask"));
    sparse.ellipsisMask = std::int32_t(intAttr(node, "ellipsis_mask"));
    sparse.newAxisMask = std::int32_t(intAttr(node, "new_axis_mask"));
    sparse.shrinkAxisMask = std::int32_t(intAttr(node, "shrink_axis_mask"));
    if (begin->size() == end->size() && end->size() == strides->size() && !offset) {
        try {
            tr.show("subscript", toExpr(sparse));
        } catch (const OpError&) {
            // A spec the encoder cannot write as a subscript: the engine's error says why.
        }
    }
    // An index outside its dimension: TensorFlow refuses it, TFLite's kernel does not (LiteRT
    // clamps a negative one to the first element and gives zeros past the end).
    if (sparse.ellipsisMask == 0 && sparse.newAxisMask == 0)
        for (std::size_t i = 0; i < sparse.begin.size() && i < input->shape.size(); ++i) {
            const std::int64_t d = input->shape[i];
            const std::int64_t b = sparse.begin[i];
            if (((sparse.shrinkAxisMask >> i) & 1) && (b < -d || b >= d))
                tr.note("index " + std::to_string(b) + " lies outside dimension " +
                        std::to_string(i) + " (size " + std::to_string(d) +
                        "): TensorFlow refuses it, but TFLite does not check it (LiteRT clamps "
                        "a negative index to the first element and returns zeros past the end)");
        }
    req.op = "strided_slice";
    req.inputs.push_back({"input", {*input}});
    req.attrs = attrsFromSparse(sparse);
    if (offset) req.attrs["offset"] = true;
}

} // namespace

void translateTFLiteNode(ModelNode& node)
{
    node.attributes.clear();
    node.request.reset();
    node.reason.clear();
    Translation tr(node);
    NodeRequest req;
    const std::string& op = node.op;
    if (op == "STRIDED_SLICE") {
        translateStridedSlice(node, tr, req);
    } else if (op == "SLICE") {
        const auto input = tr.data(0, "input");
        const auto begin = tr.ints(1, "begin");
        const auto size = tr.ints(2, "size");
        if (!tr.failed()) {
            req.op = "slice";
            req.inputs.push_back({"input", {*input}});
            req.attrs = {{"begin", Attr::ints(*begin)}, {"size", Attr::ints(*size)}};
        }
    } else if (op == "GATHER" || op == "GATHER_ND") {
        const auto params = tr.data(0, "params");
        const auto indices = tr.constant(1, "indices");
        const std::int64_t batchDims = intAttr(node, "batch_dims");
        if (op == "GATHER") {
            tr.show("axis", std::to_string(intAttr(node, "axis")));
            tr.show("batch_dims", std::to_string(batchDims));
        }
        if (!tr.failed()) {
            req.op = op == "GATHER" ? "gather" : "gather_nd";
            RequestTensor idx{indices->dtype(), indices->shape(), indices, "indices"};
            req.inputs.push_back({"params", {*params}});
            req.inputs.push_back({"indices", {idx}});
            if (op == "GATHER")
                req.attrs = {{"axis", intAttr(node, "axis")}, {"batch_dims", batchDims}};
        }
    } else if (op == "PAD" || op == "PADV2" || op == "MIRROR_PAD") {
        const auto input = tr.data(0, "input");
        const auto paddings = tr.pairs(1, "paddings");
        std::optional<Tensor> fill;
        if (op == "PADV2" && node.inputs.size() > 2 && !node.inputs[2].name.empty())
            fill = tr.scalar(2, "constant_values");
        const std::string mode = op == "MIRROR_PAD" ? stringAttr(node, "mode") : "CONSTANT";
        if (op == "MIRROR_PAD") tr.show("mode", mode);
        if (mode != "CONSTANT" && mode != "REFLECT" && mode != "SYMMETRIC")
            tr.fail("MIRROR_PAD " + mode + " is not a mode TFLite defines");
        if (!tr.failed()) {
            req.op = "pad";
            req.inputs.push_back({"tensor", {*input}});
            req.attrs = {{"paddings", *paddings}, {"mode", mode}};
            if (fill) req.attrs["constant_values"] = scalarAttr(*fill);
        }
    } else if (op == "TRANSPOSE") {
        const auto input = tr.data(0, "input");
        const auto perm = tr.ints(1, "perm");
        if (!tr.failed()) {
            req.op = "transpose";
            req.inputs.push_back({"a", {*input}});
            req.attrs = {{"perm", Attr::ints(*perm)}};
        }
    } else if (op == "TILE") {
        const auto input = tr.data(0, "input");
        const auto multiples = tr.ints(1, "multiples");
        if (!tr.failed()) {
            req.op = "tile";
            req.inputs.push_back({"input", {*input}});
            req.attrs = {{"multiples", Attr::ints(*multiples)}};
        }
    } else if (op == "CONCATENATION" || op == "PACK") {
        std::vector<RequestTensor> values;
        for (std::size_t k = 0; k < node.inputs.size(); ++k)
            if (auto t = tr.data(k, "values[" + std::to_string(k) + "]")) values.push_back(*t);
        tr.show("axis", std::to_string(intAttr(node, "axis")));
        if (op == "CONCATENATION") {
            const std::string act = stringAttr(node, "fused_activation_function");
            tr.show("fused_activation_function", act);
            if (!act.empty() && act != "NONE")
                tr.note("the fused activation " + act +
                        " changes the values after the concatenation; SliceScope shows the "
                        "concatenation alone");
        } else {
            tr.show("values_count", std::to_string(intAttr(node, "values_count")));
            if (intAttr(node, "values_count") != std::int64_t(node.inputs.size()))
                tr.note("values_count " + std::to_string(intAttr(node, "values_count")) +
                        " differs from the " + std::to_string(node.inputs.size()) +
                        " inputs (TFLite refuses that)");
        }
        if (!tr.failed()) {
            req.op = op == "PACK" ? "stack" : "concat";
            req.inputs.push_back({"values", values});
            req.attrs = {{"axis", intAttr(node, "axis")}};
        }
    } else if (op == "SPLIT") {
        // TFLite's SPLIT takes the axis first, then the tensor.
        const auto axis = tr.scalar(0, "axis");
        const auto input = tr.data(1, "input");
        tr.show("num_splits", std::to_string(intAttr(node, "num_splits")));
        if (!tr.failed()) {
            req.op = "split";
            req.inputs.push_back({"value", {*input}});
            req.attrs = {{"num_or_size_splits", intAttr(node, "num_splits")},
                         {"axis", axis->toInt64Vector()[0]}};
        }
    } else if (op == "SPLIT_V") {
        const auto input = tr.data(0, "input");
        const auto sizes = tr.ints(1, "size_splits");
        const auto axis = tr.scalar(2, "axis");
        tr.show("num_splits", std::to_string(intAttr(node, "num_splits")));
        if (!tr.failed()) {
            req.op = "split";
            req.inputs.push_back({"value", {*input}});
            req.attrs = {{"num_or_size_splits", Attr::ints(*sizes)},
                         {"axis", axis->toInt64Vector()[0]}};
        }
    } else if (op == "UNPACK") {
        const auto input = tr.data(0, "input");
        tr.show("num", std::to_string(intAttr(node, "num")));
        tr.show("axis", std::to_string(intAttr(node, "axis")));
        if (!tr.failed()) {
            req.op = "unstack";
            req.inputs.push_back({"value", {*input}});
            req.attrs = {{"num", intAttr(node, "num")}, {"axis", intAttr(node, "axis")}};
        }
    } else if (op == "REVERSE_V2") {
        const auto input = tr.data(0, "input");
        const auto axis = tr.ints(1, "axis");
        if (!tr.failed()) {
            req.op = "reverse";
            req.inputs.push_back({"tensor", {*input}});
            req.attrs = {{"axis", Attr::ints(*axis)}};
        }
    } else if (op == "REVERSE_SEQUENCE") {
        translateReverseSequence(node, tr, req);
    } else if (op == "SPACE_TO_BATCH_ND" || op == "BATCH_TO_SPACE_ND") {
        translateSpaceBatchNd(op == "SPACE_TO_BATCH_ND", tr, req);
    } else if (op == "DEPTH_TO_SPACE" || op == "SPACE_TO_DEPTH") {
        const auto input = tr.data(0, "input");
        tr.show("block_size", std::to_string(intAttr(node, "block_size")));
        if (!tr.failed()) {
            req.op = op == "DEPTH_TO_SPACE" ? "depth_to_space" : "space_to_depth";
            req.inputs.push_back({"input", {*input}});
            req.attrs = {{"block_size", intAttr(node, "block_size")}};
        }
    } else if (op == "ONE_HOT") {
        const auto indices = tr.data(0, "indices");
        const auto depth = tr.scalar(1, "depth");
        const auto on = tr.scalar(2, "on_value");
        const auto off = tr.scalar(3, "off_value");
        tr.show("axis", std::to_string(intAttr(node, "axis", -1)));
        if (!tr.failed() && on->dtype() != off->dtype())
            tr.fail("on_value is " + std::string(dtypeName(on->dtype())) + " but off_value is " +
                    std::string(dtypeName(off->dtype())) + " (TFLite needs one type)");
        if (!tr.failed()) {
            req.op = "one_hot";
            req.inputs.push_back({"indices", {*indices}});
            req.attrs = {{"depth", depth->toInt64Vector()[0]},
                         {"on_value", scalarAttr(*on)},
                         {"off_value", scalarAttr(*off)},
                         {"axis", intAttr(node, "axis", -1)},
                         {"dtype", std::string(dtypeName(on->dtype()))}};
        }
    } else if (op == "UNIQUE") {
        const auto x = tr.data(0, "x");
        const std::string idxType = stringAttr(node, "idx_out_type");
        tr.show("idx_out_type", idxType);
        if (idxType != "INT32" && idxType != "INT64")
            tr.fail("idx_out_type " + idxType + " is neither INT32 nor INT64");
        if (!tr.failed()) {
            req.op = "unique_with_counts";
            req.inputs.push_back({"x", {*x}});
            req.attrs = {{"out_idx", idxType == "INT64" ? "int64" : "int32"}};
            req.outputOf = {0, 1}; // TFLite's UNIQUE has no counts output
            tr.note("TFLite's UNIQUE gives y and idx; SliceScope's unique_with_counts also "
                    "counts each value");
        }
    } else {
        tr.fail("internal: " + op + " has no translation");
    }
    const auto sg = node.rawAttrs.find("subgraph");
    if (sg != node.rawAttrs.end()) tr.show("subgraph", std::to_string(sg->second.toInt()));
    tr.finish(std::move(req));
}

ModelReader tfliteReader()
{
    ModelReader r;
    r.format = ModelFormat::TFLite;
    r.extensions = {".tflite"};
    r.sniff = [](std::string_view head) { return head.size() >= 8 && head.substr(4, 4) == "TFL3"; };
    r.read = readTFLite;
    r.translate = translateTFLiteNode;
    return r;
}

} // namespace ss::model
