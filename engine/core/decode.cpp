// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/decode.h"

#include "core/error.h"
#include "core/strings.h"

#include <algorithm>
#include <bitset>
#include <cctype>

namespace ss {

std::string maskBinary(std::int32_t mask, int digits)
{
    int width = std::clamp(digits, 1, kMaskBits);
    while (width < kMaskBits && (std::uint32_t(mask) >> width) != 0)
        ++width;
    return "0b" + std::bitset<kMaskBits>(std::uint32_t(mask))
                      .to_string()
                      .substr(std::size_t(kMaskBits - width));
}

Attrs attrsFromSparse(const SparseSpec& sparse)
{
    Attrs attrs{{"begin", Attr::ints(sparse.begin)},
                {"end", Attr::ints(sparse.end)},
                {"strides", Attr::ints(sparse.strides)}};
    const std::pair<const char*, std::int32_t> masks[] = {
        {"begin_mask", sparse.beginMask},
        {"end_mask", sparse.endMask},
        {"ellipsis_mask", sparse.ellipsisMask},
        {"new_axis_mask", sparse.newAxisMask},
        {"shrink_axis_mask", sparse.shrinkAxisMask}};
    for (const auto& [name, value] : masks)
        if (value != 0) attrs[name] = Attr(std::int64_t(value));
    return attrs;
}

namespace {

bool bit(std::int64_t mask, int i)
{
    return i < 63 && ((mask >> i) & 1) != 0;
}

// Marker values in StridedSliceDecode::finalDims beyond input dimensions.
constexpr int kShrinkMarker = -1000000;

} // namespace

std::string_view specKindName(SpecEntry::Kind kind)
{
    switch (kind) {
    case SpecEntry::Kind::Index: return "index";
    case SpecEntry::Kind::Slice: return "slice";
    case SpecEntry::Kind::NewAxis: return "new_axis";
    case SpecEntry::Kind::Ellipsis: return "ellipsis";
    }
    return "slice";
}

std::vector<SpecEntry> describeSparseSpec(const SparseSpec& s)
{
    std::vector<SpecEntry> entries;
    for (int i = 0; i < int(s.strides.size()); ++i) {
        SpecEntry e;
        // The priority TensorFlow applies when several bits are set on one entry.
        if (bit(s.ellipsisMask, i)) {
            e.kind = SpecEntry::Kind::Ellipsis;
        } else if (bit(s.newAxisMask, i)) {
            e.kind = SpecEntry::Kind::NewAxis;
        } else if (bit(s.shrinkAxisMask, i)) {
            e.kind = SpecEntry::Kind::Index;
            e.begin = s.begin[std::size_t(i)];
            e.end = s.end[std::size_t(i)];
            e.stride = s.strides[std::size_t(i)];
        } else {
            e.kind = SpecEntry::Kind::Slice;
            if (!bit(s.beginMask, i)) e.begin = s.begin[std::size_t(i)];
            if (!bit(s.endMask, i)) e.end = s.end[std::size_t(i)];
            e.stride = s.strides[std::size_t(i)];
        }
        entries.push_back(std::move(e));
    }
    return entries;
}

void checkSparseArgShapes(const Shape& begin, const Shape& end, const Shape& strides)
{
    const bool ok = begin.size() == 1 && end.size() == 1 && strides.size() == 1 &&
                    begin[0] == end[0] && begin[0] == strides[0] && begin[0] < kMaskBits;
    if (!ok)
        invalidArgument("Expected begin, end, and strides to be 1D equal size tensors, but got "
                        "shapes " +
                        shapeString(begin) + ", " + shapeString(end) + ", and " +
                        shapeString(strides) + " instead.");
}

namespace {

// decodeStridedSlice's stages, as TensorFlow's ValidateStridedSliceOp
// (tensorflow/core/util/strided_slice_op.cc) has them: check the arguments, find the ellipsis,
// build the dense spec (BuildDenseSpec), canonicalise each dimension, compute the shapes. Each
// appends its steps to the trace (none, and no notes, where `steps` is null: the words cost more
// than the work of a small slice) and throws TensorFlow's error where TensorFlow stops.

std::vector<int> entryList(int m)
{
    std::vector<int> all(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i)
        all[std::size_t(i)] = i;
    return all;
}

std::vector<int> dimList(int r)
{
    std::vector<int> all;
    for (int d = 0; d < r; ++d)
        all.push_back(d);
    return all;
}

// Stage 0: begin, end and strides are one entry each per spec entry, fewer than the masks'
// width, with at most one ellipsis bit.
void checkArguments(const SparseSpec& sparse, std::vector<Step>* steps)
{
    const int m = int(sparse.strides.size());
    const Shape argShape{std::int64_t(m)};
    if (sparse.begin.size() != std::size_t(m) || sparse.end.size() != std::size_t(m) ||
        m >= kMaskBits)
        checkSparseArgShapes({std::int64_t(sparse.begin.size())}, {std::int64_t(sparse.end.size())},
                             argShape);
    const std::uint32_t ellipsisBits = std::uint32_t(sparse.ellipsisMask);
    if ((ellipsisBits & (ellipsisBits - 1)) != 0) {
        if (steps)
            steps->push_back(
                {"Check the arguments",
                 "ellipsis_mask is " + num(sparse.ellipsisMask) + " (" +
                     maskBinary(sparse.ellipsisMask, kMaskBits) +
                     "): more than one bit is set, but a spec can hold only one ellipsis. "
                     "TensorFlow tests all " +
                     num(kMaskBits) + " bits here, even those past the " + num(m) +
                     (m == 1 ? " entry." : " entries."),
                 entryList(m)});
        invalidArgument("Multiple ellipses in slice spec not allowed");
    }
    if (!steps) return;
    std::string checks =
        num(m) + (m == 1 ? " entry" : " entries") + " in begin, end and strides (at most " +
        num(kMaskBits - 1) + " fit in the " + num(kMaskBits) + "-bit masks); ellipsis_mask " +
        num(sparse.ellipsisMask) + (sparse.ellipsisMask ? " has a single bit set." : " is 0.");
    const std::int32_t allMasks = sparse.beginMask | sparse.endMask | sparse.ellipsisMask |
                                  sparse.newAxisMask | sparse.shrinkAxisMask;
    if (m < kMaskBits - 1 && (std::uint32_t(allMasks) >> m) != 0)
        checks += " Quirk: some mask bits lie past the last entry; TensorFlow never reads them.";
    steps->push_back({"Check the arguments", checks, entryList(m)});
}

// Where the ellipsis is: the entry whose bit is set, or one implied after the last entry.
struct EllipsisPlace
{
    std::int64_t mask = 0;        ///< ellipsis_mask with the implied bit
    int sparseLength = 0;         ///< entries, counting an implied ellipsis
    int newAxesAfterEllipsis = 0; ///< they use no input dimension, so it covers more
};

// Stage 1: the sparse spec's bookkeeping (StridedSliceSparseSpec).
EllipsisPlace findEllipsis(const SparseSpec& sparse, std::vector<Step>* steps)
{
    const int m = int(sparse.strides.size());
    EllipsisPlace place;
    bool sawEllipsis = false;
    for (int i = 0; i < m; ++i) {
        if (sawEllipsis && bit(sparse.newAxisMask, i)) ++place.newAxesAfterEllipsis;
        if (bit(sparse.ellipsisMask, i)) sawEllipsis = true;
    }
    place.mask = std::uint32_t(sparse.ellipsisMask);
    place.sparseLength = m;
    if (!sawEllipsis) {
        place.mask |= std::int64_t(1) << m;
        place.sparseLength = m + 1;
        if (steps)
            steps->push_back(
                {"Implicit ellipsis",
                 "No entry is an ellipsis, so TensorFlow appends one after the last entry "
                 "(bit " +
                     num(m) + ", mask " + num(std::int64_t(1) << m) +
                     "): dimensions the spec does not mention are kept whole.",
                 {}});
        return place;
    }
    if (!steps) return place;
    int at = 0;
    while (!bit(sparse.ellipsisMask, at))
        ++at;
    const int after = place.newAxesAfterEllipsis;
    steps->push_back(
        {"Ellipsis",
         "Entry " + num(at) + " is the spec's ellipsis. " +
             (after == 0 ? std::string("No new axis follows it.")
                         : num(after) + " new ax" + (after == 1 ? "is follows" : "es follow") +
                               " it; new axes use no input dimension, so the "
                               "ellipsis covers that many more dimensions."),
         {at}});
    return place;
}

// Stage 2: sparse to dense, one entry per input dimension (BuildDenseSpec). Returns the final
// gather: per output dimension, the input dimension it comes from, -1 - entry for a new axis,
// or kShrinkMarker for an indexed (removed) dimension.
std::vector<int> buildDenseSpec(int r, const SparseSpec& sparse, const EllipsisPlace& ellipsis,
                                StridedSliceDecode& out, std::vector<Step>* steps)
{
    const int m = int(sparse.strides.size());
    DenseSpec& dense = out.dense;
    dense = DenseSpec{};
    dense.begin.assign(std::size_t(r), 0);
    dense.end.assign(std::size_t(r), 0);
    dense.strides.assign(std::size_t(r), 1);
    out.dims.assign(std::size_t(r), DimDecode{});
    std::vector<int> finalGather;
    std::string denseDetail;
    int full = 0;
    for (int i = 0; i < ellipsis.sparseLength; ++i) {
        if (bit(ellipsis.mask, i)) {
            const int next =
                std::min(r - (ellipsis.sparseLength - i) + 1 + ellipsis.newAxesAfterEllipsis, r);
            const int first = full;
            for (; full < next; ++full) {
                dense.beginMask |= std::int64_t(1) << full;
                dense.endMask |= std::int64_t(1) << full;
                out.dims[std::size_t(full)].specEntry = i < m ? i : -1;
                out.dims[std::size_t(full)].fromEllipsis = true;
                finalGather.push_back(full);
            }
            if (!steps) continue;
            const std::string who = i < m ? "Entry " + num(i) + " (...)" : "The implicit ellipsis";
            if (full > first)
                denseDetail += who + " covers input dimension" +
                               (full - first == 1 ? " " + num(first)
                                                  : "s " + num(first) + " to " + num(full - 1)) +
                               " with full ranges. ";
            else
                denseDetail += who + " covers no dimension. ";
        } else if (bit(sparse.newAxisMask, i)) {
            finalGather.push_back(-1 - i);
            if (!steps) continue;
            denseDetail += "Entry " + num(i) +
                           " is a new axis: a dimension of size 1 in the output, "
                           "no input dimension used. ";
            if (bit(sparse.shrinkAxisMask, i))
                denseDetail += "Quirk: its shrink bit is also set, and the new axis wins. ";
        } else {
            if (full == r) {
                if (steps) steps->push_back({"Sparse to dense", denseDetail, entryList(m)});
                invalidArgument("Index out of range using input dim " + num(full) +
                                "; input has only " + num(r) + " dims");
            }
            dense.begin[std::size_t(full)] = sparse.begin[std::size_t(i)];
            dense.end[std::size_t(full)] = sparse.end[std::size_t(i)];
            dense.strides[std::size_t(full)] = sparse.strides[std::size_t(i)];
            if (bit(sparse.beginMask, i)) dense.beginMask |= std::int64_t(1) << full;
            if (bit(sparse.endMask, i)) dense.endMask |= std::int64_t(1) << full;
            out.dims[std::size_t(full)].specEntry = i;
            const bool shrink = bit(sparse.shrinkAxisMask, i);
            if (shrink) dense.shrinkAxisMask |= std::int64_t(1) << full;
            finalGather.push_back(shrink ? kShrinkMarker : full);
            if (steps)
                denseDetail += "Entry " + num(i) + (shrink ? " indexes" : " slices") +
                               " input dimension " + num(full) + ". ";
            ++full;
        }
    }
    if (!steps) return finalGather;
    if (denseDetail.empty()) denseDetail = "The input is a scalar and the spec uses no dimension. ";
    denseDetail += "Dense masks: begin " + num(dense.beginMask) + ", end " + num(dense.endMask) +
                   ", shrink " + num(dense.shrinkAxisMask) + ".";
    Step s{"Sparse to dense", denseDetail, entryList(m)};
    s.inputDims = dimList(r);
    steps->push_back(std::move(s));
    return finalGather;
}

// One bound of a sliced dimension made canonical: masked, counted from the end, clamped into
// the range the stride can reach. Notes each rule that applied.
std::int64_t canonicalBound(std::int64_t x, bool masked, bool isBegin, DimDecode& dim, bool explain)
{
    const std::int64_t d = dim.size;
    const std::int64_t s = dim.stride;
    const std::int64_t lo = s > 0 ? 0 : -1;
    const std::int64_t hi = s > 0 ? d : d - 1;
    const char* which = isBegin ? "begin" : "end";
    if (masked) {
        const std::int64_t v = (s > 0) == isBegin ? lo : hi;
        if (!explain) return v;
        std::string why;
        if (s > 0)
            why = isBegin ? "the first index" : "the size, one past the last index";
        else
            why = isBegin ? "the last index, because the stride is negative"
                          : "one step past index 0 going down, so index 0 is read; "
                            "the stride is negative";
        dim.notes.push_back(std::string(which) + "_mask set: " + which + " becomes " + num(v) +
                            " (" + why + ")");
        return v;
    }
    std::int64_t fwd = x;
    if (x < 0) {
        fwd = d + x;
        if (explain)
            dim.notes.push_back(std::string(which) + " " + num(x) +
                                " is negative: counts from the end, " + num(d) + " + (" + num(x) +
                                ") = " + num(fwd));
    }
    const std::int64_t clamped = std::clamp(fwd, lo, hi);
    if (clamped != fwd && explain)
        dim.notes.push_back(std::string(which) + " " + num(fwd) + " is outside " +
                            listText({lo, hi}) + ", the valid range for a " +
                            (s > 0 ? "positive" : "negative") + " stride: clamped to " +
                            num(clamped));
    return clamped;
}

// The trace's words for a canonicalised dimension: the raw arguments, each rule that applied,
// and the elements it selects.
std::string dimensionDetail(const DimDecode& dim, const DenseSpec& dense, std::int64_t interval)
{
    const int i = dim.dim;
    const std::int64_t s = dim.stride;
    const bool beginMasked = bit(dense.beginMask, i);
    const bool endMasked = bit(dense.endMask, i);
    std::string detail =
        "Size " + num(dim.size) + ". Raw begin " +
        (beginMasked ? std::string("(masked)") : num(dense.begin[std::size_t(i)])) + ", end " +
        (endMasked && !dim.shrink ? std::string("(masked)") : num(dense.end[std::size_t(i)])) +
        ", stride " + num(s) + ".";
    for (const auto& n : dim.notes) {
        // Start each note as a sentence, unless it starts with a name such as begin_mask.
        const bool name = n.find('_') < n.find(' ');
        detail += " " + (name ? n : std::string(1, char(std::toupper(n[0]))) + n.substr(1)) + ".";
    }
    const std::int64_t b = dim.begin;
    const std::int64_t length = dim.length;
    detail += " Canonical begin " + num(b) + ", end " + num(dim.end) + ", stride " + num(s) + ": ";
    if (length == 0)
        return detail + (interval == 0 ? "begin equals end, so nothing is selected."
                                       : "end lies on the wrong side of begin for this stride, "
                                         "so nothing is selected.");
    detail += num(length) + (length == 1 ? " element" : " elements");
    if (length <= 6) {
        detail += " (";
        for (std::int64_t k = 0; k < length; ++k)
            detail += (k ? ", " : "") + num(b + k * s);
        detail += ")";
    } else {
        detail += " (" + num(b) + ", " + num(b + s) + ", ..., " + num(b + (length - 1) * s) + ")";
    }
    return detail + ".";
}

// Stage 3, for input dimension i: the canonical begin, end and length (the loop of
// ValidateStridedSliceOp), and whether the slice stays an identity or a simple slice.
void canonicaliseDimension(int i, std::int64_t d, StridedSliceDecode& out, std::vector<Step>* steps)
{
    const DenseSpec& dense = out.dense;
    DimDecode& dim = out.dims[std::size_t(i)];
    const std::int64_t s = dense.strides[std::size_t(i)];
    const bool shrink = bit(dense.shrinkAxisMask, i);
    std::int64_t b = dense.begin[std::size_t(i)];
    std::int64_t e = dense.end[std::size_t(i)];
    dim.dim = i;
    dim.size = d;
    dim.stride = s;
    dim.shrink = shrink;
    const bool explain = steps != nullptr;
    Step step;
    if (explain) {
        step = {"Dimension " + num(i), "", {}, {i}};
        if (dim.specEntry >= 0) step.specEntries.push_back(dim.specEntry);
    }
    auto fail = [&](ErrorCode code, const std::string& message) {
        if (explain) {
            step.detail = "Size " + num(d) + ", stride " + num(s) + ": " + message;
            steps->push_back(step);
        }
        throw OpError(code, message);
    };
    if (s == 0) fail(ErrorCode::InvalidArgument, "strides[" + num(i) + "] must be non-zero");
    if (shrink && s <= 0)
        fail(ErrorCode::InvalidArgument, "only stride 1 allowed on non-range indexing.");
    out.isSimpleSlice = out.isSimpleSlice && s == 1;
    if (shrink) {
        if (bit(dense.beginMask, i) && explain)
            dim.notes.push_back("quirk: the begin_mask bit is ignored for an index; the raw "
                                "begin " +
                                num(b) + " is used");
        const std::int64_t wrapped = b < 0 ? d + b : b;
        if (b < 0 && explain)
            dim.notes.push_back(strCat("index ", b, " is negative: counts from the end, ", d,
                                       " + (", b, ") = ", wrapped));
        // The protocol files an index outside its dimension under out_of_range.
        if (wrapped < 0 || wrapped >= d)
            fail(ErrorCode::OutOfRange,
                 "slice index " + num(wrapped) + " of dimension " + num(i) + " out of bounds.");
        if (s != 1 && explain)
            dim.notes.push_back("quirk: stride " + num(s) +
                                " is accepted for an index (any positive stride is)");
        b = wrapped;
        e = wrapped + 1;
        if (explain)
            dim.notes.push_back("index " + num(wrapped) +
                                " selects one element; the dimension is removed");
    } else {
        b = canonicalBound(b, bit(dense.beginMask, i), true, dim, explain);
        e = canonicalBound(e, bit(dense.endMask, i), false, dim, explain);
        if (dim.fromEllipsis && explain)
            dim.notes.insert(dim.notes.begin(), "filled by the ellipsis: the whole dimension");
    }
    dim.begin = b;
    dim.end = e;
    const bool takeAll = s == 1 && b == 0 && e == d;
    out.isIdentity = out.isIdentity && takeAll;
    out.sliceDim0 = out.sliceDim0 && ((i == 0 && s == 1) || takeAll);
    const std::int64_t interval = e - b;
    std::int64_t length = 0;
    if (interval != 0 && (interval < 0) == (s < 0))
        length = interval / s + (interval % s != 0 ? 1 : 0);
    dim.length = length;
    out.processingShape.push_back(length);
    if (!explain) return;
    step.detail = dimensionDetail(dim, dense, interval);
    steps->push_back(std::move(step));
}

// Stage 4: shapes. Shrunk dimensions vanish; new axes appear as size 1.
void computeShapes(int r, const std::vector<int>& finalGather, StridedSliceDecode& out,
                   std::vector<Step>* steps)
{
    out.finalShape.clear();
    out.finalDims.clear();
    int shrinks = 0;
    int newAxes = 0;
    for (int g : finalGather) {
        if (g == kShrinkMarker) {
            ++shrinks;
            continue;
        }
        if (g < 0) ++newAxes;
        out.finalShape.push_back(g >= 0 ? out.processingShape[std::size_t(g)] : 1);
        out.finalDims.push_back(g);
    }
    if (!steps) return;
    Step processing{"Processing shape",
                    shapeTuple(out.processingShape) +
                        ": the number of elements each input dimension selects (an index "
                        "selects 1).",
                    {}};
    processing.inputDims = dimList(r);
    steps->push_back(std::move(processing));

    std::string detail = shapeTuple(out.finalShape) + ": the processing shape with " +
                         num(shrinks) + " indexed dimension" + (shrinks == 1 ? "" : "s") +
                         " removed and " + num(newAxes) + " new ax" + (newAxes == 1 ? "is" : "es") +
                         " inserted";
    detail += out.isIdentity ? ". Every dimension is taken whole: the result is the input "
                               "itself, reshaped."
                             : ".";
    Step finalStep{"Final shape", detail, {}};
    finalStep.outputDims = dimList(int(out.finalShape.size()));
    steps->push_back(std::move(finalStep));
}

} // namespace

void decodeStridedSlice(const Shape& inputShape, const SparseSpec& sparse, StridedSliceDecode& out,
                        std::vector<Step>& steps, bool explain)
{
    const int r = int(inputShape.size());
    std::vector<Step>* words = explain ? &steps : nullptr;
    out.sparse = sparse;
    if (out.spec.empty()) out.spec = describeSparseSpec(sparse);
    checkArguments(sparse, words);
    const EllipsisPlace ellipsis = findEllipsis(sparse, words);
    const std::vector<int> finalGather = buildDenseSpec(r, sparse, ellipsis, out, words);
    out.isIdentity = out.isSimpleSlice = out.sliceDim0 = true;
    out.processingShape.clear();
    for (int i = 0; i < r; ++i)
        canonicaliseDimension(i, inputShape[std::size_t(i)], out, words);
    computeShapes(r, finalGather, out, words);
}

} // namespace ss
