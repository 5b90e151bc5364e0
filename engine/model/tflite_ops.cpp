// SPDX-License-Identifier: GPL-3.0-or-later
// The TFLite reader's op table: per builtin operator of the slicing family, its name, how its
// builtin options read, and how it becomes an engine request with TFLite's semantics. Adding an
// operator is adding an entry (and its code and options to tflite_schema.fbs).
#include "model/tflite_ops.h"

#include "core/error.h"
#include "model/node_translation.h"

namespace ss::model {

namespace tfl = ss::tflite;

namespace {

// The options of `op` as a T, or null: absent (read as the defaults, as TFLite does), or of
// another op's type, which `note` then says.
template <class T> const T* optionsAs(const tfl::Operator& op, std::string& note)
{
    constexpr tfl::BuiltinOptions want = tfl::BuiltinOptionsTraits<T>::enum_value;
    const auto type = op.builtin_options_type();
    if (type == tfl::BuiltinOptions_NONE) return nullptr;
    if (type != want) {
        note = "its options are " + std::string(tfl::EnumNameBuiltinOptions(type)) + ", not " +
               tfl::EnumNameBuiltinOptions(want) + "; read as the defaults";
        return nullptr;
    }
    return op.builtin_options_as<T>();
}

// ---- builtin options as raw attributes (TFLite's field names) ------------------------------

Attrs stridedSliceOptions(const tfl::Operator& op, std::string& note)
{
    const auto* o = optionsAs<tfl::StridedSliceOptions>(op, note);
    return {{"begin_mask", std::int64_t(o ? o->begin_mask() : 0)},
            {"end_mask", std::int64_t(o ? o->end_mask() : 0)},
            {"ellipsis_mask", std::int64_t(o ? o->ellipsis_mask() : 0)},
            {"new_axis_mask", std::int64_t(o ? o->new_axis_mask() : 0)},
            {"shrink_axis_mask", std::int64_t(o ? o->shrink_axis_mask() : 0)},
            {"offset", o ? o->offset() : false}};
}

Attrs gatherOptions(const tfl::Operator& op, std::string& note)
{
    const auto* o = optionsAs<tfl::GatherOptions>(op, note);
    return {{"axis", std::int64_t(o ? o->axis() : 0)},
            {"batch_dims", std::int64_t(o ? o->batch_dims() : 0)}};
}

Attrs mirrorPadOptions(const tfl::Operator& op, std::string& note)
{
    const auto* o = optionsAs<tfl::MirrorPadOptions>(op, note);
    const auto mode = o ? o->mode() : tfl::MirrorPadMode_REFLECT;
    return {{"mode", mode == tfl::MirrorPadMode_SYMMETRIC ? "SYMMETRIC"
                     : mode == tfl::MirrorPadMode_REFLECT ? "REFLECT"
                                                          : "mode " + std::to_string(int(mode))}};
}

Attrs concatenationOptions(const tfl::Operator& op, std::string& note)
{
    const auto* o = optionsAs<tfl::ConcatenationOptions>(op, note);
    const auto act = o ? o->fused_activation_function() : tfl::ActivationFunctionType_NONE;
    return {{"axis", std::int64_t(o ? o->axis() : 0)},
            {"fused_activation_function",
             act >= tfl::ActivationFunctionType_MIN && act <= tfl::ActivationFunctionType_MAX
                 ? std::string(tfl::EnumNameActivationFunctionType(act))
                 : "activation " + std::to_string(int(act))}};
}

// SPLIT's and SPLIT_V's options.
template <class Options> Attrs splitOptions(const tfl::Operator& op, std::string& note)
{
    const auto* o = optionsAs<Options>(op, note);
    return {{"num_splits", std::int64_t(o ? o->num_splits() : 0)}};
}

Attrs packOptions(const tfl::Operator& op, std::string& note)
{
    const auto* o = optionsAs<tfl::PackOptions>(op, note);
    return {{"values_count", std::int64_t(o ? o->values_count() : 0)},
            {"axis", std::int64_t(o ? o->axis() : 0)}};
}

Attrs unpackOptions(const tfl::Operator& op, std::string& note)
{
    const auto* o = optionsAs<tfl::UnpackOptions>(op, note);
    return {{"num", std::int64_t(o ? o->num() : 0)}, {"axis", std::int64_t(o ? o->axis() : 0)}};
}

Attrs reverseSequenceOptions(const tfl::Operator& op, std::string& note)
{
    const auto* o = optionsAs<tfl::ReverseSequenceOptions>(op, note);
    return {{"seq_dim", std::int64_t(o ? o->seq_dim() : 0)},
            {"batch_dim", std::int64_t(o ? o->batch_dim() : 0)}};
}

// DEPTH_TO_SPACE's and SPACE_TO_DEPTH's options.
template <class Options> Attrs blockSizeOptions(const tfl::Operator& op, std::string& note)
{
    const auto* o = optionsAs<Options>(op, note);
    return {{"block_size", std::int64_t(o ? o->block_size() : 0)}};
}

Attrs oneHotOptions(const tfl::Operator& op, std::string& note)
{
    const auto* o = optionsAs<tfl::OneHotOptions>(op, note);
    return {{"axis", std::int64_t(o ? o->axis() : -1)}};
}

Attrs uniqueOptions(const tfl::Operator& op, std::string& note)
{
    const auto* o = optionsAs<tfl::UniqueOptions>(op, note);
    return {{"idx_out_type", tfliteTypeText(o ? o->idx_out_type() : tfl::TensorType_INT32)}};
}

// ---- translations ----------------------------------------------------------------------------

void stridedSlice(const ModelNode& node, Translation& tr, NodeRequest& req)
{
    const StridedSliceInputs in = readStridedSlice(node, tr);
    const auto off = node.rawAttrs.find("offset");
    const bool offset = off != node.rawAttrs.end() && off->second.isBool() && off->second.toBool();
    tr.show("offset",
            offset ? "true: each end counts from its begin (end = begin + end)" : "false");
    if (tr.failed()) return;
    const SparseSpec sparse = sparseSpecOf(node, in);
    if (!offset) showSubscript(tr, sparse);
    // An index outside its dimension: TensorFlow refuses it, TFLite's kernel does not (LiteRT
    // clamps a negative one to the first element and gives zeros past the end).
    if (sparse.ellipsisMask == 0 && sparse.newAxisMask == 0)
        for (std::size_t i = 0; i < sparse.begin.size() && i < in.input->shape.size(); ++i) {
            const std::int64_t d = in.input->shape[i];
            const std::int64_t b = sparse.begin[i];
            if (((sparse.shrinkAxisMask >> i) & 1) && (b < -d || b >= d))
                tr.note("index " + std::to_string(b) + " lies outside dimension " +
                        std::to_string(i) + " (size " + std::to_string(d) +
                        "): TensorFlow refuses it, but TFLite does not check it (LiteRT clamps "
                        "a negative index to the first element and returns zeros past the end)");
        }
    req.op = "strided_slice";
    req.inputs.push_back({"input", {*in.input}});
    req.attrs = attrsFromSparse(sparse);
    if (offset) req.attrs["offset"] = true;
}

void gather(const ModelNode& node, Translation& tr, NodeRequest& req)
{
    const auto params = tr.data(0, "params");
    const auto indices = tr.constant(1, "indices");
    tr.show("axis", std::to_string(intAttr(node, "axis")));
    tr.show("batch_dims", std::to_string(intAttr(node, "batch_dims")));
    if (tr.failed()) return;
    req.op = "gather";
    req.inputs.push_back({"params", {*params}});
    req.inputs.push_back({"indices", {{indices->dtype(), indices->shape(), indices, "indices"}}});
    req.attrs = {{"axis", intAttr(node, "axis")}, {"batch_dims", intAttr(node, "batch_dims")}};
}

void gatherNd(const ModelNode&, Translation& tr, NodeRequest& req)
{
    const auto params = tr.data(0, "params");
    const auto indices = tr.constant(1, "indices");
    if (tr.failed()) return;
    req.op = "gather_nd";
    req.inputs.push_back({"params", {*params}});
    req.inputs.push_back({"indices", {{indices->dtype(), indices->shape(), indices, "indices"}}});
}

// PAD, PADV2 (constant_values, input 2 when present) and MIRROR_PAD (its mode).
Translator pad(bool withValue, bool mirror)
{
    return [=](const ModelNode& node, Translation& tr, NodeRequest& req) {
        const auto input = tr.data(0, "input");
        const auto paddings = tr.pairs(1, "paddings");
        std::optional<Tensor> fill;
        if (withValue && node.inputs.size() > 2 && !node.inputs[2].name.empty())
            fill = tr.scalar(2, "constant_values");
        const std::string mode = mirror ? stringAttr(node, "mode") : "CONSTANT";
        if (mirror) tr.show("mode", mode);
        if (mode != "CONSTANT" && mode != "REFLECT" && mode != "SYMMETRIC")
            tr.fail("MIRROR_PAD " + mode + " is not a mode TFLite defines");
        if (tr.failed()) return;
        req.op = "pad";
        req.inputs.push_back({"tensor", {*input}});
        req.attrs = {{"paddings", *paddings}, {"mode", mode}};
        if (fill) req.attrs["constant_values"] = scalarAttr(*fill);
    };
}

// CONCATENATION's and PACK's values (every input) and axis (an option).
std::vector<RequestTensor> stackedValues(const ModelNode& node, Translation& tr)
{
    std::vector<RequestTensor> values;
    for (std::size_t k = 0; k < node.inputs.size(); ++k)
        if (auto t = tr.data(k, "values[" + std::to_string(k) + "]")) values.push_back(*t);
    tr.show("axis", std::to_string(intAttr(node, "axis")));
    return values;
}

void concatenation(const ModelNode& node, Translation& tr, NodeRequest& req)
{
    const std::vector<RequestTensor> values = stackedValues(node, tr);
    const std::string act = stringAttr(node, "fused_activation_function");
    tr.show("fused_activation_function", act);
    if (!act.empty() && act != "NONE")
        tr.note("the fused activation " + act +
                " changes the values after the concatenation; SliceScope shows the "
                "concatenation alone");
    if (tr.failed()) return;
    req.op = "concat";
    req.inputs.push_back({"values", values});
    req.attrs = {{"axis", intAttr(node, "axis")}};
}

void pack(const ModelNode& node, Translation& tr, NodeRequest& req)
{
    const std::vector<RequestTensor> values = stackedValues(node, tr);
    const std::int64_t count = intAttr(node, "values_count");
    tr.show("values_count", std::to_string(count));
    if (count != std::int64_t(node.inputs.size()))
        tr.note("values_count " + std::to_string(count) + " differs from the " +
                std::to_string(node.inputs.size()) + " inputs (TFLite refuses that)");
    if (tr.failed()) return;
    req.op = "stack";
    req.inputs.push_back({"values", values});
    req.attrs = {{"axis", intAttr(node, "axis")}};
}

// TFLite's SPLIT takes the axis first, then the tensor.
void split(const ModelNode& node, Translation& tr, NodeRequest& req)
{
    const auto axis = tr.scalar(0, "axis");
    const auto input = tr.data(1, "input");
    tr.show("num_splits", std::to_string(intAttr(node, "num_splits")));
    if (tr.failed()) return;
    req.op = "split";
    req.inputs.push_back({"value", {*input}});
    req.attrs = {{"num_or_size_splits", intAttr(node, "num_splits")},
                 {"axis", axis->toInt64Vector()[0]}};
}

void splitV(const ModelNode& node, Translation& tr, NodeRequest& req)
{
    const auto input = tr.data(0, "input");
    const auto sizes = tr.ints(1, "size_splits");
    const auto axis = tr.scalar(2, "axis");
    tr.show("num_splits", std::to_string(intAttr(node, "num_splits")));
    if (tr.failed()) return;
    req.op = "split";
    req.inputs.push_back({"value", {*input}});
    req.attrs = {{"num_or_size_splits", Attr::ints(*sizes)}, {"axis", axis->toInt64Vector()[0]}};
}

void unique(const ModelNode& node, Translation& tr, NodeRequest& req)
{
    const auto x = tr.data(0, "x");
    const std::string idxType = stringAttr(node, "idx_out_type");
    tr.show("idx_out_type", idxType);
    if (idxType != "INT32" && idxType != "INT64")
        tr.fail("idx_out_type " + idxType + " is neither INT32 nor INT64");
    if (tr.failed()) return;
    req.op = "unique_with_counts";
    req.inputs.push_back({"x", {*x}});
    req.attrs = {{"out_idx", idxType == "INT64" ? "int64" : "int32"}};
    req.outputOf = {0, 1}; // TFLite's UNIQUE has no counts output
    tr.note("TFLite's UNIQUE gives y and idx; SliceScope's unique_with_counts also counts each "
            "value");
}

// An operator of the family: its builtin code and name, its options (null: every argument is an
// input tensor) and its translation.
struct TFLiteOp
{
    std::int32_t code;
    std::string name;
    Attrs (*options)(const tfl::Operator& op, std::string& note);
    Translator translate;
};

const std::vector<TFLiteOp>& tfliteOps()
{
    static const std::vector<TFLiteOp> ops = {
        {tfl::BuiltinOperator_STRIDED_SLICE, "STRIDED_SLICE", stridedSliceOptions, stridedSlice},
        {tfl::BuiltinOperator_SLICE, "SLICE", nullptr,
         dataWithIntLists("slice", "input", "input", {"begin", "size"})},
        {tfl::BuiltinOperator_GATHER, "GATHER", gatherOptions, gather},
        {tfl::BuiltinOperator_GATHER_ND, "GATHER_ND", nullptr, gatherNd},
        {tfl::BuiltinOperator_PAD, "PAD", nullptr, pad(false, false)},
        {tfl::BuiltinOperator_PADV2, "PADV2", nullptr, pad(true, false)},
        {tfl::BuiltinOperator_MIRROR_PAD, "MIRROR_PAD", mirrorPadOptions, pad(false, true)},
        {tfl::BuiltinOperator_TRANSPOSE, "TRANSPOSE", nullptr,
         dataWithIntLists("transpose", "input", "a", {"perm"})},
        {tfl::BuiltinOperator_TILE, "TILE", nullptr,
         dataWithIntLists("tile", "input", "input", {"multiples"})},
        {tfl::BuiltinOperator_CONCATENATION, "CONCATENATION", concatenationOptions, concatenation},
        {tfl::BuiltinOperator_SPLIT, "SPLIT", splitOptions<tfl::SplitOptions>, split},
        {tfl::BuiltinOperator_SPLIT_V, "SPLIT_V", splitOptions<tfl::SplitVOptions>, splitV},
        {tfl::BuiltinOperator_PACK, "PACK", packOptions, pack},
        {tfl::BuiltinOperator_UNPACK, "UNPACK", unpackOptions, unstackFrom("input")},
        {tfl::BuiltinOperator_REVERSE_V2, "REVERSE_V2", nullptr,
         dataWithIntLists("reverse", "input", "tensor", {"axis"})},
        {tfl::BuiltinOperator_REVERSE_SEQUENCE, "REVERSE_SEQUENCE", reverseSequenceOptions,
         translateReverseSequence},
        {tfl::BuiltinOperator_SPACE_TO_BATCH_ND, "SPACE_TO_BATCH_ND", nullptr, spaceBatchNd(true)},
        {tfl::BuiltinOperator_BATCH_TO_SPACE_ND, "BATCH_TO_SPACE_ND", nullptr, spaceBatchNd(false)},
        {tfl::BuiltinOperator_DEPTH_TO_SPACE, "DEPTH_TO_SPACE",
         blockSizeOptions<tfl::DepthToSpaceOptions>, depthSpace("depth_to_space", false)},
        {tfl::BuiltinOperator_SPACE_TO_DEPTH, "SPACE_TO_DEPTH",
         blockSizeOptions<tfl::SpaceToDepthOptions>, depthSpace("space_to_depth", false)},
        {tfl::BuiltinOperator_ONE_HOT, "ONE_HOT", oneHotOptions, oneHot(true)},
        {tfl::BuiltinOperator_UNIQUE, "UNIQUE", uniqueOptions, unique},
    };
    return ops;
}

} // namespace

std::string tfliteTypeText(std::int8_t type)
{
    if (type >= tfl::TensorType_MIN && type <= tfl::TensorType_MAX)
        return tfl::EnumNameTensorType(tfl::TensorType(type));
    return "type " + std::to_string(type);
}

const std::string* tfliteFamilyOp(std::int32_t code)
{
    for (const TFLiteOp& op : tfliteOps())
        if (op.code == code) return &op.name;
    return nullptr;
}

Attrs tfliteOptions(const tfl::Operator& op, const std::string& name, std::string& note)
{
    const TFLiteOp* entry = findFileOp(tfliteOps(), name);
    return entry && entry->options ? entry->options(op, note) : Attrs{};
}

std::vector<std::string> tfliteOpNames()
{
    return fileOpNames(tfliteOps());
}

void translateTFLiteNode(ModelNode& node)
{
    translateByTable(tfliteOps(), node, [](const ModelNode& n, Translation& tr) {
        const auto sg = n.rawAttrs.find("subgraph");
        if (sg != n.rawAttrs.end()) tr.show("subgraph", std::to_string(sg->second.toInt()));
    });
}

} // namespace ss::model
