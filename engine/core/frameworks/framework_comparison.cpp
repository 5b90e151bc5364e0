// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/frameworks/framework_comparison.h"

#include "core/plan.h"
#include "core/strings.h"

#include <variant>

namespace ss {

namespace {

// A piece reduced to what decides the elements it reads, in order: size-1 dimensions dropped
// and dimensions that walk on from each other merged, so equal forms read equal elements.
struct CanonicalPiece
{
    bool empty = false;
    std::int64_t offset = 0;
    std::vector<std::int64_t> extents, strides;
    bool operator==(const CanonicalPiece&) const = default;
};

CanonicalPiece canonical(const AffinePiece& p)
{
    CanonicalPiece c;
    for (std::int64_t e : p.extents)
        c.empty |= e == 0;
    if (c.empty) return c;
    c.offset = p.inOffset;
    for (std::size_t k = 0; k < p.extents.size(); ++k) {
        if (p.extents[k] == 1) continue;
        if (!c.extents.empty() && c.strides.back() == p.inStrides[k] * p.extents[k]) {
            c.extents.back() *= p.extents[k];
            c.strides.back() = p.inStrides[k];
            continue;
        }
        c.extents.push_back(p.extents[k]);
        c.strides.push_back(p.inStrides[k]);
    }
    return c;
}

// The source element of every result element, in order, for a model's one-piece plan: an affine
// piece over the whole result (basic indexing) or one source per row of one element (advanced).
std::vector<std::int64_t> elementSources(const OutputPlan& p)
{
    std::vector<std::int64_t> out;
    if (const auto* rows = std::get_if<RowsPiece>(&p.pieces[0])) {
        for (std::int64_t r : rows->rows)
            out.push_back(sourceIndex(r));
        return out;
    }
    const auto& a = std::get<AffinePiece>(p.pieces[0]);
    const std::int64_t n = numElements(a.extents);
    std::vector<std::int64_t> at(a.extents.size(), 0);
    for (std::int64_t e = 0; e < n; ++e) {
        std::int64_t src = a.inOffset;
        for (std::size_t k = 0; k < at.size(); ++k)
            src += at[k] * a.inStrides[k];
        out.push_back(src);
        for (std::size_t k = at.size(); k-- > 0;) {
            if (++at[k] < a.extents[k]) break;
            at[k] = 0;
        }
    }
    return out;
}

bool sameResult(const FrameworkOutcome& a, const FrameworkOutcome& b)
{
    const OutputPlan& x = a.plan.outputs[0];
    const OutputPlan& y = b.plan.outputs[0];
    if (x.shape != y.shape || x.dtype != y.dtype || x.pieces.size() != 1 || y.pieces.size() != 1)
        return false;
    const auto* ax = std::get_if<AffinePiece>(&x.pieces[0]);
    const auto* ay = std::get_if<AffinePiece>(&y.pieces[0]);
    if (ax && ay) return canonical(*ax) == canonical(*ay);
    // An advanced index may read what a basic one reads (x[[0, 1, 2]] and x[:3]): compare the
    // sources element by element.
    return elementSources(x) == elementSources(y);
}

std::string pickText(const AxisPick& p)
{
    if (p.count == 0) return "nothing";
    if (p.count == 1) return "element " + num(p.first);
    return num(p.count) + " elements from " + num(p.first) + " by " + num(p.step);
}

std::string reason(const std::string& who, const FrameworkOutcome& o, const FrameworkOutcome& tf)
{
    using K = FrameworkOutcome::Kind;
    if (o.kind == K::NotModelled) return who + ": " + o.message;
    if (o.kind == K::Error && tf.kind == K::Result)
        return who + " raises " + o.errorType + " (" + o.message + "); TensorFlow returns " +
               outcomeSummary(tf) + ".";
    if (o.kind == K::Result && tf.kind != K::Result)
        return who + " returns " + outcomeSummary(o) + " where TensorFlow " +
               (tf.kind == K::Error ? "raises " + tf.errorType + " (" + tf.message + ")"
                                    : "is not modelled") +
               ".";
    // Both results: name the first input dimension read differently.
    for (std::size_t k = 0; k < o.picks.size() && k < tf.picks.size(); ++k) {
        const AxisPick& a = o.picks[k];
        const AxisPick& b = tf.picks[k];
        const bool same = a.count == b.count && a.removed == b.removed &&
                          (a.count == 0 || a.first == b.first) &&
                          (a.count <= 1 || a.step == b.step);
        if (!same)
            return who + " reads " + pickText(a) + " of dimension " + num(std::int64_t(k)) +
                   "; TensorFlow reads " + pickText(b) + ".";
    }
    return who + " gives shape " + shapeTuple(o.plan.outputs[0].shape) + "; TensorFlow " +
           shapeTuple(tf.plan.outputs[0].shape) + ".";
}

} // namespace

std::string outcomeSummary(const FrameworkOutcome& o)
{
    switch (o.kind) {
    case FrameworkOutcome::Kind::Result: return "shape " + shapeTuple(o.plan.outputs[0].shape);
    case FrameworkOutcome::Kind::Error: return o.errorType + ": " + o.message;
    default: return "not modelled: " + o.message;
    }
}

FrameworkComparison compareFrameworks(const IndexSpec& spec, const Tensor& input,
                                      const Limits& limits)
{
    FrameworkComparison c;
    for (const FrameworkModel* m : frameworkModels())
        c.outcomes.push_back(m->plan(spec, input, limits));
    const auto n = c.outcomes.size();
    c.resultIndex.assign(n, -1);
    for (std::size_t i = 0; i < n; ++i) {
        if (c.outcomes[i].kind != FrameworkOutcome::Kind::Result) continue;
        for (std::size_t r = 0; r < c.distinct.size(); ++r)
            if (sameResult(c.outcomes[i], c.outcomes[std::size_t(c.distinct[r])])) {
                c.resultIndex[i] = int(r);
                break;
            }
        if (c.resultIndex[i] < 0) {
            c.resultIndex[i] = int(c.distinct.size());
            c.distinct.push_back(int(i));
        }
    }
    const std::size_t tf = std::size_t(Framework::TensorFlow);
    const FrameworkOutcome& ref = c.outcomes[tf];
    for (std::size_t i = 0; i < n; ++i) {
        const FrameworkOutcome& o = c.outcomes[i];
        bool differs = false;
        if (o.kind == FrameworkOutcome::Kind::NotModelled)
            differs = i != tf;
        else if (o.kind != ref.kind)
            differs = true;
        else if (o.kind == FrameworkOutcome::Kind::Result)
            differs = c.resultIndex[i] != c.resultIndex[tf];
        c.differs.push_back(differs);
        c.reasons.push_back(
            differs ? reason(std::string(frameworkModel(o.framework).title()), o, ref) : "");
    }
    return c;
}

} // namespace ss
