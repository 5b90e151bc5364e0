// SPDX-License-Identifier: GPL-3.0-or-later
// Folding the shape computations exporters write around slicing nodes (onnx_shape_folding.h):
// the ops outside the family on small integer and bool tensors, with ONNX's semantics (numpy
// broadcasting, integer division truncated as ONNX Runtime's kernels do); the family's ops go
// through their translation and the engine. Anything ONNX would refuse is left unfolded.
#include "model/onnx_shape_folding.h"

#include "core/checked.h"
#include "core/error.h"
#include "model/node_translation.h"
#include "model/onnx_ops.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>

namespace ss::model {

namespace {

using Values = std::vector<Tensor>;

// Input k's value, if the file fixes it.
const Tensor* known(const ModelNode& node, std::size_t k)
{
    if (k >= node.inputs.size() || node.inputs[k].name.empty()) return nullptr;
    const auto& c = node.inputs[k].constant;
    return c ? &*c : nullptr;
}

bool isIntegral(const Tensor& t)
{
    return t.dtype() == DType::Bool || isInteger(t.dtype());
}

// Every non-empty input known and integral (bool included).
std::optional<std::vector<const Tensor*>> integralInputs(const ModelNode& node)
{
    std::vector<const Tensor*> in;
    for (std::size_t k = 0; k < node.inputs.size(); ++k) {
        const Tensor* t = known(node, k);
        if (!t || !isIntegral(*t)) return std::nullopt;
        in.push_back(t);
    }
    return in;
}

// For output element `flat` of `out`, the element of an input of shape `in` that broadcasting
// reads.
std::int64_t broadcastSource(std::int64_t flat, const Shape& out, const Shape& in)
{
    std::int64_t source = 0, stride = 1;
    for (std::size_t k = out.size(); k-- > 0;) {
        const std::int64_t coord = flat % out[k];
        flat /= out[k];
        const std::size_t offset = out.size() - in.size();
        if (k < offset) continue;
        const std::int64_t d = in[k - offset];
        if (d != 1) source += coord * stride;
        stride *= d;
    }
    return source;
}

std::optional<std::int64_t> elementCount(const Shape& shape)
{
    const auto n = checkedNumElements(shape);
    if (!n || *n > kMaxFoldedElements) return std::nullopt;
    return n;
}

// An element-wise op over broadcast inputs: f(values) -> value, none to leave the node unfolded
// (a division by zero, an overflow). `outType`: the output dtype.
std::optional<Values> elementwise(
    const std::vector<const Tensor*>& in, DType outType,
    const std::function<std::optional<std::int64_t>(const std::vector<std::int64_t>&)>& f)
{
    std::vector<Shape> shapes;
    for (const Tensor* t : in)
        shapes.push_back(t->shape());
    const auto shape = broadcastShapes(shapes);
    if (!shape) return std::nullopt;
    const auto n = elementCount(*shape);
    if (!n) return std::nullopt;
    Tensor out = Tensor::empty(outType, *shape);
    std::vector<std::int64_t> args(in.size());
    for (std::int64_t i = 0; i < *n; ++i) {
        for (std::size_t k = 0; k < in.size(); ++k)
            args[k] = in[k]->intAt(broadcastSource(i, *shape, in[k]->shape()));
        const auto v = f(args);
        if (!v) return std::nullopt;
        out.setFromInt(i, *v);
    }
    return Values{out};
}

// `in` broadcast to `shape` (any dtype but strings), element by element.
std::optional<Tensor> broadcastTo(const Tensor& in, const Shape& shape)
{
    const auto n = elementCount(shape);
    if (!n || in.dtype() == DType::String) return std::nullopt;
    Tensor out = Tensor::empty(in.dtype(), shape);
    const auto size = std::size_t(dtypeSize(in.dtype()));
    const auto* from = static_cast<const char*>(in.raw());
    auto* to = static_cast<char*>(out.raw());
    for (std::int64_t i = 0; i < *n; ++i)
        std::memcpy(to + std::size_t(i) * size,
                    from + std::size_t(broadcastSource(i, shape, in.shape())) * size, size);
    return out;
}

// ---- the ops ------------------------------------------------------------------------------

using Arith = std::optional<std::int64_t> (*)(std::int64_t, std::int64_t);

std::optional<Values> binary(const ModelNode& node, Arith f)
{
    const auto in = integralInputs(node);
    if (!in || in->size() != 2) return std::nullopt;
    return elementwise(*in, (*in)[0]->dtype(),
                       [f](const std::vector<std::int64_t>& v) { return f(v[0], v[1]); });
}

// ONNX's integer Div: ONNX Runtime's kernels divide as C++ does (toward zero).
std::optional<std::int64_t> divide(std::int64_t a, std::int64_t b)
{
    if (b == 0 || (b == -1 && a == INT64_MIN)) return std::nullopt;
    return a / b;
}

std::optional<Values> compare(const ModelNode& node, bool (*f)(std::int64_t, std::int64_t))
{
    const auto in = integralInputs(node);
    if (!in || in->size() != 2) return std::nullopt;
    return elementwise(*in, DType::Bool, [f](const std::vector<std::int64_t>& v) {
        return std::optional<std::int64_t>(f(v[0], v[1]));
    });
}

// The shape of input 0, if the file fixes it: its value's, or the one it stores in full.
std::optional<Shape> fixedShape(const ModelNode& node)
{
    if (node.inputs.empty()) return std::nullopt;
    const ModelValue& v = node.inputs[0];
    return v.constant ? v.constant->shape() : v.stored.shape();
}

std::optional<Values> sizeOf(const ModelNode& node)
{
    const std::optional<Shape> shape = fixedShape(node);
    if (!shape) return std::nullopt;
    return Values{Tensor::scalar(DType::Int64, numElements(*shape))};
}

// Shape, with opset 15's start and end clamped to [0, rank].
std::optional<Values> shapeOf(const ModelNode& node)
{
    const std::optional<Shape> shape = fixedShape(node);
    if (!shape) return std::nullopt;
    const auto rank = std::int64_t(shape->size());
    const auto clamp = [rank](std::int64_t i) {
        return std::clamp<std::int64_t>(i < 0 ? i + rank : i, 0, rank);
    };
    const std::int64_t start = clamp(intAttr(node, "start", 0));
    const std::int64_t end = clamp(intAttr(node, "end", rank));
    std::vector<std::int64_t> dims(shape->begin() + start,
                                   shape->begin() + std::max(start, end));
    return Values{Tensor::fromInts(DType::Int64, {std::int64_t(dims.size())}, dims)};
}

std::optional<Values> cast(const ModelNode& node, const FoldAttributes& extra)
{
    const auto in = integralInputs(node);
    if (!in || in->size() != 1 || !extra.to || !(*extra.to == DType::Bool || isInteger(*extra.to)))
        return std::nullopt;
    return elementwise(*in, *extra.to, [to = *extra.to](const std::vector<std::int64_t>& v) {
        return std::optional<std::int64_t>(to == DType::Bool ? v[0] != 0 : v[0]);
    });
}

std::optional<Values> constantOfShape(const ModelNode& node, const FoldAttributes& extra)
{
    const auto in = integralInputs(node);
    if (!in || in->size() != 1) return std::nullopt;
    const Tensor value = extra.value ? *extra.value : Tensor::scalar(DType::Float32, 0.0);
    if (value.size() != 1) return std::nullopt;
    const std::vector<std::int64_t> dims = (*in)[0]->toInt64Vector();
    if (std::any_of(dims.begin(), dims.end(), [](std::int64_t d) { return d < 0; }))
        return std::nullopt;
    const auto out = broadcastTo(value.reshaped({}), dims);
    if (!out) return std::nullopt;
    return Values{*out};
}

std::optional<Values> range(const ModelNode& node)
{
    const auto in = integralInputs(node);
    if (!in || in->size() != 3) return std::nullopt;
    for (const Tensor* t : *in)
        if (t->size() != 1) return std::nullopt;
    const std::int64_t start = (*in)[0]->intAt(0), limit = (*in)[1]->intAt(0),
                       delta = (*in)[2]->intAt(0);
    const auto span = checkedSub(limit, start);
    if (delta == 0 || !span) return std::nullopt;
    // ceil(span / delta), at least 0
    std::int64_t n = *span / delta + ((*span % delta != 0) && ((*span < 0) == (delta < 0)));
    n = std::max<std::int64_t>(n, 0);
    if (n > kMaxFoldedElements) return std::nullopt;
    Tensor out = Tensor::empty((*in)[0]->dtype(), {n});
    for (std::int64_t i = 0; i < n; ++i)
        out.setFromInt(i, start + i * delta);
    return Values{out};
}

// Reshape with ONNX's 0 (copy the input's size, unless allowzero) and -1 (inferred).
std::optional<Values> reshape(const ModelNode& node)
{
    const Tensor* data = known(node, 0);
    const Tensor* shapeValue = known(node, 1);
    if (!data || !shapeValue || !isInteger(shapeValue->dtype())) return std::nullopt;
    Shape shape = shapeValue->toInt64Vector();
    const bool allowZero = intAttr(node, "allowzero", 0) != 0;
    std::optional<std::size_t> inferred;
    std::int64_t product = 1;
    for (std::size_t k = 0; k < shape.size(); ++k) {
        if (shape[k] == 0 && !allowZero) {
            if (k >= data->shape().size()) return std::nullopt;
            shape[k] = data->shape()[k];
        }
        if (shape[k] == -1) {
            if (inferred) return std::nullopt;
            inferred = k;
            continue;
        }
        const auto p = shape[k] < 0 ? std::nullopt : checkedMul(product, shape[k]);
        if (!p) return std::nullopt;
        product = *p;
    }
    if (inferred) {
        if (product == 0 || data->size() % product) return std::nullopt;
        shape[*inferred] = data->size() / product;
    }
    if (shape.size() > std::size_t(kMaxRank) || checkedNumElements(shape) != data->size())
        return std::nullopt;
    return Values{data->reshaped(shape)};
}

std::optional<Values> where(const ModelNode& node)
{
    const auto in = integralInputs(node);
    if (!in || in->size() != 3 || (*in)[0]->dtype() != DType::Bool) return std::nullopt;
    return elementwise(*in, (*in)[1]->dtype(), [](const std::vector<std::int64_t>& v) {
        return std::optional<std::int64_t>(v[0] ? v[1] : v[2]);
    });
}

// NonZero: the coordinates of the non-zero elements, one row per dimension, in row-major order.
std::optional<Values> nonZero(const ModelNode& node)
{
    const auto in = integralInputs(node);
    if (!in || in->size() != 1 || (*in)[0]->rank() == 0) return std::nullopt;
    const Tensor& x = *(*in)[0];
    std::vector<std::int64_t> hits;
    for (std::int64_t i = 0; i < x.size(); ++i)
        if (x.intAt(i) != 0) hits.push_back(i);
    const auto rank = std::int64_t(x.rank());
    const auto count = std::int64_t(hits.size());
    if (rank * count > kMaxFoldedElements) return std::nullopt;
    Tensor out = Tensor::empty(DType::Int64, {rank, count});
    for (std::int64_t j = 0; j < count; ++j) {
        std::int64_t flat = hits[std::size_t(j)];
        for (std::int64_t k = rank; k-- > 0;) {
            const std::int64_t d = x.shape()[std::size_t(k)];
            out.data<std::int64_t>()[k * count + j] = flat % d;
            flat /= d;
        }
    }
    return Values{out};
}

std::optional<Values> identity(const ModelNode& node)
{
    const Tensor* t = known(node, 0);
    if (!t) return std::nullopt;
    return Values{*t};
}

// A family op: its translation's request, run by the engine, on small known inputs only.
std::optional<Values> familyOp(const ModelNode& node, Executor& executor)
{
    for (std::size_t k = 0; k < node.inputs.size(); ++k)
        if (!node.inputs[k].name.empty() &&
            (!known(node, k) || known(node, k)->size() > kMaxFoldedElements))
            return std::nullopt;
    ModelNode copy = node;
    translateOnnxNode(copy);
    if (!copy.request) return std::nullopt;
    Values outputs;
    try {
        // A hostile file's Tile of a small constant must not fill memory while being read.
        Limits limits;
        limits.maxElements = kMaxFoldedElements;
        const Values computed = computeRequest(*copy.request, limits, executor);
        const std::vector<int>& map = copy.request->outputOf;
        for (std::size_t k = 0; k < node.outputs.size(); ++k) {
            const int from = map.empty() ? int(k) : (k < map.size() ? map[k] : -1);
            if (from < 0 || std::size_t(from) >= computed.size()) return std::nullopt;
            outputs.push_back(computed[std::size_t(from)]);
        }
    } catch (const OpError&) {
        return std::nullopt; // ONNX would refuse it (or it is too large to fold): not folded
    }
    return outputs;
}

bool equal(std::int64_t a, std::int64_t b) { return a == b; }
bool less(std::int64_t a, std::int64_t b) { return a < b; }
bool greater(std::int64_t a, std::int64_t b) { return a > b; }

// The ops outside the family that fold: one entry per op, looked up by its name.
struct FoldOp
{
    std::string name;
    std::function<std::optional<Values>(const ModelNode&, const FoldAttributes&)> fold;
};

const std::vector<FoldOp>& foldOps()
{
    const auto plain = [](std::optional<Values> (*f)(const ModelNode&)) {
        return [f](const ModelNode& node, const FoldAttributes&) { return f(node); };
    };
    const auto arith = [](Arith f) {
        return [f](const ModelNode& node, const FoldAttributes&) { return binary(node, f); };
    };
    const auto comparison = [](bool (*f)(std::int64_t, std::int64_t)) {
        return [f](const ModelNode& node, const FoldAttributes&) { return compare(node, f); };
    };
    static const std::vector<FoldOp> ops = {
        {"Shape", plain(shapeOf)},
        {"Size", plain(sizeOf)},
        {"Identity", plain(identity)},
        {"Cast", cast},
        {"ConstantOfShape", constantOfShape},
        {"Range", plain(range)},
        {"Reshape", plain(reshape)},
        {"Where", plain(where)},
        {"NonZero", plain(nonZero)},
        {"Add", arith(checkedAdd)},
        {"Sub", arith(checkedSub)},
        {"Mul", arith(checkedMul)},
        {"Div", arith(divide)},
        {"Equal", comparison(equal)},
        {"Less", comparison(less)},
        {"Greater", comparison(greater)},
    };
    return ops;
}

} // namespace

std::optional<std::vector<Tensor>> foldNode(const ModelNode& node, const FoldAttributes& extra,
                                            Executor& executor)
{
    std::optional<Values> out;
    try {
        if (isOnnxFamilyOp(node.op))
            out = familyOp(node, executor);
        else if (const FoldOp* op = findFileOp(foldOps(), node.op))
            out = op->fold(node, extra);
    } catch (const OpError&) {
        return std::nullopt; // a shape no tensor may have (a rank over 32): left to the runtime
    }
    if (out && out->size() != node.outputs.size()) return std::nullopt;
    return out;
}

} // namespace ss::model
