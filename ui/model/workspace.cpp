// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/workspace.h"

#include "core/decode.h"
#include "core/error.h"
#include "core/slice_expr.h"
#include "core/strings.h"
#include "protocol/shape_text.h"
#include "protocol/tensor_json.h"
#include "ui/model/attrtext.h"

#include <QStringList>

#include <algorithm>

namespace ss::ui {

namespace {

const char* const kFillNames[] = {"arange", "zeros", "ones", "random", "literal", "data"};

// An op that takes a slice spec and at most the one tensor it slices: nothing else to fill in,
// so a spec carried over from another such op is all it needs. strided_slice's `offset` (TFLite)
// defaults to false, which is what every other notation means.
bool takesOnlySpec(const OpDef& def)
{
    if (def.notation != Notation::Subscript && def.notation != Notation::RawStridedSlice)
        return false;
    const std::vector<std::string>& spec = notationAttrs(def.notation);
    return def.inputs.size() <= 1 &&
           std::all_of(def.attrs.begin(), def.attrs.end(), [&](const AttrDef& a) {
               return a.name == "offset" ||
                      std::find(spec.begin(), spec.end(), a.name) != spec.end();
           });
}

// A spec read with TFLite's offset (ends counted from the begins) means something else in any
// other op: it is not carried over.
bool offsetOn(const Attrs& attrs)
{
    const auto it = attrs.find("offset");
    return it != attrs.end() && ((it->second.isBool() && it->second.toBool()) ||
                                 (it->second.isInt() && it->second.toInt()));
}

// The spec of a spec-only op's attributes: its subscript encoded, or its raw arguments. Throws
// (an unfinished expression) or is empty (raw arguments missing) when there is none.
std::optional<SparseSpec> specOf(const OpDef& def, const Attrs& attrs)
{
    if (def.notation == Notation::Subscript)
        return encodeExpression(attrs.at("expr").toString()).sparse;
    return sparseFromAttrs(attrs);
}

// Whether TensorFlow's decode takes `sparse` on a tensor of `shape` (without its words: only
// whether it throws matters).
bool decodesOn(const Shape& shape, const SparseSpec& sparse)
{
    try {
        StridedSliceDecode decode;
        std::vector<Step> steps;
        decodeStridedSlice(shape, sparse, decode, steps, /*explain=*/false);
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

// `sparse` without its entries from `count` on.
SparseSpec firstEntries(SparseSpec sparse, std::size_t count)
{
    sparse.begin.resize(count);
    sparse.end.resize(count);
    sparse.strides.resize(count);
    const std::int32_t kept = count >= 32 ? -1 : std::int32_t((std::uint64_t(1) << count) - 1);
    for (std::int32_t* mask : {&sparse.beginMask, &sparse.endMask, &sparse.ellipsisMask,
                               &sparse.newAxisMask, &sparse.shrinkAxisMask})
        *mask &= kept;
    return sparse;
}

// The attributes of a spec-only op that hold `sparse`: the subscript `expr` in the subscript
// notation, the raw arguments otherwise.
Attrs specAttrs(const OpDef& def, const SparseSpec& sparse, const std::string& expr)
{
    return def.notation == Notation::Subscript ? Attrs{{"expr", Attr(expr)}}
                                               : attrsFromSparse(sparse);
}

// Why the engine refuses `attrs` of `def` on `data`, from the plan: an output copied over
// `limits` (one that shares a file's pages may be as big as the file). Nothing if it does not.
std::optional<OpError> planProblem(const OpDef& def, const Tensor& data, const Attrs& attrs,
                                   const Limits& limits)
{
    try {
        def.plan(OpCall(def, {{data}}, attrs, limits));
        return std::nullopt;
    } catch (const OpError& e) {
        return e;
    }
}

} // namespace

QString fillKindName(FillKind kind)
{
    return QString::fromLatin1(kFillNames[int(kind)]);
}

std::optional<FillKind> fillKindFromName(const QString& name)
{
    for (int k = 0; k < int(std::size(kFillNames)); ++k)
        if (name == QLatin1String(kFillNames[k])) return FillKind(k);
    return std::nullopt;
}

bool InputSource::operator==(const InputSource& other) const
{
    return dtype == other.dtype && shape == other.shape && fill == other.fill &&
           seed == other.seed && literal == other.literal && data.raw() == other.data.raw() &&
           data.shape() == other.data.shape() && data.dtype() == other.data.dtype();
}

InputSource dataSource(const Tensor& tensor)
{
    InputSource s;
    s.dtype = tensor.dtype();
    s.shape = tensor.shape();
    s.fill = FillKind::Data;
    s.data = tensor;
    return s;
}

std::optional<SparseSpec> sparseFromAttrs(const Attrs& attrs)
{
    auto list = [&](const char* name) -> std::optional<std::vector<std::int64_t>> {
        const auto it = attrs.find(name);
        if (it == attrs.end()) return std::vector<std::int64_t>{};
        if (!it->second.isList()) return std::nullopt;
        std::vector<std::int64_t> values;
        for (const Attr& a : it->second.toList()) {
            if (!a.isInt()) return std::nullopt;
            values.push_back(a.toInt());
        }
        return values;
    };
    auto mask = [&](const char* name) -> std::optional<std::int32_t> {
        const auto it = attrs.find(name);
        if (it == attrs.end()) return 0;
        // The kernel reads masks as int32 attributes; anything wider is refused there.
        if (!it->second.isInt() || it->second.toInt() < INT32_MIN || it->second.toInt() > INT32_MAX)
            return std::nullopt;
        return std::int32_t(it->second.toInt());
    };
    const auto begin = list("begin");
    const auto end = list("end");
    auto strides = list("strides");
    if (strides && strides->empty() && !attrs.count("strides") && begin)
        strides = std::vector<std::int64_t>(begin->size(), 1);
    const auto b = mask("begin_mask"), e = mask("end_mask"), el = mask("ellipsis_mask"),
               n = mask("new_axis_mask"), s = mask("shrink_axis_mask");
    if (!begin || !end || !strides || !b || !e || !el || !n || !s) return std::nullopt;
    return SparseSpec{*begin, *end, *strides, *b, *e, *el, *n, *s};
}

std::optional<Shape> knownShape(const InputSource& source)
{
    switch (source.fill) {
    case FillKind::Data: return source.data.shape();
    case FillKind::Literal:
        try {
            // Typed by hand, so small: reading it here costs nothing.
            return parseTensorLiteral(source.literal.toStdString(), source.dtype, Limits{}).shape();
        } catch (const OpError&) {
            return std::nullopt;
        }
    default: return source.shape;
    }
}

Workspace exampleWorkspace(const OpDef& def)
{
    Workspace ws;
    ws.op = def.name;
    ws.attrs = def.example.attrs;
    ws.inputs.clear();
    for (const auto& list : def.example.inputs) {
        ws.inputs.emplace_back();
        for (const ExampleTensor& t : list) {
            InputSource source;
            source.dtype = t.dtype;
            if (t.value.isNull()) {
                source.shape = t.shape;
                source.fill = t.fill == Fill::Zeros    ? FillKind::Zeros
                              : t.fill == Fill::Ones   ? FillKind::Ones
                              : t.fill == Fill::Random ? FillKind::Random
                                                       : FillKind::Arange;
            } else {
                source.shape = attrShape(t.value);
                source.fill = FillKind::Literal;
                source.literal = attrText(t.value);
            }
            ws.inputs.back().push_back(std::move(source));
        }
    }
    return ws;
}

Workspace switchOp(const Workspace& current, const OpDef& def, const Workspace* start)
{
    Workspace next = start ? *start : exampleWorkspace(def);
    next.title.clear();
    next.explanation.clear();
    const OpDef* from = findOp(current.op);
    if (!from || !takesOnlySpec(*from) || !takesOnlySpec(def) || offsetOn(current.attrs))
        return next;
    std::optional<Attrs> fitted;
    try {
        if (from->notation == def.notation) {
            fitted = current.attrs;
        } else if (def.notation == Notation::RawStridedSlice) {
            // The subscript and the raw table say the same thing in two notations: translate.
            fitted = attrsFromSparse(encodeExpression(current.attrs.at("expr").toString()).sparse);
        } else if (const auto sparse = sparseFromAttrs(current.attrs)) {
            fitted = Attrs{{"expr", Attr(toExpr(*sparse))}};
        }
    } catch (const std::exception&) {
        // An unfinished expression, or raw arguments no subscript can say: nothing to carry over.
    }
    if (!fitted) return next;
    // A spec written without a tensor (encode, to_expr) is carried into an op that slices one
    // only if it can slice that op's example tensor; otherwise the op would open on an error
    // ("Index out of range using input dim 2" for encode's x[1, 2:4, None, ..., :-3:-1, :] on a
    // 3 x 4 getitem example), so it opens on its own example instead.
    if (from->inputs.empty() && !next.inputs.empty() && !next.inputs.front().empty()) {
        const InputSource& input = next.inputs.front().front();
        const Shape shape = input.fill == FillKind::Data ? input.data.shape() : input.shape;
        try {
            const std::optional<SparseSpec> sparse = specOf(def, *fitted);
            if (!sparse || !decodesOn(shape, *sparse)) return next;
        } catch (const std::exception&) {
            return next;
        }
    }
    if (std::none_of(def.attrs.begin(), def.attrs.end(),
                     [](const AttrDef& a) { return a.name == "offset"; }))
        fitted->erase("offset");
    next.attrs = *fitted;
    if (!next.inputs.empty() && !current.inputs.empty() && current.inputs.front().size() == 1)
        next.inputs.front() = current.inputs.front();
    return next;
}

Workspace fitSpecToInputRank(const Workspace& ws)
{
    const OpDef* def = findOp(ws.op);
    if (!def || !takesOnlySpec(*def) || offsetOn(ws.attrs) || ws.inputs.empty() ||
        ws.inputs.front().empty())
        return ws;
    const std::optional<Shape> shape = knownShape(ws.inputs.front().front());
    if (!shape) return ws;
    try {
        const std::optional<SparseSpec> sparse = specOf(*def, ws.attrs);
        if (!sparse) return ws;
        // The entries up to the one that would take a dimension the tensor does not have (a
        // new axis and the ellipsis take none).
        std::size_t kept = 0;
        std::size_t taken = 0;
        for (; kept < sparse->strides.size(); ++kept) {
            const bool takesNone =
                kept < 32 &&
                ((std::uint32_t(sparse->newAxisMask | sparse->ellipsisMask) >> kept) & 1);
            if (takesNone) continue;
            if (taken == shape->size()) break;
            ++taken;
        }
        if (kept == sparse->strides.size()) return ws; // it fits, or fails for another reason
        const SparseSpec cut = firstEntries(*sparse, kept);
        if (!decodesOn(*shape, cut)) return ws;
        Workspace next = ws;
        next.attrs = specAttrs(*def, cut, toExpr(cut));
        return next;
    } catch (const std::exception&) {
        return ws; // an unfinished expression: nothing to fit
    }
}

Workspace fitSpecToFile(const Workspace& ws, const Limits& limits, QString* note)
{
    const Workspace fitted = fitSpecToInputRank(ws);
    const OpDef* def = findOp(fitted.op);
    if (!def || !takesOnlySpec(*def) || offsetOn(fitted.attrs) || fitted.inputs.empty() ||
        fitted.inputs.front().empty() || !fitted.inputs.front().front().data.isValid())
        return fitted;
    const Tensor& data = fitted.inputs.front().front().data;
    const auto why = planProblem(*def, data, fitted.attrs, limits);
    if (!why || why->code() != ErrorCode::ResourceExhausted) return fitted;
    // The whole file, a view of its pages.
    const std::string whole = "x[...]";
    Workspace next = fitted;
    next.attrs = specAttrs(*def, encodeExpression(whole).sparse, whole);
    if (planProblem(*def, data, next.attrs, limits)) return fitted;
    if (note)
        *note = QStringLiteral("The file opens on %1, a view of its pages that copies nothing: "
                               "the spec it would have opened on, %2, cannot be shown (%3).")
                    .arg(QString::fromStdString(whole),
                         QString::fromStdString(toExpr(*specOf(*def, fitted.attrs))),
                         QString::fromUtf8(why->what()));
    return next;
}

Tensor materialize(const InputSource& source, const Limits& limits, Executor* executor)
{
    const DType dtype = source.dtype.value_or(DType::Int32);
    switch (source.fill) {
    case FillKind::Arange:
        return makeFilled(dtype, source.shape, Fill::Arange, source.seed, limits, executor);
    case FillKind::Zeros:
        return makeFilled(dtype, source.shape, Fill::Zeros, source.seed, limits, executor);
    case FillKind::Ones:
        return makeFilled(dtype, source.shape, Fill::Ones, source.seed, limits, executor);
    case FillKind::Random:
        return makeFilled(dtype, source.shape, Fill::Random, source.seed, limits, executor);
    case FillKind::Literal:
        return parseTensorLiteral(source.literal.toStdString(), source.dtype, limits);
    case FillKind::Data: break;
    }
    if (!source.data.isValid()) badRequest("the tensor has no data");
    return source.data;
}

QString dtypeText(DType dtype)
{
    const std::string_view name = dtypeName(dtype);
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

QString shapeText(const Shape& shape)
{
    return QString::fromStdString(shapeTuple(shape));
}

std::optional<Shape> parseShapeText(const QString& text)
{
    try {
        return parseShape(text.toStdString());
    } catch (const OpError&) {
        return std::nullopt;
    }
}

QString coordText(std::int64_t flat, const Shape& shape)
{
    return QString::fromStdString(listText(unravelIndex(flat, shape)));
}

} // namespace ss::ui
