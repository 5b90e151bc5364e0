// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/slice_diagnosis.h"

#include "core/error.h"
#include "core/executor.h"
#include "core/strings.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

namespace ss {

namespace {

std::int64_t sign(std::int64_t v)
{
    return v < 0 ? -1 : 1;
}

// Whether every element of `sources` (an output of `outputShape`) is the input element that
// `sel` picks for it: per output axis j, its strided run, or the input indices lists[j] where
// `lists` has them (a gather's taken axes; none for a plain selection). A fit is only claimed
// once every element agrees.
bool picksEverySource(const Selection& sel, const std::vector<std::vector<std::int64_t>>& lists,
                      const Shape& outputShape, const std::vector<std::int64_t>& sources)
{
    const std::vector<std::int64_t> inStrides = rowMajorStrides(sel.inputShape);
    std::int64_t fixedOffset = 0;
    for (std::size_t d = 0; d < sel.inputShape.size(); ++d)
        if (sel.fixed[d] >= 0) fixedOffset += sel.fixed[d] * inStrides[d];
    std::vector<std::int64_t> coord(outputShape.size(), 0);
    for (std::size_t i = 0; i < sources.size(); ++i) {
        std::int64_t expect = fixedOffset;
        for (std::size_t j = 0; j < coord.size(); ++j) {
            const SelectionAxis& a = sel.axes[j];
            if (a.inputAxis < 0) continue;
            const bool listed = j < lists.size() && !lists[j].empty();
            const std::int64_t index =
                listed ? lists[j][std::size_t(coord[j])] : a.begin + a.stride * coord[j];
            expect += index * inStrides[std::size_t(a.inputAxis)];
        }
        if (expect != sources[i]) return false;
        for (std::size_t j = coord.size(); j-- > 0;) {
            if (++coord[j] < outputShape[j]) break;
            coord[j] = 0;
        }
    }
    return true;
}

} // namespace

ChainPlan planChain(const std::vector<ChainStep>& steps, const Shape& inputShape, DType dtype,
                    const Limits& limits, Executor& executor)
{
    if (steps.empty()) throw OpError(ErrorCode::BadRequest, "a chain needs at least one step");
    ChainPlan chain;
    chain.inputShape = inputShape;
    chain.sources.resize(std::size_t(numElements(inputShape)));
    for (std::size_t i = 0; i < chain.sources.size(); ++i)
        chain.sources[i] = std::int64_t(i);
    Shape shape = inputShape;
    for (std::size_t k = 0; k < steps.size(); ++k) {
        const ChainStep& step = steps[k];
        const std::string where = "step " + std::to_string(k + 1) + ": ";
        if (!step.op) throw OpError(ErrorCode::BadRequest, where + "no op");
        if (step.op->inputs.size() != 1 + step.constants.size() || step.op->inputs[0].isList)
            throw OpError(ErrorCode::BadRequest,
                          where + step.op->name +
                              " takes more than one input tensor; a chain's steps take one");
        try {
            // The plans of these ops depend on shapes and attributes only, so zeros stand for
            // every input of this shape.
            std::vector<std::vector<Tensor>> inputs{{Tensor::zeros(dtype, shape, limits)}};
            inputs.insert(inputs.end(), step.constants.begin(), step.constants.end());
            OpCall call(*step.op, std::move(inputs), step.attrs, limits);
            call.setExecutor(&executor);
            const OpPlan plan = step.op->plan(call);
            if (plan.outputs.size() != 1)
                throw OpError(ErrorCode::BadRequest, step.op->name + " gives " +
                                                         std::to_string(plan.outputs.size()) +
                                                         " outputs; a chain's steps give one");
            const SourceList s = planSources(plan, 0, executor);
            std::vector<std::int64_t> next(s.size());
            for (std::size_t i = 0; i < s.size(); ++i)
                next[i] = (s[i] == kNoSource || sourceSlot(s[i]) != 0)
                              ? kNoSource
                              : chain.sources[std::size_t(sourceIndex(s[i]))];
            chain.sources = std::move(next);
            shape = plan.outputs[0].shape;
        } catch (const OpError& e) {
            throw OpError(e.code(), where + e.what());
        }
    }
    chain.outputShape = shape;
    return chain;
}

std::string positionText(std::int64_t flat, const Shape& shape)
{
    return listText(unravelIndex(flat, shape));
}

std::string sourceText(std::int64_t source, const Shape& shape)
{
    if (source == kNoSource) return "a constant";
    if (shape.empty()) return "x";
    return "x" + positionText(source, shape);
}

Equivalence compareChains(const ChainPlan& a, const ChainPlan& b)
{
    Equivalence e;
    if (a.outputShape != b.outputShape) {
        e.shapesDiffer = true;
        e.explanation = "the outputs differ in shape: A gives " + shapeTuple(a.outputShape) +
                        ", B gives " + shapeTuple(b.outputShape);
        return e;
    }
    for (std::size_t i = 0; i < a.sources.size(); ++i)
        if (a.sources[i] != b.sources[i]) {
            e.position = std::int64_t(i);
            e.sourceA = a.sources[i];
            e.sourceB = b.sources[i];
            e.explanation = "at output " + positionText(e.position, a.outputShape) + " A reads " +
                            sourceText(e.sourceA, a.inputShape) + " and B reads " +
                            sourceText(e.sourceB, b.inputShape);
            return e;
        }
    e.same = true;
    e.explanation = "both read the same " + std::to_string(a.sources.size()) + " element" +
                    (a.sources.size() == 1 ? "" : "s") + " in the same order, output shape " +
                    shapeTuple(a.outputShape);
    return e;
}

std::vector<int> Selection::runAxes() const
{
    std::vector<int> r;
    for (const SelectionAxis& a : axes)
        if (a.inputAxis >= 0) r.push_back(a.inputAxis);
    return r;
}

bool Selection::transposed() const
{
    const std::vector<int> r = runAxes();
    return !std::is_sorted(r.begin(), r.end());
}

std::optional<Selection> fitSelection(const Shape& inputShape, const Shape& outputShape,
                                      const std::vector<std::int64_t>& sources)
{
    if (sources.empty() || std::int64_t(sources.size()) != numElements(outputShape))
        return std::nullopt;
    for (const std::int64_t s : sources)
        if (s == kNoSource) return std::nullopt;
    Selection sel;
    sel.inputShape = inputShape;
    const std::vector<std::int64_t> base = unravelIndex(sources[0], inputShape);
    sel.fixed = base;
    const std::vector<std::int64_t> outStrides = rowMajorStrides(outputShape);
    std::vector<bool> used(inputShape.size(), false);
    for (std::size_t j = 0; j < outputShape.size(); ++j) {
        SelectionAxis axis;
        if (outputShape[j] > 1) {
            const std::vector<std::int64_t> next =
                unravelIndex(sources[std::size_t(outStrides[j])], inputShape);
            int moved = -1;
            for (std::size_t d = 0; d < inputShape.size(); ++d)
                if (next[d] != base[d]) {
                    if (moved >= 0) return std::nullopt; // one step moves two input axes
                    moved = int(d);
                }
            if (moved < 0 || used[std::size_t(moved)]) return std::nullopt;
            used[std::size_t(moved)] = true;
            axis.inputAxis = moved;
            axis.begin = base[std::size_t(moved)];
            axis.stride = next[std::size_t(moved)] - base[std::size_t(moved)];
            axis.count = outputShape[j];
            const std::int64_t last = axis.begin + axis.stride * (axis.count - 1);
            if (last < 0 || last >= inputShape[std::size_t(moved)]) return std::nullopt;
            sel.fixed[std::size_t(moved)] = -1;
        }
        sel.axes.push_back(axis);
    }
    if (!picksEverySource(sel, {}, outputShape, sources)) return std::nullopt;
    return sel;
}

namespace {

// One input axis's part of a subscript, Python style, shortest form.
std::string rangeText(std::int64_t begin, std::int64_t stride, std::int64_t count,
                      std::int64_t size)
{
    const std::int64_t last = begin + stride * (count - 1);
    const bool toEnd = stride > 0 ? last + stride >= size : last + stride < 0;
    const bool fromStart = stride > 0 ? begin == 0 : begin == size - 1;
    std::string t = fromStart ? "" : std::to_string(begin);
    t += ":";
    if (!toEnd) t += std::to_string(last + sign(stride));
    if (stride != 1) t += ":" + std::to_string(stride);
    return t;
}

} // namespace

std::string selectionText(const Selection& sel)
{
    const std::size_t n = sel.inputShape.size();
    const bool transposed = sel.transposed();
    // Items in subscript order: each run axis at its input position, removed axes as their
    // index, new axes where they fall between run axes (dropped when transposed: the transpose
    // text says where the axes go).
    std::vector<std::string> items;
    std::vector<int> order; // run axes in input order
    for (const int d : sel.runAxes())
        order.push_back(d);
    std::sort(order.begin(), order.end());
    std::map<int, const SelectionAxis*> byInput;
    for (const SelectionAxis& a : sel.axes)
        if (a.inputAxis >= 0) byInput[a.inputAxis] = &a;
    // New axes: in the untransposed case, the number of run axes before them tells where.
    std::vector<std::size_t> newAfterRuns; // per new axis: run axes before it in output order
    {
        std::size_t runs = 0;
        for (const SelectionAxis& a : sel.axes) {
            if (a.inputAxis >= 0)
                ++runs;
            else
                newAfterRuns.push_back(runs);
        }
    }
    std::size_t runsDone = 0;
    std::size_t nextNew = 0;
    auto flushNew = [&]() {
        while (!transposed && nextNew < newAfterRuns.size() && newAfterRuns[nextNew] <= runsDone) {
            items.push_back("None");
            ++nextNew;
        }
    };
    flushNew();
    for (std::size_t d = 0; d < n; ++d) {
        if (sel.fixed[d] >= 0) {
            items.push_back(std::to_string(sel.fixed[d]));
            continue;
        }
        const SelectionAxis& a = *byInput[int(d)];
        items.push_back(rangeText(a.begin, a.stride, a.count, sel.inputShape[d]));
        ++runsDone;
        flushNew();
    }
    flushNew();
    // Trailing full ranges say nothing.
    while (!items.empty() && items.back() == ":")
        items.pop_back();
    std::string t = "x[";
    for (std::size_t k = 0; k < items.size(); ++k)
        t += (k ? ", " : "") + items[k];
    t += items.empty() ? "...]" : "]";
    if (transposed && items.empty()) t = "x"; // "x.transpose(1, 0)"
    if (transposed) {
        std::vector<std::int64_t> perm;
        for (const int d : sel.runAxes())
            perm.push_back(std::find(order.begin(), order.end(), d) - order.begin());
        t += ".transpose(" + joinInts(perm) + ")";
        std::vector<std::int64_t> newPositions;
        for (std::size_t j = 0; j < sel.axes.size(); ++j)
            if (sel.axes[j].inputAxis < 0) newPositions.push_back(std::int64_t(j));
        if (!newPositions.empty())
            t += " with new axes at position" + std::string(newPositions.size() > 1 ? "s " : " ") +
                 joinInts(newPositions);
    }
    return t;
}

std::string selectionWords(const Selection& sel)
{
    std::vector<std::string> parts;
    bool partial = false;
    std::vector<std::int64_t> reversed;
    for (std::size_t d = 0; d < sel.fixed.size(); ++d)
        partial = partial || sel.fixed[d] >= 0;
    bool newAxes = false;
    for (const SelectionAxis& a : sel.axes) {
        if (a.inputAxis < 0) {
            newAxes = true;
            continue;
        }
        const std::int64_t size = sel.inputShape[std::size_t(a.inputAxis)];
        if (a.stride == -1 && a.begin == size - 1 && a.count == size)
            reversed.push_back(a.inputAxis);
        else if (!(a.stride == 1 && a.begin == 0 && a.count == size))
            partial = true;
    }
    if (partial)
        parts.push_back("a strided slice");
    else if (!reversed.empty())
        parts.push_back("a reverse of axis" + std::string(reversed.size() > 1 ? "es " : " ") +
                        joinInts(reversed));
    if (sel.transposed()) {
        const std::vector<int> r = sel.runAxes();
        std::vector<int> order(r.begin(), r.end());
        std::sort(order.begin(), order.end());
        std::vector<std::int64_t> perm;
        for (const int d : r)
            perm.push_back(std::find(order.begin(), order.end(), d) - order.begin());
        parts.push_back("a transpose (" + joinInts(perm) + ")");
    }
    if (newAxes && !partial) parts.push_back("new axes");
    if (parts.empty()) return "a copy of x";
    std::string t;
    for (std::size_t k = 0; k < parts.size(); ++k)
        t += (k ? ", then " : "") + parts[k];
    return t;
}

std::optional<GatherFit> fitGather(const Shape& inputShape, const Shape& outputShape,
                                   const std::vector<std::int64_t>& sources)
{
    if (sources.empty() || std::int64_t(sources.size()) != numElements(outputShape))
        return std::nullopt;
    for (const std::int64_t s : sources)
        if (s == kNoSource) return std::nullopt;
    if (fitSelection(inputShape, outputShape, sources)) return std::nullopt;
    GatherFit fit;
    Selection& sel = fit.base;
    sel.inputShape = inputShape;
    const std::vector<std::int64_t> base = unravelIndex(sources[0], inputShape);
    sel.fixed = base;
    const std::vector<std::int64_t> outStrides = rowMajorStrides(outputShape);
    std::vector<bool> used(inputShape.size(), false);
    // Per output axis: the input index at each of its positions (taken axes only).
    std::vector<std::vector<std::int64_t>> lists(outputShape.size());
    for (std::size_t j = 0; j < outputShape.size(); ++j) {
        SelectionAxis axis;
        if (outputShape[j] > 1) {
            // The one input axis this output axis moves along, and the index at each step.
            int moved = -1;
            std::vector<std::int64_t> at(static_cast<std::size_t>(outputShape[j]));
            std::vector<std::vector<std::int64_t>> coords(at.size());
            for (std::size_t k = 0; k < at.size(); ++k) {
                coords[k] = unravelIndex(sources[k * std::size_t(outStrides[j])], inputShape);
                for (std::size_t d = 0; d < inputShape.size(); ++d)
                    if (coords[k][d] != base[d]) {
                        if (moved >= 0 && moved != int(d)) return std::nullopt;
                        moved = int(d);
                    }
            }
            if (moved < 0 || used[std::size_t(moved)]) return std::nullopt;
            used[std::size_t(moved)] = true;
            for (std::size_t k = 0; k < at.size(); ++k)
                at[k] = coords[k][std::size_t(moved)];
            const std::int64_t step = at[1] - at[0];
            bool strided = step != 0;
            for (std::size_t k = 2; strided && k < at.size(); ++k)
                strided = at[k] - at[k - 1] == step;
            axis.inputAxis = moved;
            if (strided) {
                axis.begin = at[0];
                axis.stride = step;
                axis.count = outputShape[j];
            } else {
                axis.begin = 0;
                axis.stride = 1;
                axis.count = inputShape[std::size_t(moved)];
                lists[j] = at;
                fit.takes.push_back({int(j), at});
            }
            sel.fixed[std::size_t(moved)] = -1;
        }
        sel.axes.push_back(axis);
    }
    if (fit.takes.empty()) return std::nullopt;
    if (!picksEverySource(sel, lists, outputShape, sources)) return std::nullopt;
    return fit;
}

std::string gatherText(const GatherFit& gather)
{
    std::string t = selectionText(gather.base);
    if (t == "x[...]") t = "x"; // "x.take([2, 0, 1], axis=0)"
    for (const AxisTake& take : gather.takes)
        t +=
            ".take([" + joinInts(take.indices) + "], axis=" + std::to_string(take.outputAxis) + ")";
    return t;
}

std::string gatherWords(const GatherFit& gather)
{
    std::string t;
    const std::string base = selectionWords(gather.base);
    if (base != "a copy of x") t = base + ", then ";
    for (std::size_t k = 0; k < gather.takes.size(); ++k) {
        const AxisTake& take = gather.takes[k];
        t += (k ? ", then " : "") + std::string("a gather of indices [") + joinInts(take.indices) +
             "] along axis " + std::to_string(take.outputAxis);
    }
    return t;
}

std::string Diagnosis::actualSpec() const
{
    if (actualFit) return selectionText(*actualFit);
    if (actualGather) return gatherText(*actualGather);
    return "";
}

std::string_view diagnosisClassName(DiagnosisClass c)
{
    switch (c) {
    case DiagnosisClass::Equivalent: return "equivalent";
    case DiagnosisClass::BeginOffByOne: return "begin_off_by_one";
    case DiagnosisClass::NewAxisMoved: return "new_axis_moved";
    case DiagnosisClass::AxisMoved: return "axis_moved";
    case DiagnosisClass::SignFlipped: return "sign_flipped";
    case DiagnosisClass::StridesDropped: return "strides_dropped";
    case DiagnosisClass::EndReadAsLast: return "end_read_as_last";
    case DiagnosisClass::EndOffByOne: return "end_off_by_one";
    case DiagnosisClass::OtherSpec: return "other_spec";
    case DiagnosisClass::NoSimpleSpec: return "no_simple_spec";
    case DiagnosisClass::Unknown: break;
    }
    return "unknown";
}

namespace {

// The positions of the size-1 axes, and the shape without them.
std::vector<std::size_t> unitAxes(const Shape& s, Shape& rest)
{
    std::vector<std::size_t> u;
    rest.clear();
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (s[k] == 1)
            u.push_back(k);
        else
            rest.push_back(s[k]);
    }
    return u;
}

} // namespace

std::string elementValueText(const Tensor& t, std::int64_t i)
{
    if (t.dtype() == DType::String) return "\"" + t.data<std::string>()[i] + "\"";
    if (isFloat(t.dtype())) {
        std::ostringstream s;
        s << t.doubleAt(i);
        return s.str();
    }
    if (isComplex(t.dtype())) {
        std::ostringstream s;
        const std::complex<double> c = t.complexAt(i);
        s << "(" << c.real() << (std::signbit(c.imag()) ? "" : "+") << c.imag() << "j)";
        return s.str();
    }
    if (t.dtype() == DType::Bool) return t.intAt(i) ? "True" : "False";
    if (t.dtype() == DType::UInt64) return std::to_string(t.data<std::uint64_t>()[i]);
    return std::to_string(t.intAt(i));
}

namespace {

bool sameValue(const Tensor& a, std::int64_t i, const Tensor& b, std::int64_t j)
{
    const bool sa = a.dtype() == DType::String, sb = b.dtype() == DType::String;
    if (sa || sb) return sa && sb && a.data<std::string>()[i] == b.data<std::string>()[j];
    const auto same = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
    const std::complex<double> x = a.complexAt(i), y = b.complexAt(j);
    return same(x.real(), y.real()) && same(x.imag(), y.imag());
}

// Flat input index per value, if every value of `input` is distinct.
std::optional<std::vector<std::int64_t>> recoverSources(const Tensor& input, const Tensor& actual)
{
    std::vector<std::int64_t> out(std::size_t(actual.size()), kNoSource);
    if (input.dtype() == DType::String || actual.dtype() == DType::String) {
        if (input.dtype() != actual.dtype()) return std::nullopt;
        std::unordered_map<std::string, std::int64_t> where;
        for (std::int64_t i = 0; i < input.size(); ++i)
            if (!where.emplace(input.data<std::string>()[i], i).second) return std::nullopt;
        for (std::int64_t i = 0; i < actual.size(); ++i)
            if (auto it = where.find(actual.data<std::string>()[i]); it != where.end())
                out[std::size_t(i)] = it->second;
        return out;
    }
    if (isComplex(input.dtype()) || isComplex(actual.dtype())) {
        // Real and imaginary part: std::complex has no hash or order of its own.
        std::map<std::pair<double, double>, std::int64_t> where;
        for (std::int64_t i = 0; i < input.size(); ++i) {
            const std::complex<double> v = input.complexAt(i);
            if (std::isnan(v.real()) || std::isnan(v.imag()) ||
                !where.emplace(std::pair(v.real(), v.imag()), i).second)
                return std::nullopt;
        }
        for (std::int64_t i = 0; i < actual.size(); ++i) {
            const std::complex<double> v = actual.complexAt(i);
            if (auto it = where.find({v.real(), v.imag()}); it != where.end())
                out[std::size_t(i)] = it->second;
        }
        return out;
    }
    std::unordered_map<double, std::int64_t> where;
    for (std::int64_t i = 0; i < input.size(); ++i) {
        const double v = input.doubleAt(i);
        if (std::isnan(v) || !where.emplace(v, i).second) return std::nullopt;
    }
    for (std::int64_t i = 0; i < actual.size(); ++i)
        if (auto it = where.find(actual.doubleAt(i)); it != where.end())
            out[std::size_t(i)] = it->second;
    return out;
}

std::string lowerHigher(std::int64_t actual, std::int64_t expected)
{
    return actual < expected ? "lower" : "higher";
}

// A size-1 output axis is a new axis in a fitted selection; where the other selection runs over
// an input axis at that output position and this one holds that axis at one index, read it as a
// run of one element with the other's stride, so that both name the same axes.
void alignUnitAxes(Selection& x, const Selection& other)
{
    if (x.axes.size() != other.axes.size()) return;
    for (std::size_t j = 0; j < x.axes.size(); ++j) {
        const SelectionAxis& o = other.axes[j];
        if (x.axes[j].inputAxis >= 0 || o.inputAxis < 0) continue;
        const std::size_t dim = std::size_t(o.inputAxis);
        if (x.fixed[dim] < 0) continue;
        x.axes[j] = {o.inputAxis, x.fixed[dim], o.stride, 1};
        x.fixed[dim] = -1;
    }
}

// Names the difference between two fitted selections of the same input.
void classify(Diagnosis& d, Selection e, Selection a, const DiagnoseContext& ctx)
{
    alignUnitAxes(a, e);
    alignUnitAxes(e, a);
    d.expectedFit = e;
    d.actualFit = a;
    const std::string asked = ctx.expectedText.empty() ? selectionText(e) : ctx.expectedText;
    const std::string read = selectionText(a);
    const std::string both = "the runtime read " + read + "; you asked for " + asked;
    const bool rank1 = e.inputShape.size() == 1;
    auto onAxis = [&](int axis) { return rank1 ? "" : " on axis " + std::to_string(axis); };
    d.kind = DiagnosisClass::OtherSpec;
    d.sentence = "the runtime read " + read + ", " + selectionWords(a) + "; you asked for " + asked;
    std::vector<SelectionAxis> er, ar;
    for (const SelectionAxis& x : e.axes)
        if (x.inputAxis >= 0) er.push_back(x);
    for (const SelectionAxis& x : a.axes)
        if (x.inputAxis >= 0) ar.push_back(x);
    if (er.size() != ar.size()) return;
    // The same runs in another order: the axes were transposed.
    if (e.fixed == a.fixed && er != ar &&
        std::is_permutation(er.begin(), er.end(), ar.begin(), ar.end())) {
        std::vector<std::int64_t> order;
        for (const SelectionAxis& x : ar)
            order.push_back(std::find(er.begin(), er.end(), x) - er.begin());
        d.kind = DiagnosisClass::AxisMoved;
        d.sentence = "the axes were transposed: the runtime gave your axes in the order (" +
                     joinInts(order) + ")";
        return;
    }
    // Otherwise exactly one thing differs: one run, or one removed axis's index.
    std::vector<std::size_t> runDiffs;
    for (std::size_t k = 0; k < er.size(); ++k) {
        if (er[k].inputAxis != ar[k].inputAxis) return;
        if (!(er[k] == ar[k])) runDiffs.push_back(k);
    }
    std::vector<std::size_t> fixedDiffs;
    for (std::size_t k = 0; k < e.fixed.size(); ++k)
        if (e.fixed[k] != a.fixed[k]) fixedDiffs.push_back(k);
    if (runDiffs.size() + fixedDiffs.size() != 1) return;
    if (fixedDiffs.size() == 1) {
        const std::size_t k = fixedDiffs[0];
        if (std::abs(e.fixed[k] - a.fixed[k]) == 1) {
            d.kind = DiagnosisClass::BeginOffByOne;
            d.sentence = both + ": its index" + onAxis(int(k)) + " is one " +
                         lowerHigher(a.fixed[k], e.fixed[k]);
        }
        return;
    }
    const SelectionAxis& x = er[runDiffs[0]];
    const SelectionAxis& y = ar[runDiffs[0]];
    const std::int64_t size = e.inputShape[std::size_t(x.inputAxis)];
    if (y.stride == -x.stride) {
        d.kind = DiagnosisClass::SignFlipped;
        d.sentence = "the stride" + onAxis(x.inputAxis) + " was read as " +
                     std::to_string(y.stride) + ", not " + std::to_string(x.stride) +
                     ": its sign was flipped";
    } else if (std::abs(x.stride) > 1 && y.stride == sign(x.stride) && y.begin == x.begin) {
        d.kind = DiagnosisClass::StridesDropped;
        d.sentence = "strides were ignored on axis " + std::to_string(x.inputAxis);
    } else if (y.stride == x.stride && std::abs(y.begin - x.begin) == 1) {
        d.kind = DiagnosisClass::BeginOffByOne;
        d.sentence =
            both + ": its begin" + onAxis(x.inputAxis) + " is one " + lowerHigher(y.begin, x.begin);
    } else if (y.stride == x.stride && y.begin == x.begin && x.stride > 0 &&
               y.count == x.count - 1 && x.begin + x.stride * (x.count - 1) == size - 1) {
        d.kind = DiagnosisClass::EndReadAsLast;
        d.sentence = ctx.expectedEndIsMax
                         ? "the end INT_MAX was read as the last element" +
                               (rank1 ? std::string() : " of axis " + std::to_string(x.inputAxis))
                         : "the end was read as the last element" +
                               (rank1 ? std::string() : " of axis " + std::to_string(x.inputAxis));
    } else if (y.stride == x.stride && y.begin == x.begin && std::abs(y.count - x.count) == 1) {
        // A reversed axis's end that should reach past index 0 read as 0, and its kin: the run
        // starts right and stops one step early or late.
        d.kind = DiagnosisClass::EndOffByOne;
        d.sentence = both + ": its end" + onAxis(x.inputAxis) + " is one " +
                     lowerHigher(y.begin + y.stride * y.count, x.begin + x.stride * x.count) +
                     ", so it reads one element " + (y.count < x.count ? "fewer" : "more");
    }
}

// The actual element paired with each expected one (flat indices), or why none is: element for
// element with equal shapes; at the same coordinates with equal ranks (where the actual shape
// has them); by flat index when the shapes are equal without their size-1 axes.
std::vector<std::int64_t> pairElements(const Shape& expected, const Shape& actual,
                                       std::string& pairing, bool& paired)
{
    constexpr std::int64_t kUnpaired = -1;
    std::vector<std::int64_t> pair(std::size_t(numElements(expected)), kUnpaired);
    Shape er, ar;
    unitAxes(expected, er);
    unitAxes(actual, ar);
    if (expected == actual || er == ar) {
        for (std::size_t i = 0; i < pair.size(); ++i)
            pair[i] = std::int64_t(i);
        if (expected != actual) pairing = "by position with the size-1 axes left out";
        return pair;
    }
    if (expected.size() != actual.size()) {
        paired = false;
        pairing = "the elements cannot be paired by position: the outputs have ranks " +
                  std::to_string(expected.size()) + " and " + std::to_string(actual.size());
        return pair;
    }
    pairing = "at the positions both shapes have";
    Shape at(expected.size(), 0);
    for (std::size_t i = 0; i < pair.size(); ++i) {
        bool inside = true;
        std::int64_t flat = 0;
        for (std::size_t k = 0; k < at.size(); ++k) {
            inside = inside && at[k] < actual[k];
            flat = flat * actual[k] + at[k];
        }
        if (inside) pair[i] = flat;
        for (std::size_t k = at.size(); k-- > 0;) { // the next coordinates, row-major
            if (++at[k] < expected[k]) break;
            at[k] = 0;
        }
    }
    return pair;
}

void listDifferences(Diagnosis& d, const Tensor& expected,
                     const std::vector<std::int64_t>& expectedSources, const Tensor& actual,
                     const std::vector<std::int64_t>* sources, int maxDifferences)
{
    const std::vector<std::int64_t> pair =
        pairElements(expected.shape(), actual.shape(), d.pairing, d.paired);
    for (std::size_t i = 0; i < pair.size() && int(d.differences.size()) < maxDifferences; ++i) {
        const std::int64_t j = pair[i];
        if (j < 0 || sameValue(expected, std::int64_t(i), actual, j)) continue;
        ElementDifference diff;
        diff.position = std::int64_t(i);
        diff.expected = elementValueText(expected, std::int64_t(i));
        diff.actual = elementValueText(actual, j);
        diff.expectedSource = expectedSources[i];
        if (sources) diff.actualSource = (*sources)[std::size_t(j)];
        d.differences.push_back(diff);
    }
}

} // namespace

std::string shapeDifference(const Shape& expected, const Shape& actual)
{
    if (expected == actual) return "";
    Shape er, ar;
    const std::vector<std::size_t> eu = unitAxes(expected, er);
    const std::vector<std::size_t> au = unitAxes(actual, ar);
    if (er == ar) {
        // Find the single size-1 axis that was added, removed or moved.
        for (std::size_t p = 0; p < actual.size(); ++p)
            if (actual[p] == 1) {
                Shape s = actual;
                s.erase(s.begin() + std::ptrdiff_t(p));
                if (s == expected)
                    return "the actual output has an extra axis of size 1 at position " +
                           std::to_string(p);
            }
        for (std::size_t p = 0; p < expected.size(); ++p)
            if (expected[p] == 1) {
                Shape s = expected;
                s.erase(s.begin() + std::ptrdiff_t(p));
                if (s == actual)
                    return "the actual output lacks the axis of size 1 at position " +
                           std::to_string(p);
            }
        if (eu.size() == au.size()) {
            std::vector<std::size_t> onlyE, onlyA;
            std::set_difference(eu.begin(), eu.end(), au.begin(), au.end(),
                                std::back_inserter(onlyE));
            std::set_difference(au.begin(), au.end(), eu.begin(), eu.end(),
                                std::back_inserter(onlyA));
            if (onlyE.size() == 1 && onlyA.size() == 1)
                return "the actual output has its axis of size 1 at position " +
                       std::to_string(onlyA[0]) + ", not " + std::to_string(onlyE[0]);
        }
        return "the actual output's shape " + shapeTuple(actual) +
               " has other axes of size 1 than " + shapeTuple(expected);
    }
    if (std::is_permutation(expected.begin(), expected.end(), actual.begin(), actual.end()))
        return "the actual output's shape " + shapeTuple(actual) + " is the expected " +
               shapeTuple(expected) + " with its axes permuted";
    const std::int64_t ne = numElements(expected), na = numElements(actual);
    if (ne == na)
        return "the actual output has the same " + std::to_string(ne) +
               " elements in another shape: " + shapeTuple(actual) + ", not " +
               shapeTuple(expected);
    return "the actual output has shape " + shapeTuple(actual) + " (" + std::to_string(na) +
           " elements), not " + shapeTuple(expected) + " (" + std::to_string(ne) + ")";
}

bool readsEndAtMax(const OpPlan& plan, const Attrs& attrs)
{
    return readsEndAtMax(plan.decode ? &*plan.decode : nullptr, attrs);
}

bool readsEndAtMax(const StridedSliceDecode* decode, const Attrs& attrs)
{
    constexpr std::int64_t kIntMax = std::numeric_limits<std::int32_t>::max();
    if (decode) {
        const SparseSpec& s = decode->sparse;
        for (std::size_t k = 0; k < s.end.size(); ++k)
            if (s.end[k] >= kIntMax && !(s.endMask & (std::int64_t(1) << k))) return true;
    }
    if (const auto it = attrs.find("ends"); it != attrs.end() && it->second.isList())
        for (const Attr& v : it->second.toList())
            if (v.isInt() && v.toInt() >= kIntMax) return true;
    return false;
}

DiagnoseContext diagnoseContextFor(const OpDef& op, const Attrs& attrs,
                                   const StridedSliceDecode* decode)
{
    DiagnoseContext ctx;
    if (op.notation == Notation::Subscript)
        if (const auto it = attrs.find("expr"); it != attrs.end() && it->second.isString())
            ctx.expectedText = it->second.toString();
    ctx.expectedEndIsMax = readsEndAtMax(decode, attrs);
    return ctx;
}

Diagnosis diagnoseOutput(const Tensor& input, const Tensor& expected,
                         const std::vector<std::int64_t>& expectedSources, const Tensor& actual,
                         const DiagnoseContext& ctx)
{
    Diagnosis d;
    d.shapeNote = shapeDifference(expected.shape(), actual.shape());
    const bool sameShape = expected.shape() == actual.shape();
    const std::int64_t common = std::min(expected.size(), actual.size());
    for (std::int64_t i = 0; i < std::max(expected.size(), actual.size()); ++i) {
        const bool match = i < common && sameValue(expected, i, actual, i);
        if (match && sameShape)
            ++d.matching;
        else
            ++d.differing;
        if (!match && sameShape) d.differingPositions.push_back(i);
    }
    if (!sameShape) d.matching = 0, d.differing = actual.size();
    auto sources = recoverSources(input, actual);
    d.sourcesRecovered = sources.has_value();
    if (sources) d.actualSources = *sources;
    listDifferences(d, expected, expectedSources, actual, sources ? &*sources : nullptr,
                    ctx.maxDifferences);

    if (sources) {
        d.expectedFit = fitSelection(input.shape(), expected.shape(), expectedSources);
        d.actualFit = fitSelection(input.shape(), actual.shape(), *sources);
    }

    // Same values in the same order: equivalent, or the same elements with a size-1 axis elsewhere.
    bool sameFlat = expected.size() == actual.size();
    for (std::int64_t i = 0; sameFlat && i < expected.size(); ++i)
        sameFlat = sameValue(expected, i, actual, i);
    if (sameFlat && sameShape) {
        d.kind = DiagnosisClass::Equivalent;
        d.sentence = "the actual output is the expected one";
        return d;
    }
    if (sameFlat) {
        Shape er, ar;
        const std::vector<std::size_t> eu = unitAxes(expected.shape(), er);
        const std::vector<std::size_t> au = unitAxes(actual.shape(), ar);
        if (er == ar && eu.size() == au.size()) {
            std::vector<std::size_t> onlyE, onlyA;
            std::set_difference(eu.begin(), eu.end(), au.begin(), au.end(),
                                std::back_inserter(onlyE));
            std::set_difference(au.begin(), au.end(), eu.begin(), eu.end(),
                                std::back_inserter(onlyA));
            if (onlyE.size() == 1 && onlyA.size() == 1) {
                d.kind = DiagnosisClass::NewAxisMoved;
                d.sentence = "the new axis landed at position " + std::to_string(onlyA[0]) +
                             ", not " + std::to_string(onlyE[0]);
                return d;
            }
        }
    }
    if (!sources) {
        d.kind = DiagnosisClass::Unknown;
        d.sentence =
            (input.dtype() == DType::String) != (actual.dtype() == DType::String)
                ? "the actual output is " + std::string(dtypeName(actual.dtype())) + " and x is " +
                      std::string(dtypeName(input.dtype())) +
                      ", so where the actual elements come from is not known"
                : "the input's values repeat, so where the actual elements come from is not "
                  "known; fill the input with distinct values (arange) to find out";
        return d;
    }
    if (actual.size() == 0) {
        d.kind = DiagnosisClass::OtherSpec;
        d.sentence = "the actual output holds no elements";
        return d;
    }
    if (!d.actualFit) d.actualGather = fitGather(input.shape(), actual.shape(), *sources);
    const std::string asked = !ctx.expectedText.empty() ? ctx.expectedText
                              : d.expectedFit           ? selectionText(*d.expectedFit)
                                                        : std::string();
    if (d.actualGather) {
        d.kind = DiagnosisClass::OtherSpec;
        d.sentence = "the runtime read " + gatherText(*d.actualGather) + ", " +
                     gatherWords(*d.actualGather) +
                     (asked.empty() ? "" : "; you asked for " + asked);
        return d;
    }
    if (!d.actualFit) {
        d.kind = DiagnosisClass::NoSimpleSpec;
        std::string found;
        const std::size_t shown = std::min<std::size_t>(sources->size(), 8);
        for (std::size_t i = 0; i < shown; ++i)
            found += (i ? ", " : "") + ((*sources)[i] == kNoSource
                                            ? std::string("not in x")
                                            : sourceText((*sources)[i], input.shape()));
        d.sentence =
            "no simple spec reads what the actual output holds; it holds, in order: " + found +
            (sources->size() > shown ? ", ..." : "");
        return d;
    }
    if (!d.expectedFit) {
        d.kind = DiagnosisClass::OtherSpec;
        d.sentence = "the runtime read " + selectionText(*d.actualFit) + ", " +
                     selectionWords(*d.actualFit) +
                     (asked.empty() ? "" : "; you asked for " + asked);
        return d;
    }
    classify(d, *d.expectedFit, *d.actualFit, ctx);
    return d;
}

} // namespace ss
