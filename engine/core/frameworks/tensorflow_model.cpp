// SPDX-License-Identifier: GPL-3.0-or-later
// TensorFlow: the engine's own getitem and strided_slice ops (the current release's
// ValidateStridedSliceOp and tf.Tensor.__getitem__), so the model is the op itself. TensorFlow
// refuses index arrays in a subscript; its code for one is NumPy's reading spelled with
// tf.gather, tf.gather_nd or tf.boolean_mask where one of them says it.
#include "core/frameworks/tensorflow_model.h"

#include "core/error.h"
#include "core/frameworks/advanced_index.h"
#include "core/strings.h"

namespace ss {

using namespace frameworks;

namespace {

// The Python exception class TensorFlow raises for each of the engine's error codes.
std::string tfErrorType(ErrorCode code)
{
    switch (code) {
    case ErrorCode::OutOfRange: return "OutOfRangeError";
    case ErrorCode::Unimplemented: return "UnimplementedError";
    case ErrorCode::ResourceExhausted: return "ResourceExhaustedError";
    default: return "InvalidArgumentError";
    }
}

std::string maskCode(std::int32_t mask)
{
    return std::to_string(mask);
}

std::string nestedListText(const std::vector<std::int64_t>& values, const Shape& shape,
                           std::size_t depth = 0, std::size_t* at = nullptr)
{
    std::size_t first = 0;
    if (!at) at = &first;
    if (depth == shape.size()) return std::to_string(values[(*at)++]);
    std::string t = "[";
    for (std::int64_t k = 0; k < shape[depth]; ++k)
        t += (k ? ", " : "") + nestedListText(values, shape, depth + 1, at);
    return t + "]";
}

std::string boolListText(const std::vector<std::int64_t>& values, const Shape& shape,
                         std::size_t depth = 0, std::size_t* at = nullptr)
{
    std::size_t first = 0;
    if (!at) at = &first;
    if (depth == shape.size()) return values[(*at)++] ? "True" : "False";
    std::string t = "[";
    for (std::int64_t k = 0; k < shape[depth]; ++k)
        t += (k ? ", " : "") + boolListText(values, shape, depth + 1, at);
    return t + "]";
}

// NumPy's reading of a subscript with index arrays, as one TensorFlow call: tf.gather for one
// integer array, tf.boolean_mask for one mask, tf.gather_nd for integer arrays on the leading
// axes; every other item a whole slice or the ellipsis. Throws invalid_argument otherwise.
std::string gatherCode(const Subscript& sub, const std::optional<Shape>& shape)
{
    const auto& items = sub.items;
    auto refuse = [](const std::string& why) {
        invalidArgument("TensorFlow refuses index arrays in a subscript, and " + why +
                        "; index with tf.gather or tf.gather_nd after tf.strided_slice");
    };
    for (const SubscriptItem& it : items)
        if (it.comparison) {
            // The mask's values are the input's: one call takes it whole.
            if (items.size() != 1) refuse(it.text + " beside other items has no single call");
            return "import tensorflow as tf\n\n# TensorFlow's getitem here refuses " +
                   subscriptText(items, false) +
                   " (a mask); NumPy's reading with "
                   "tf.boolean_mask:\ny = tf.boolean_mask(x, " +
                   it.text + ")\n";
        }
    int used = 0;
    for (const SubscriptItem& it : items) {
        if (it.kind == SubscriptItem::Kind::IndexArray)
            used += it.arrayIsBool ? int(it.arrayShape.size()) : 1;
        else if (it.kind == SubscriptItem::Kind::Slice)
            ++used;
    }
    // The axis each array starts at; after an ellipsis that needs the rank.
    std::vector<std::size_t> arrays;
    std::vector<int> axes;
    int dim = 0;
    for (std::size_t k = 0; k < items.size(); ++k) {
        const SubscriptItem& it = items[k];
        switch (it.kind) {
        case SubscriptItem::Kind::Slice:
            if (it.start || it.stop || it.step.value_or(1) != 1)
                refuse("no single gather takes " + it.text + " beside them");
            ++dim;
            break;
        case SubscriptItem::Kind::Ellipsis:
            if (!shape) refuse("the axes after ... depend on the input's rank, which is not given");
            dim += std::max(0, int(shape->size()) - used);
            break;
        case SubscriptItem::Kind::IndexArray:
            arrays.push_back(k);
            axes.push_back(dim);
            dim += it.arrayIsBool ? int(it.arrayShape.size()) : 1;
            break;
        default: refuse("no single gather takes " + it.text + " beside them");
        }
    }
    // An index counted from the end, made non-negative for TensorFlow's gathers.
    auto values = [&](const SubscriptItem& it, int axis) {
        std::vector<std::int64_t> v = it.arrayValues;
        for (std::int64_t& e : v)
            if (e < 0) {
                if (!shape || axis >= int(shape->size()))
                    refuse("a negative index needs the input's shape to be made non-negative");
                e += (*shape)[std::size_t(axis)];
            }
        return v;
    };
    const std::string intro = "import tensorflow as tf\n\n# TensorFlow refuses " +
                              subscriptText(items, sub.form == Subscript::Form::Tuple) +
                              " (index arrays); NumPy's reading with ";
    if (arrays.size() == 1) {
        const SubscriptItem& it = items[arrays[0]];
        const int axis = axes[0];
        if (it.arrayIsBool)
            return intro + "tf.boolean_mask:\ny = tf.boolean_mask(x, " +
                   boolListText(it.arrayValues, it.arrayShape) + ", axis=" + std::to_string(axis) +
                   ")\n";
        return intro + "tf.gather:\ny = tf.gather(x, " +
               nestedListText(values(it, axis), it.arrayShape) + ", axis=" + std::to_string(axis) +
               ")\n";
    }
    std::vector<Shape> shapes;
    for (std::size_t k = 0; k < arrays.size(); ++k) {
        const SubscriptItem& it = items[arrays[k]];
        if (it.arrayIsBool) refuse("a boolean mask beside other index arrays has no single call");
        if (axes[k] != int(k)) refuse("gather_nd takes index arrays on the leading axes only");
        shapes.push_back(it.arrayShape);
    }
    const std::optional<Shape> block = broadcastShapes(shapes);
    if (!block) refuse("its index arrays do not broadcast (NumPy raises IndexError)");
    std::string stacked;
    for (std::size_t k = 0; k < arrays.size(); ++k) {
        const SubscriptItem& it = items[arrays[k]];
        stacked += std::string(k ? ",\n                          " : "") + "tf.broadcast_to(" +
                   nestedListText(values(it, int(k)), it.arrayShape) + ", " + listText(*block) +
                   ")";
    }
    return intro + "tf.gather_nd (the index arrays broadcast to " + shapeTuple(*block) +
           ", then stacked into index tuples):\ny = tf.gather_nd(x, tf.stack([" + stacked +
           "], axis=-1))\n";
}

} // namespace

Framework TensorflowModel::id() const
{
    return Framework::TensorFlow;
}

std::string_view TensorflowModel::title() const
{
    return "TensorFlow";
}

FrameworkOutcome TensorflowModel::plan(const IndexSpec& spec, const Tensor& input,
                                       const Limits& limits) const
{
    const Framework fw = Framework::TensorFlow;
    const bool raw = spec.raw.has_value();
    const OpDef* def = findOp(raw ? "strided_slice" : "getitem");
    Attrs attrs = raw ? attrsFromSparse(*spec.raw) : Attrs{{"expr", Attr(spec.expression)}};
    OpPlan plan;
    try {
        OpCall call(*def, {{input}}, std::move(attrs), limits);
        plan = def->plan(call);
    } catch (const OpError& e) {
        if (e.code() == ErrorCode::ResourceExhausted) throw;
        return errorOutcome(fw, tfErrorType(e.code()), e.what(), {});
    }
    FrameworkOutcome o;
    o.framework = fw;
    o.kind = FrameworkOutcome::Kind::Result;
    const StridedSliceDecode& d = *plan.decode;
    for (const DimDecode& dim : d.dims)
        o.picks.push_back({dim.begin, dim.stride, dim.length, dim.shrink});
    for (int k : d.finalDims)
        o.outputDims.push_back(k < 0 ? -1 : k);
    o.plan = std::move(plan);
    return o;
}

std::string TensorflowModel::code(const IndexSpec& spec, const std::optional<Shape>& shape) const
{
    if (spec.subscript && spec.subscript->form != Subscript::Form::List &&
        hasArrayItems(spec.subscript->items))
        return gatherCode(*spec.subscript, shape);
    // Both spellings: the subscript (where one exists) and the raw op with its masks.
    const Encoding enc = spec.raw ? Encoding{*spec.raw, {}, {}} : encodeExpression(spec.expression);
    const SparseSpec& s = enc.sparse;
    std::string out = "import tensorflow as tf\n\n";
    if (!spec.expression.empty()) {
        std::string text = spec.expression;
        if (spec.subscript) {
            const Subscript& sub = *spec.subscript;
            if (sub.form == Subscript::Form::List) {
                text = "x[[";
                for (std::size_t k = 0; k < sub.items.size(); ++k)
                    text += (k ? ", " : "") + itemText(sub.items[k]);
                text += "]]";
            } else {
                text = subscriptText(sub.items, sub.form == Subscript::Form::Tuple);
            }
        }
        out += "y = " + text + "\n# is the same as:\n";
    }
    out += "tf.strided_slice(x, begin=" + listText(s.begin) + ", end=" + listText(s.end) +
           ", strides=" + listText(s.strides) +
           ",\n                 begin_mask=" + maskCode(s.beginMask) +
           ", end_mask=" + maskCode(s.endMask) + ", ellipsis_mask=" + maskCode(s.ellipsisMask) +
           ",\n                 new_axis_mask=" + maskCode(s.newAxisMask) +
           ", shrink_axis_mask=" + maskCode(s.shrinkAxisMask) + ")\n";
    return out;
}

} // namespace ss
