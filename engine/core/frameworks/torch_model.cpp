// SPDX-License-Identifier: GPL-3.0-or-later
// PyTorch 1.13 (Debian 12's python3-torch) basic indexing, as torch/csrc/autograd/
// python_variable_indexing.cpp and ATen's TensorIndexing.h do it, checked against the real
// library by tests/differential/tst_framework_torch.cpp:
// - a lone integer, slice, None or ... takes a fast path; a 0-dim tensor refuses an index or a
//   slice there with its own messages;
// - a tuple first counts integers and slices ("too many indices for tensor of dimension N"), then
//   applies the items left to right on the result so far: an integer selects (the message names
//   the item's position in the subscript as "dimension"), a slice refuses a step of 0 ("slice step
//   cannot be zero", Python's) and any negative step ("step must be greater than zero"), None
//   unsqueezes, and every ellipsis skips (rank - indexed) dimensions, so two ellipses are
//   accepted;
// - a list shorter than 32 holding a list, None or ... is read as a tuple (NumPy's old
//   heuristic, treatSequenceAsTuple); any other list is one index tensor;
// - advanced indexing (lists and bools) as applySlicing records it and at::index reads it: a
//   list becomes an int64 or bool tensor recorded at the current dimension, which then moves on
//   by one even for a mask of several dimensions; a bool unsqueezes and records [0] or an empty
//   index; integers select first and take no part in the placement rule; at::index expands each
//   mask into nonzero() indices, checks its shape, broadcasts, moves the indexed dimensions to
//   the front unless they are adjacent, and checks every index it reads (none when the result
//   is empty);
// - slice bounds below -2^62 are taken for symbolic sizes (RuntimeError), before any other check
//   of the slice (also on a 0-dim tensor);
// - at::slice computes the length as (length + step - 1) / step and the stride as stride * step
//   in wrapping int64: a huge step gives an empty result where the length wraps to 0, and
//   as_strided refuses a stride below -2^62 (not a SymInt) or a negative one; a length that
//   wraps below 0 is not modelled;
// - a slice, None or bool that more than one ellipsis moves past the last dimension fails in
//   maybe_wrap_dim ("Dimension out of range"); an integer there reads a size past the end of the
//   sizes array (undefined behaviour), which is not modelled.
#include "core/frameworks/torch_model.h"

#include "core/error.h"
#include "core/frameworks/advanced_index.h"
#include "core/strings.h"

#include <algorithm>
#include <limits>
#include <map>

namespace ss {

using namespace frameworks;

namespace {

constexpr std::int64_t kSymbolicBelow = -(std::int64_t(1) << 62);
const char* const kSymbolicMessage =
    "Expected !is_symbolic() to be true, but got false.  (Could this error message be improved?  "
    "If so, please report an enhancement request to PyTorch.)";

struct Position
{
    int inputDim;            // -1: a new axis
    std::int64_t stride = 1; // the view's stride, as PyTorch computes it (wrapping)
};

std::string dimOutOfRange(int rank, int dim)
{
    // c10's maybe_wrap_dim: a 0-dim tensor takes dimensions -1 and 0.
    const int r = std::max(rank, 1);
    return "Dimension out of range (expected to be in range of [" + num(-r) + ", " + num(r - 1) +
           "], but got " + num(dim) + ")";
}

std::int64_t wrappingMul(std::int64_t a, std::int64_t b)
{
    return std::int64_t(std::uint64_t(a) * std::uint64_t(b));
}

// at::slice's arithmetic: wrap negative ends once, clamp to [0, size], end no less than start.
AxisPick torchSlice(std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
                    std::int64_t step, std::int64_t size)
{
    std::int64_t b = start.value_or(0);
    std::int64_t e = stop.value_or(std::numeric_limits<std::int64_t>::max());
    if (b < 0) b += size;
    if (e < 0) e += size;
    b = b < 0 ? 0 : (b >= size ? size : b);
    e = e < b ? b : (e >= size ? size : e);
    const std::int64_t len = e - b;
    // (len + step - 1) / step as the kernel computes it, wrapping past int64.
    const std::int64_t count = std::int64_t(std::uint64_t(len) + std::uint64_t(step) - 1) / step;
    return {b, step, count, false};
}

FrameworkOutcome planItems(const std::vector<SubscriptItem>& items, bool lone, const Tensor& input,
                           const Limits& limits, std::vector<Step> steps);
FrameworkOutcome indexOutcome(const Tensor& input, const Limits& limits,
                              const std::vector<AxisPick>& picks,
                              const std::vector<Position>& result,
                              const std::map<int, const SubscriptItem*>& recorded,
                              std::vector<Step> steps);

} // namespace

Framework TorchModel::id() const
{
    return Framework::PyTorch;
}

std::string_view TorchModel::title() const
{
    return "PyTorch 1.13";
}

FrameworkOutcome TorchModel::plan(const IndexSpec& spec, const Tensor& input,
                                  const Limits& limits) const
{
    const Framework fw = Framework::PyTorch;
    if (std::optional<FrameworkOutcome> early = planBeforeItems(*this, spec, input, limits))
        return std::move(*early);
    const Subscript& sub = *spec.subscript;
    const auto& items = sub.items;
    std::vector<Step> steps;
    std::vector<SubscriptItem> tupleItems;
    bool wrapped = false; // a lone list read as one index tensor, wrapped in a tuple
    if (sub.form == Subscript::Form::List) {
        // treatSequenceAsTuple: a sequence of fewer than 32 elements holding a sequence, a
        // slice, None or ... is a tuple; any other sequence is one index.
        bool listAsTuple = false;
        for (const SubscriptItem& it : items)
            listAsTuple |= it.kind == SubscriptItem::Kind::NewAxis ||
                           it.kind == SubscriptItem::Kind::Ellipsis ||
                           it.kind == SubscriptItem::Kind::IndexArray ||
                           (it.kind == SubscriptItem::Kind::Other && !it.text.empty() &&
                            (it.text.front() == '[' || it.text.front() == '('));
        listAsTuple &= items.size() < 32;
        if (listAsTuple) {
            tupleItems = items;
            steps.push_back({"A list read as a tuple",
                             "The list holds a list, None or ..., so PyTorch reads it as a tuple "
                             "(NumPy's old rule for lists; NumPy 1.23 and later read every list "
                             "as an index array).",
                             {}});
        } else {
            tupleItems = {*sub.wholeList};
            wrapped = true;
        }
    } else {
        tupleItems = items;
    }
    if (const std::string why = unreadableItemReason(tupleItems, "PyTorch"); !why.empty())
        return notModelledOutcome(fw, why, {});
    return planItems(tupleItems, sub.form == Subscript::Form::Single || wrapped, input, limits,
                     std::move(steps));
}

namespace {

/// PyTorch's applySlicing over one subscript's items, left to right on the result so far:
/// `result` holds the result's dimensions, `picks` what each input dimension keeps, `recorded`
/// the index tensors by result position. Each stage that can fail returns the outcome to give
/// instead, with the steps explained so far.
class TorchSlicing
{
public:
    TorchSlicing(const std::vector<SubscriptItem>& items, bool lone, const Tensor& input,
                 std::vector<Step> steps);

    std::optional<FrameworkOutcome> checkLoneItem() const;
    std::optional<FrameworkOutcome> countSpecifiedDims();
    std::optional<FrameworkOutcome> applyItems();
    FrameworkOutcome outcome(const Limits& limits);

private:
    std::optional<FrameworkOutcome> selectAt(const SubscriptItem& it, int item);
    std::optional<FrameworkOutcome> sliceAt(const SubscriptItem& it, int item);
    std::optional<FrameworkOutcome> newAxisAt(const SubscriptItem& it, int item);
    std::optional<FrameworkOutcome> boolAt(const SubscriptItem& it, int item);
    void recordIndexTensor(const SubscriptItem& it, int item);
    void skipEllipsis(int item);

    std::int64_t viewSize(const Position& p) const
    {
        return p.inputDim < 0 ? std::int64_t(1) : m_picks[std::size_t(p.inputDim)].count;
    }
    void unsqueezeAt(int pos);
    FrameworkOutcome error(std::string type, std::string message) const
    {
        return errorOutcome(Framework::PyTorch, std::move(type), std::move(message), m_steps);
    }
    FrameworkOutcome notModelled(std::string message) const
    {
        return notModelledOutcome(Framework::PyTorch, std::move(message), m_steps);
    }

    const std::vector<SubscriptItem>& m_items;
    const Tensor& m_input;
    const Shape& m_shape;
    const int m_rank;
    const bool m_single; ///< a lone item, which takes PyTorch's fast path
    std::vector<Step> m_steps;
    std::vector<AxisPick> m_picks;
    std::vector<Position> m_result;                 ///< the dimensions of the result so far
    std::map<int, const SubscriptItem*> m_recorded; ///< result position -> index tensor
    int m_pos = 0;  ///< the result's dimension the next item applies to
    int m_used = 0; ///< the dimensions the integers, slices and index tensors specify
};

TorchSlicing::TorchSlicing(const std::vector<SubscriptItem>& items, bool lone, const Tensor& input,
                           std::vector<Step> steps)
    : m_items(items), m_input(input), m_shape(input.shape()), m_rank(int(m_shape.size())),
      m_single(lone && items.size() == 1), m_steps(std::move(steps)), m_picks(wholePicks(m_shape))
{
    // Contiguous strides count a size-0 dimension as 1.
    std::int64_t stride = 1;
    for (int d = m_rank; d-- > 0;) {
        m_result.insert(m_result.begin(), Position{d, stride});
        stride = wrappingMul(stride, std::max<std::int64_t>(m_shape[std::size_t(d)], 1));
    }
}

/// unsqueeze(pos): the new axis's stride is size * stride of the dimension it goes before.
void TorchSlicing::unsqueezeAt(int pos)
{
    const std::int64_t stride =
        pos >= int(m_result.size())
            ? 1
            : wrappingMul(viewSize(m_result[std::size_t(pos)]), m_result[std::size_t(pos)].stride);
    m_result.insert(m_result.begin() + pos, Position{-1, stride});
}

/// The fast path of a lone integer or slice, which a 0-dim tensor refuses with its own messages.
std::optional<FrameworkOutcome> TorchSlicing::checkLoneItem() const
{
    if (m_single && m_items[0].kind == SubscriptItem::Kind::Integer) {
        const std::int64_t v = *m_items[0].start;
        if (m_rank == 0)
            return error("IndexError",
                         v == 0
                             ? "invalid index of a 0-dim tensor. Use `tensor.item()` in "
                               "Python or `tensor.item<T>()` in C++ to convert a 0-dim "
                               "tensor to a number"
                             : "index " + num(v) + " is out of bounds for dimension 0 with size 0");
    } else if (m_single && m_items[0].kind == SubscriptItem::Kind::Slice) {
        const std::int64_t step = m_items[0].step.value_or(1);
        if (step == 0) return error("ValueError", "slice step cannot be zero");
        if (step < 0) return error("ValueError", "step must be greater than zero");
        // The bounds become SymInts first: one below -2^62 fails before at::slice looks at the
        // tensor's rank.
        const SubscriptItem& it = m_items[0];
        if ((it.start && *it.start < kSymbolicBelow) || (it.stop && *it.stop < kSymbolicBelow))
            return error("RuntimeError", kSymbolicMessage);
        if (m_rank == 0) return error("IndexError", "slice() cannot be applied to a 0-dim tensor.");
    }
    return std::nullopt;
}

/// count_specified_dimensions: integers, slices and index tensors (a list counts once, even a
/// mask of several dimensions); None, ... and bools count nothing.
std::optional<FrameworkOutcome> TorchSlicing::countSpecifiedDims()
{
    for (const SubscriptItem& it : m_items)
        m_used += it.kind == SubscriptItem::Kind::Integer ||
                  it.kind == SubscriptItem::Kind::Slice ||
                  it.kind == SubscriptItem::Kind::IndexArray;
    if (!(m_single && (m_items[0].kind == SubscriptItem::Kind::Integer ||
                       m_items[0].kind == SubscriptItem::Kind::Slice)) &&
        m_used > m_rank)
        return error("IndexError", "too many indices for tensor of dimension " + num(m_rank));
    return std::nullopt;
}

std::optional<FrameworkOutcome> TorchSlicing::applyItems()
{
    for (std::size_t k = 0; k < m_items.size(); ++k) {
        const SubscriptItem& it = m_items[k];
        const int item = int(k);
        std::optional<FrameworkOutcome> failed;
        switch (it.kind) {
        case SubscriptItem::Kind::Integer: failed = selectAt(it, item); break;
        case SubscriptItem::Kind::Slice: failed = sliceAt(it, item); break;
        case SubscriptItem::Kind::NewAxis: failed = newAxisAt(it, item); break;
        case SubscriptItem::Kind::Bool: failed = boolAt(it, item); break;
        case SubscriptItem::Kind::IndexArray: recordIndexTensor(it, item); break;
        default: skipEllipsis(item);
        }
        if (failed) return failed;
    }
    return std::nullopt;
}

/// An integer selects: select(pos, v) removes the dimension.
std::optional<FrameworkOutcome> TorchSlicing::selectAt(const SubscriptItem& it, int item)
{
    const int pos = m_pos;
    if (pos >= int(m_result.size()))
        return notModelled("After expanding more than one ellipsis PyTorch "
                           "checks this integer against a size read past the "
                           "end of the sizes array (undefined behaviour); "
                           "SliceScope does not model what follows.");
    if (m_result[std::size_t(pos)].inputDim < 0) {
        // A new axis has one element.
        const std::int64_t v = *it.start;
        if (v < -1 || v >= 1)
            return error("IndexError", "index " + num(v) + " is out of bounds for dimension " +
                                           num(item) + " with size 1");
        m_result.erase(m_result.begin() + pos);
        m_steps.push_back(itemStep("Item " + num(item) + ": " + it.text,
                                   "select(" + num(pos) + ", " + num(v) +
                                       ") removes the new axis of size 1 there.",
                                   item, -1));
        return std::nullopt;
    }
    const int dim = m_result[std::size_t(pos)].inputDim;
    const std::int64_t size = m_shape[std::size_t(dim)];
    const std::int64_t v = *it.start;
    if (v < -size || v >= size)
        return error("IndexError", "index " + num(v) + " is out of bounds for dimension " +
                                       num(item) + " with size " + num(size));
    const std::int64_t at = v < 0 ? v + size : v;
    m_picks[std::size_t(dim)] = {at, 1, 1, true};
    m_result.erase(m_result.begin() + pos);
    m_steps.push_back(itemStep("Item " + num(item) + ": " + it.text,
                               "select(" + num(pos) + ", " + num(v) + ") takes element " + num(at) +
                                   " of dimension " + num(dim) + " and removes it.",
                               item, dim));
    return std::nullopt;
}

/// Checks and applies one slice at the current dimension of the result.
std::optional<FrameworkOutcome> TorchSlicing::sliceAt(const SubscriptItem& it, int item)
{
    const int pos = m_pos;
    const std::int64_t step = it.step.value_or(1);
    if (step == 0) return error("ValueError", "slice step cannot be zero");
    if (step < 0) return error("ValueError", "step must be greater than zero");
    if ((it.start && *it.start < kSymbolicBelow) || (it.stop && *it.stop < kSymbolicBelow))
        return error("RuntimeError", kSymbolicMessage);
    if (pos >= int(m_result.size())) {
        // The slice shortcut (start 0, step 1, stop equal to the size: return the tensor
        // as it is) reads the size past the end of the sizes array first; only a stop it
        // cannot plausibly equal (an omitted one, int64's maximum) is decided.
        if (it.start.value_or(0) == 0 && step == 1 && it.stop &&
            *it.stop != std::numeric_limits<std::int64_t>::max())
            return notModelled("After expanding more than one ellipsis PyTorch "
                               "compares this slice's stop with a size read past the "
                               "end of the sizes array; SliceScope does not model "
                               "what follows.");
        return error("IndexError", dimOutOfRange(int(m_result.size()), pos));
    }
    if (m_result[std::size_t(pos)].inputDim < 0)
        return notModelled("After expanding more than one ellipsis PyTorch "
                           "applies this slice to a new axis; SliceScope does not "
                           "model what follows.");
    const int dim = m_result[std::size_t(pos)].inputDim;
    const std::int64_t size = m_shape[std::size_t(dim)];
    const AxisPick p = torchSlice(it.start, it.stop, step, size);
    // as_strided takes the new sizes and strides: each must be a SymInt (not below -2^62),
    // then every stride non-negative.
    std::vector<std::int64_t> strides;
    for (const Position& q : m_result)
        strides.push_back(q.stride);
    strides[std::size_t(pos)] = wrappingMul(strides[std::size_t(pos)], step);
    for (std::int64_t v : strides)
        if (v < kSymbolicBelow)
            return error("RuntimeError",
                         "IntArrayRef contains an int that cannot be represented as a SymInt: " +
                             num(v));
    if (std::any_of(strides.begin(), strides.end(), [](std::int64_t v) { return v < 0; })) {
        std::string list;
        for (std::int64_t v : strides)
            list += (list.empty() ? "" : ", ") + num(v);
        return error("RuntimeError",
                     "as_strided: Negative strides are not supported at the moment, got "
                     "strides: [" +
                         list + "]");
    }
    if (p.count < 0)
        return notModelled("PyTorch 1.13 computes the slice length as (length + "
                           "step - 1) / step, which wraps to " +
                           num(p.count) + " for step " + num(step) +
                           "; what as_strided does then is not modelled.");
    m_result[std::size_t(pos)].stride = strides[std::size_t(pos)];
    m_picks[std::size_t(dim)] = p;
    m_steps.push_back(
        itemStep("Item " + num(item) + ": " + it.text,
                 "at::slice wraps negative ends once and clamps to [0, " + num(size) +
                     "]: " + num(p.count) + (p.count == 1 ? " element" : " elements") + " from " +
                     num(p.first) + " by " + num(step) + " of dimension " + num(dim) + ".",
                 item, dim));
    ++m_pos;
    return std::nullopt;
}

/// None unsqueezes.
std::optional<FrameworkOutcome> TorchSlicing::newAxisAt(const SubscriptItem&, int item)
{
    if (m_pos > int(m_result.size()))
        return error("IndexError", dimOutOfRange(int(m_result.size()) + 1, m_pos));
    unsqueezeAt(m_pos);
    ++m_pos;
    m_steps.push_back(itemStep("Item " + num(item) + ": None",
                               "unsqueeze(" + num(m_pos - 1) + ") inserts an axis of size 1.", item,
                               -1));
    return std::nullopt;
}

/// A bool unsqueezes and records [0] (True) or an empty index (False) there.
std::optional<FrameworkOutcome> TorchSlicing::boolAt(const SubscriptItem& it, int item)
{
    if (m_pos > int(m_result.size()))
        return error("IndexError", dimOutOfRange(int(m_result.size()) + 1, m_pos));
    unsqueezeAt(m_pos);
    m_recorded[m_pos] = &it;
    m_steps.push_back(itemStep("Item " + num(item) + ": " + it.text,
                               "unsqueeze(" + num(m_pos) +
                                   ") inserts an axis of size 1, indexed by " +
                                   (it.boolValue ? "[0] (True)" : "an empty index (False)") + ".",
                               item, -1));
    ++m_pos;
    return std::nullopt;
}

/// A list is an index tensor recorded at the current dimension, which then moves on by one
/// (even for a mask of several dimensions).
void TorchSlicing::recordIndexTensor(const SubscriptItem& it, int item)
{
    m_recorded[m_pos] = &it;
    m_steps.push_back(itemStep(
        "Item " + num(item) + ": " + it.text,
        std::string(it.arrayIsBool ? "A bool" : "An int64") + " index tensor of shape " +
            shapeTuple(it.arrayShape) + " is recorded for dimension " + num(m_pos) +
            " of the result so far; the next item applies to dimension " + num(m_pos + 1) + ".",
        item, -1));
    ++m_pos;
}

/// Every ellipsis skips (rank - specified) dimensions, so two ellipses are accepted.
void TorchSlicing::skipEllipsis(int item)
{
    const int skip = m_rank - m_used;
    m_pos += skip;
    m_steps.push_back(itemStep("Item " + num(item) + ": ...",
                               "The ellipsis skips " + num(skip) +
                                   " dimensions (the rank less the integers and slices; "
                                   "PyTorch applies this to every ellipsis, so it accepts "
                                   "more than one).",
                               item, -1));
}

/// The sliced view, or at::index on it when index tensors were recorded.
FrameworkOutcome TorchSlicing::outcome(const Limits& limits)
{
    if (!m_recorded.empty())
        return indexOutcome(m_input, limits, m_picks, m_result, m_recorded, std::move(m_steps));
    std::vector<int> outputDims;
    for (const Position& p : m_result)
        outputDims.push_back(p.inputDim);
    return resultOutcome(Framework::PyTorch, m_input, std::move(m_picks), std::move(outputDims),
                         std::move(m_steps), limits);
}

FrameworkOutcome planItems(const std::vector<SubscriptItem>& items, bool lone, const Tensor& input,
                           const Limits& limits, std::vector<Step> steps)
{
    TorchSlicing slicing(items, lone, input, std::move(steps));
    if (auto failed = slicing.checkLoneItem()) return std::move(*failed);
    if (auto failed = slicing.countSpecifiedDims()) return std::move(*failed);
    if (auto failed = slicing.applyItems()) return std::move(*failed);
    return slicing.outcome(limits);
}

/// at::index on the sliced tensor: `result` are its dimensions, `recorded` its indices. Each
/// stage that can fail returns the outcome to give instead, with the steps explained so far.
class AtIndex
{
public:
    AtIndex(const Tensor& input, const std::vector<AxisPick>& picks,
            const std::vector<Position>& result, std::vector<Step> steps);

    std::optional<FrameworkOutcome>
    expandTensors(const std::map<int, const SubscriptItem*>& recorded);
    std::optional<FrameworkOutcome> broadcast();
    std::optional<FrameworkOutcome> placeIndexedDims();
    std::optional<FrameworkOutcome> checkSizeZero() const;
    void layOut();
    std::optional<FrameworkOutcome> checkIndices(const Limits& limits) const;
    FrameworkOutcome outcome(const Limits& limits);

private:
    struct Expanded
    {
        IndexArray array;
        int position; // in the sliced tensor
    };

    std::optional<FrameworkOutcome> expandMask(const SubscriptItem& it, int slot);
    void expandToBlock();
    FrameworkOutcome error(std::string message) const
    {
        return errorOutcome(Framework::PyTorch, "IndexError", std::move(message), m_steps);
    }

    const Tensor& m_input;
    const Shape& m_shape;
    const std::vector<AxisPick>& m_picks;
    const std::vector<Position>& m_result;
    std::vector<Step> m_steps;
    const int m_r; ///< the sliced tensor's rank
    Shape m_sizes; ///< the sliced tensor's sizes
    std::vector<Expanded> m_defined;
    Shape m_block; ///< the indices' broadcast shape
    bool m_adjacent = true;
    bool m_emptyResult = false;
    GatherSpec m_gather;
};

AtIndex::AtIndex(const Tensor& input, const std::vector<AxisPick>& picks,
                 const std::vector<Position>& result, std::vector<Step> steps)
    : m_input(input), m_shape(input.shape()), m_picks(picks), m_result(result),
      m_steps(std::move(steps)), m_r(int(result.size()))
{
    for (const Position& p : result)
        m_sizes.push_back(p.inputDim < 0 ? 1 : picks[std::size_t(p.inputDim)].count);
}

/// expandTensors: a mask becomes one index per dimension it covers.
std::optional<FrameworkOutcome>
AtIndex::expandTensors(const std::map<int, const SubscriptItem*>& recorded)
{
    const int given = recorded.rbegin()->first + 1;
    if (given > m_r)
        return error("too many indices for tensor of dimension " + num(m_r) + " (got " +
                     num(given) + ")");
    int slot = 0;
    for (int p = 0; p < given; ++p, ++slot) {
        const auto found = recorded.find(p);
        if (found == recorded.end()) continue;
        const SubscriptItem& it = *found->second;
        if (it.kind == SubscriptItem::Kind::Bool) {
            IndexArray a;
            a.shape = {it.boolValue ? 1 : 0};
            a.values.assign(std::size_t(a.shape[0]), 0);
            a.label = it.text;
            m_defined.push_back({std::move(a), slot});
        } else if (!it.arrayIsBool) {
            IndexArray a;
            a.shape = it.arrayShape;
            a.values = it.arrayValues;
            a.label = "idx" + num(slot);
            m_defined.push_back({std::move(a), slot});
        } else {
            if (auto failed = expandMask(it, slot)) return failed;
            slot += int(it.arrayShape.size()) - 1;
        }
    }
    return std::nullopt;
}

/// A mask must fit the dimensions it covers; it becomes its nonzero() indices.
std::optional<FrameworkOutcome> AtIndex::expandMask(const SubscriptItem& it, int slot)
{
    const int k = int(it.arrayShape.size());
    for (int j = 0; j < k; ++j) {
        const int src = slot + j;
        if (src >= m_r) return error(dimOutOfRange(m_r, src));
        if (it.arrayShape[std::size_t(j)] != m_sizes[std::size_t(src)])
            return error("The shape of the mask " + listText(it.arrayShape) + " at index " +
                         num(j) + " does not match the shape of the indexed tensor " +
                         listText(m_sizes) + " at index " + num(src));
    }
    const auto nz = nonzeroIndices(it.arrayShape, it.arrayValues);
    for (int j = 0; j < k; ++j) {
        IndexArray a;
        a.shape = {std::int64_t(nz[std::size_t(j)].size())};
        a.values = nz[std::size_t(j)];
        a.label = "nonzero(mask)[" + num(j) + "]";
        m_defined.push_back({std::move(a), slot + j});
    }
    return std::nullopt;
}

std::optional<FrameworkOutcome> AtIndex::broadcast()
{
    std::vector<Shape> shapes;
    std::string shapesText;
    for (const Expanded& e : m_defined) {
        shapes.push_back(e.array.shape);
        shapesText += (shapesText.empty() ? "" : ", ") + listText(e.array.shape);
    }
    const std::optional<Shape> block = broadcastShapes(shapes);
    if (!block)
        return error("shape mismatch: indexing tensors could not be broadcast together with "
                     "shapes " +
                     shapesText);
    m_block = *block;
    return std::nullopt;
}

/// Adjacent indexed dimensions stay in place; otherwise they go to the front.
std::optional<FrameworkOutcome> AtIndex::placeIndexedDims()
{
    for (std::size_t k = 1; k < m_defined.size(); ++k)
        m_adjacent &= m_defined[k].position == m_defined[k - 1].position + 1;
    // A mask of several dimensions moves later indices past the last dimension (it advanced
    // the position by one): in place, AdvancedIndex asks for that dimension's size and fails;
    // moved to the front, transposeToFront walks only the tensor's dimensions and drops them
    // (their broadcast shape stays).
    if (m_adjacent) {
        for (const Expanded& e : m_defined)
            if (e.position >= m_r) return error(dimOutOfRange(m_r, e.position));
        return std::nullopt;
    }
    std::vector<Expanded> kept;
    for (Expanded& e : m_defined)
        if (e.position < m_r) kept.push_back(std::move(e));
    if (kept.size() != m_defined.size())
        m_steps.push_back({"Indices past the last dimension",
                           "transposeToFront walks the tensor's " + num(m_r) +
                               " dimensions only, so the indices recorded past them are "
                               "dropped; the broadcast shape they helped make stays.",
                           {}});
    m_defined = std::move(kept);
    if (m_defined.empty())
        return notModelledOutcome(Framework::PyTorch,
                                  "Every index lies past the last dimension; SliceScope "
                                  "does not model what at::index does then.",
                                  m_steps);
    expandToBlock();
    return std::nullopt;
}

/// The dropped indices were already expanded to the broadcast shape: so are those kept.
void AtIndex::expandToBlock()
{
    for (Expanded& e : m_defined) {
        if (e.array.shape == m_block) continue;
        IndexArray full;
        full.shape = m_block;
        full.dim = e.array.dim;
        full.label = e.array.label;
        std::vector<std::int64_t> c(m_block.size(), 0);
        for (std::int64_t b = 0, n = numElements(m_block); b < n; ++b) {
            full.values.push_back(e.array.values[std::size_t(arrayOffset(e.array, c))]);
            nextCoord(c, m_block);
        }
        e.array = std::move(full);
    }
}

/// An indexed dimension of size 0 can take no index at all.
std::optional<FrameworkOutcome> AtIndex::checkSizeZero() const
{
    if (numElements(m_block) > 0)
        for (const Expanded& e : m_defined)
            if (m_sizes[std::size_t(e.position)] == 0)
                return error("index is out of bounds for dimension with size 0");
    return std::nullopt;
}

/// The result's dimensions: the index block in place or in front, then the others in order.
void AtIndex::layOut()
{
    m_gather.picks = m_picks;
    std::vector<bool> indexed(std::size_t(m_r), false);
    for (const Expanded& e : m_defined)
        indexed[std::size_t(e.position)] = true;
    m_emptyResult = numElements(m_block) == 0;
    for (int p = 0; p < m_r; ++p) {
        if (m_adjacent && p == m_defined.front().position) m_gather.layout.push_back(kBlock);
        if (indexed[std::size_t(p)]) continue;
        m_gather.layout.push_back(m_result[std::size_t(p)].inputDim);
        m_emptyResult |= m_sizes[std::size_t(p)] == 0;
    }
    if (!m_adjacent) m_gather.layout.insert(m_gather.layout.begin(), kBlock);
}

/// The index kernel checks what it reads, in the result's order, each index in turn; the
/// message numbers the index among the indexed dimensions.
std::optional<FrameworkOutcome> AtIndex::checkIndices(const Limits& limits) const
{
    // The walk below visits every index position: a result over the limits is refused first
    // (the index dimensions are part of the result, so they alone must fit).
    if (!m_emptyResult) limits.check(m_block, m_input.dtype(), "the output");
    std::vector<std::int64_t> coord(m_block.size(), 0);
    const std::int64_t positions = m_emptyResult ? 0 : numElements(m_block);
    for (std::int64_t b = 0; b < positions; ++b) {
        for (std::size_t j = 0; j < m_defined.size(); ++j) {
            const IndexArray& a = m_defined[j].array;
            const std::int64_t v = a.values[std::size_t(arrayOffset(a, coord))];
            const std::int64_t size = m_sizes[std::size_t(m_defined[j].position)];
            if (v < -size || v >= size)
                return error("index " + num(v) + " is out of bounds for dimension " +
                             num(std::int64_t(j)) + " with size " + num(size));
        }
        nextCoord(coord, m_block);
    }
    return std::nullopt;
}

/// The gather: each index wrapped and folded into the slice of the dimension it reads.
FrameworkOutcome AtIndex::outcome(const Limits& limits)
{
    for (Expanded& e : m_defined) {
        const int inputDim = m_result[std::size_t(e.position)].inputDim;
        const std::int64_t size = m_sizes[std::size_t(e.position)];
        for (std::int64_t& v : e.array.values) {
            if (m_emptyResult)
                v = 0; // never read
            else if (v < 0)
                v += size;
        }
        // An unsqueezed axis has one element: reading it reads no input dimension.
        e.array.dim = inputDim;
        m_gather.arrays.push_back(std::move(e.array));
    }
    // An index reads the sliced dimension: element v of a slice is first + v * step of the
    // input, so the slice folds into the index values and the dimension's pick is the whole.
    for (IndexArray& a : m_gather.arrays) {
        if (a.dim < 0) continue;
        AxisPick& p = m_gather.picks[std::size_t(a.dim)];
        if (!m_emptyResult)
            for (std::int64_t& v : a.values)
                v = p.first + v * (p.count > 1 ? p.step : 1);
        p = {0, 1, m_shape[std::size_t(a.dim)], false};
    }
    return gatherOutcome(Framework::PyTorch, m_input, m_gather,
                         m_adjacent ? "The indexed dimensions are adjacent, so the index "
                                      "dimensions replace them in place (integers were applied "
                                      "first with select and do not count)."
                                    : "The indexed dimensions are not adjacent (a slice, None "
                                      "or ... stands between them), so at::index moves them to "
                                      "the front.",
                         std::move(m_steps), limits);
}

FrameworkOutcome indexOutcome(const Tensor& input, const Limits& limits,
                              const std::vector<AxisPick>& picks,
                              const std::vector<Position>& result,
                              const std::map<int, const SubscriptItem*>& recorded,
                              std::vector<Step> steps)
{
    AtIndex index(input, picks, result, std::move(steps));
    if (auto failed = index.expandTensors(recorded)) return std::move(*failed);
    if (auto failed = index.broadcast()) return std::move(*failed);
    if (auto failed = index.placeIndexedDims()) return std::move(*failed);
    if (auto failed = index.checkSizeZero()) return std::move(*failed);
    index.layOut();
    if (auto failed = index.checkIndices(limits)) return std::move(*failed);
    return index.outcome(limits);
}

} // namespace

std::string TorchModel::code(const IndexSpec& spec, const std::optional<Shape>&) const
{
    // PyTorch refuses negative steps, so a reversed range is written as a flip of the input
    // followed by a forward slice: after flipping, index i of a dimension is index -i - 1 of
    // the original, for any size. Bounds are held to +-2^62, beyond which PyTorch 1.13 takes
    // values for symbolic sizes, and steps to 2^31, beyond which its stride arithmetic
    // overflows; no dimension the engine holds has 2^31 elements, so the meaning is unchanged.
    if (!spec.subscript)
        invalidArgument("no Python subscript expresses these strided_slice arguments: " +
                        spec.noSubscriptReason);
    const Subscript& sub = *spec.subscript;
    auto held = [](std::int64_t v) {
        constexpr std::int64_t lim = (std::int64_t(1) << 62) - 1; // so that -lim - 1 >= -2^62
        return v < -lim ? -lim : (v > lim ? lim : v);
    };
    std::vector<std::string> parts;
    std::vector<std::string> flips;
    bool anyNegative = false;
    for (const SubscriptItem& it : sub.items)
        anyNegative |= it.kind == SubscriptItem::Kind::Slice && it.step.value_or(1) < 0;
    if (anyNegative && hasArrayItems(sub.items))
        invalidArgument("no flip rewrite for a negative step beside index arrays: PyTorch "
                        "refuses the step, and which dimension a flip must name depends on how "
                        "PyTorch places the index arrays");
    if (anyNegative && ellipsisCount(sub.items) > 1)
        invalidArgument("no flip rewrite for a subscript with two ellipses: NumPy and TensorFlow "
                        "refuse it, and PyTorch refuses its negative steps");
    // Dimension numbers: items before the ellipsis count from 0, items after it from the end.
    std::vector<int> dimOf(sub.items.size(), 0);
    {
        int pos = 0;
        bool seen = false;
        for (std::size_t k = 0; k < sub.items.size(); ++k) {
            const auto kind = sub.items[k].kind;
            if (kind == SubscriptItem::Kind::Ellipsis) seen = true;
            if (!seen &&
                (kind == SubscriptItem::Kind::Integer || kind == SubscriptItem::Kind::Slice))
                dimOf[k] = pos++;
        }
        int neg = -1;
        for (std::size_t k = sub.items.size(); seen && k-- > 0;) {
            const auto kind = sub.items[k].kind;
            if (kind == SubscriptItem::Kind::Ellipsis) break;
            if (kind == SubscriptItem::Kind::Integer || kind == SubscriptItem::Kind::Slice)
                dimOf[k] = neg--;
        }
    }
    for (std::size_t k = 0; k < sub.items.size(); ++k) {
        const SubscriptItem& it = sub.items[k];
        if (it.kind == SubscriptItem::Kind::Slice && it.step.value_or(1) < 0) {
            const std::int64_t step = *it.step;
            // -v - 1 without overflow: v is held to +-2^62 first.
            std::string t = (it.start ? std::to_string(-held(*it.start) - 1) : "") + ":" +
                            (it.stop ? std::to_string(-held(*it.stop) - 1) : "");
            const std::uint64_t mag = 0 - std::uint64_t(step);
            if (mag != 1)
                t += ":" +
                     std::to_string(mag > (std::uint64_t(1) << 31) ? std::uint64_t(1) << 31 : mag);
            parts.push_back(t);
            flips.push_back(std::to_string(dimOf[k]));
        } else if (it.kind == SubscriptItem::Kind::Slice) {
            std::string t = (it.start ? std::to_string(held(*it.start)) : "") + ":" +
                            (it.stop ? std::to_string(held(*it.stop)) : "");
            if (it.step) t += ":" + std::to_string(std::min(*it.step, std::int64_t(1) << 31));
            parts.push_back(t);
        } else {
            parts.push_back(itemText(it));
        }
    }
    std::string base = "x";
    if (!flips.empty()) {
        base = "torch.flip(x, dims=[";
        for (std::size_t k = 0; k < flips.size(); ++k)
            base += (k ? ", " : "") + flips[k];
        base += "])";
    }
    std::string text;
    if (sub.form == Subscript::Form::List) {
        text = base + "[[";
        for (std::size_t k = 0; k < parts.size(); ++k)
            text += (k ? ", " : "") + parts[k];
        text += "]]";
    } else if (parts.empty()) {
        text = base + "[()]";
    } else {
        text = base + "[";
        for (std::size_t k = 0; k < parts.size(); ++k)
            text += (k ? ", " : "") + parts[k];
        if (sub.form == Subscript::Form::Tuple && parts.size() == 1) text += ",";
        text += "]";
    }
    std::string out = "import torch\n\n";
    if (!flips.empty())
        out += "# PyTorch refuses negative steps: flip those dimensions, then slice forward.\n";
    return out + text + "\n";
}

} // namespace ss
