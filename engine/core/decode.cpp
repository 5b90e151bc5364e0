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
    int width = std::clamp(digits, 1, 32);
    while (width < 32 && (std::uint32_t(mask) >> width) != 0)
        ++width;
    return "0b" + std::bitset<32>(std::uint32_t(mask)).to_string().substr(std::size_t(32 - width));
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
                    begin[0] == end[0] && begin[0] == strides[0] && begin[0] < 32;
    if (!ok)
        invalidArgument("Expected begin, end, and strides to be 1D equal size tensors, but got "
                        "shapes " +
                        shapeString(begin) + ", " + shapeString(end) + ", and " +
                        shapeString(strides) + " instead.");
}

void decodeStridedSlice(const Shape& inputShape, const SparseSpec& sparse, StridedSliceDecode& out,
                        std::vector<Step>& steps)
{
    const int r = int(inputShape.size());
    const int m = int(sparse.strides.size());
    out.sparse = sparse;
    if (out.spec.empty()) out.spec = describeSparseSpec(sparse);
    std::vector<int> allEntries(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i)
        allEntries[std::size_t(i)] = i;

    // Stage 0: argument checks. Masks are 32 bits wide, so at most 31 entries fit.
    const Shape argShape{std::int64_t(m)};
    if (sparse.begin.size() != std::size_t(m) || sparse.end.size() != std::size_t(m) || m >= 32)
        checkSparseArgShapes({std::int64_t(sparse.begin.size())}, {std::int64_t(sparse.end.size())},
                             argShape);
    const std::uint32_t ellipsisBits = std::uint32_t(sparse.ellipsisMask);
    if ((ellipsisBits & (ellipsisBits - 1)) != 0) {
        steps.push_back({"Check the arguments",
                         "ellipsis_mask is " + num(sparse.ellipsisMask) + " (" +
                             maskBinary(sparse.ellipsisMask, 32) +
                             "): more than one bit is set, but a spec can hold only one ellipsis. "
                             "TensorFlow tests all 32 bits here, even those past the " +
                             num(m) + (m == 1 ? " entry." : " entries."),
                         allEntries});
        invalidArgument("Multiple ellipses in slice spec not allowed");
    }
    std::string checks = num(m) + (m == 1 ? " entry" : " entries") +
                         " in begin, end and strides (at most 31 fit in the "
                         "32-bit masks); ellipsis_mask " +
                         num(sparse.ellipsisMask) +
                         (sparse.ellipsisMask ? " has a single bit set." : " is 0.");
    const std::int32_t allMasks = sparse.beginMask | sparse.endMask | sparse.ellipsisMask |
                                  sparse.newAxisMask | sparse.shrinkAxisMask;
    if (m < 31 && (std::uint32_t(allMasks) >> m) != 0)
        checks += " Quirk: some mask bits lie past the last entry; TensorFlow never reads them.";
    steps.push_back({"Check the arguments", checks, allEntries});

    // Stage 1: sparse bookkeeping. Without an ellipsis, one is implied after the last entry.
    bool sawEllipsis = false;
    int newAxesAfterEllipsis = 0;
    for (int i = 0; i < m; ++i) {
        if (sawEllipsis && bit(sparse.newAxisMask, i)) ++newAxesAfterEllipsis;
        if (bit(sparse.ellipsisMask, i)) sawEllipsis = true;
    }
    std::int64_t ellipsisMask = std::uint32_t(sparse.ellipsisMask);
    int sparseLength = m;
    if (!sawEllipsis) {
        ellipsisMask |= std::int64_t(1) << m;
        sparseLength = m + 1;
        steps.push_back({"Implicit ellipsis",
                         "No entry is an ellipsis, so TensorFlow appends one after the last entry "
                         "(bit " +
                             num(m) + ", mask " + num(std::int64_t(1) << m) +
                             "): dimensions the spec does not mention are kept whole.",
                         {}});
    } else {
        int at = 0;
        while (!bit(sparse.ellipsisMask, at))
            ++at;
        steps.push_back({"Ellipsis",
                         "Entry " + num(at) + " is the spec's ellipsis. " +
                             (newAxesAfterEllipsis == 0
                                  ? std::string("No new axis follows it.")
                                  : num(newAxesAfterEllipsis) + " new ax" +
                                        (newAxesAfterEllipsis == 1 ? "is follows" : "es follow") +
                                        " it; new axes use no input dimension, so the ellipsis "
                                        "covers that many more dimensions."),
                         {at}});
    }

    // Stage 2: sparse to dense, one entry per input dimension.
    DenseSpec& dense = out.dense;
    dense = DenseSpec{};
    dense.begin.assign(std::size_t(r), 0);
    dense.end.assign(std::size_t(r), 0);
    dense.strides.assign(std::size_t(r), 1);
    out.dims.assign(std::size_t(r), DimDecode{});
    std::vector<int> finalGather;
    std::string denseDetail;
    int full = 0;
    for (int i = 0; i < sparseLength; ++i) {
        if (bit(ellipsisMask, i)) {
            const int next = std::min(r - (sparseLength - i) + 1 + newAxesAfterEllipsis, r);
            const int first = full;
            for (; full < next; ++full) {
                dense.beginMask |= std::int64_t(1) << full;
                dense.endMask |= std::int64_t(1) << full;
                out.dims[std::size_t(full)].specEntry = i < m ? i : -1;
                out.dims[std::size_t(full)].fromEllipsis = true;
                finalGather.push_back(full);
            }
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
            denseDetail += "Entry " + num(i) +
                           " is a new axis: a dimension of size 1 in the output, "
                           "no input dimension used. ";
            if (bit(sparse.shrinkAxisMask, i))
                denseDetail += "Quirk: its shrink bit is also set, and the new axis wins. ";
        } else {
            if (full == r) {
                steps.push_back({"Sparse to dense", denseDetail, allEntries});
                invalidArgument("Index out of range using input dim " + num(full) +
                                "; input has only " + num(r) + " dims");
            }
            dense.begin[std::size_t(full)] = sparse.begin[std::size_t(i)];
            dense.end[std::size_t(full)] = sparse.end[std::size_t(i)];
            dense.strides[std::size_t(full)] = sparse.strides[std::size_t(i)];
            if (bit(sparse.beginMask, i)) dense.beginMask |= std::int64_t(1) << full;
            if (bit(sparse.endMask, i)) dense.endMask |= std::int64_t(1) << full;
            out.dims[std::size_t(full)].specEntry = i;
            if (bit(sparse.shrinkAxisMask, i)) {
                dense.shrinkAxisMask |= std::int64_t(1) << full;
                finalGather.push_back(kShrinkMarker);
                denseDetail += "Entry " + num(i) + " indexes input dimension " + num(full) + ". ";
            } else {
                finalGather.push_back(full);
                denseDetail += "Entry " + num(i) + " slices input dimension " + num(full) + ". ";
            }
            ++full;
        }
    }
    if (denseDetail.empty()) denseDetail = "The input is a scalar and the spec uses no dimension. ";
    denseDetail += "Dense masks: begin " + num(dense.beginMask) + ", end " + num(dense.endMask) +
                   ", shrink " + num(dense.shrinkAxisMask) + ".";
    {
        Step s{"Sparse to dense", denseDetail, allEntries};
        for (int d = 0; d < r; ++d)
            s.inputDims.push_back(d);
        steps.push_back(std::move(s));
    }

    // Stage 3: canonicalise each dimension.
    out.isIdentity = out.isSimpleSlice = out.sliceDim0 = true;
    out.processingShape.clear();
    for (int i = 0; i < r; ++i) {
        DimDecode& dim = out.dims[std::size_t(i)];
        const std::int64_t d = inputShape[std::size_t(i)];
        const std::int64_t s = dense.strides[std::size_t(i)];
        const bool shrink = bit(dense.shrinkAxisMask, i);
        const bool beginMasked = bit(dense.beginMask, i);
        const bool endMasked = bit(dense.endMask, i);
        std::int64_t b = dense.begin[std::size_t(i)];
        std::int64_t e = dense.end[std::size_t(i)];
        dim.dim = i;
        dim.size = d;
        dim.stride = s;
        dim.shrink = shrink;
        Step step{"Dimension " + num(i), "", {}, {i}};
        if (dim.specEntry >= 0) step.specEntries.push_back(dim.specEntry);
        auto fail = [&](ErrorCode code, const std::string& message) {
            step.detail = "Size " + num(d) + ", stride " + num(s) + ": " + message;
            steps.push_back(step);
            throw OpError(code, message);
        };
        if (s == 0) fail(ErrorCode::InvalidArgument, "strides[" + num(i) + "] must be non-zero");
        if (shrink && s <= 0)
            fail(ErrorCode::InvalidArgument, "only stride 1 allowed on non-range indexing.");
        out.isSimpleSlice = out.isSimpleSlice && s == 1;
        const std::int64_t lo = s > 0 ? 0 : -1;
        const std::int64_t hi = s > 0 ? d : d - 1;
        const std::string range = listText({lo, hi});
        if (shrink) {
            if (beginMasked)
                dim.notes.push_back("quirk: the begin_mask bit is ignored for an index; the raw "
                                    "begin " +
                                    num(b) + " is used");
            const std::int64_t wrapped = b < 0 ? d + b : b;
            if (b < 0)
                dim.notes.push_back(strCat("index ", b, " is negative: counts from the end, ", d,
                                           " + (", b, ") = ", wrapped));
            // The protocol files an index outside its dimension under out_of_range.
            if (wrapped < 0 || wrapped >= d)
                fail(ErrorCode::OutOfRange,
                     "slice index " + num(wrapped) + " of dimension " + num(i) + " out of bounds.");
            if (s != 1)
                dim.notes.push_back("quirk: stride " + num(s) +
                                    " is accepted for an index (any positive stride is)");
            b = wrapped;
            e = wrapped + 1;
            dim.notes.push_back("index " + num(wrapped) +
                                " selects one element; the dimension is removed");
        } else {
            auto canonical = [&](std::int64_t x, bool masked, bool isBegin) {
                const char* which = isBegin ? "begin" : "end";
                if (masked) {
                    const std::int64_t v = (s > 0) == isBegin ? lo : hi;
                    std::string why;
                    if (s > 0)
                        why = isBegin ? "the first index" : "the size, one past the last index";
                    else
                        why = isBegin ? "the last index, because the stride is negative"
                                      : "one step past index 0 going down, so index 0 is read; "
                                        "the stride is negative";
                    dim.notes.push_back(std::string(which) + "_mask set: " + which + " becomes " +
                                        num(v) + " (" + why + ")");
                    return v;
                }
                std::int64_t fwd = x;
                if (x < 0) {
                    fwd = d + x;
                    dim.notes.push_back(std::string(which) + " " + num(x) +
                                        " is negative: counts from the end, " + num(d) + " + (" +
                                        num(x) + ") = " + num(fwd));
                }
                const std::int64_t clamped = std::clamp(fwd, lo, hi);
                if (clamped != fwd)
                    dim.notes.push_back(std::string(which) + " " + num(fwd) + " is outside " +
                                        range + ", the valid range for a " +
                                        (s > 0 ? "positive" : "negative") + " stride: clamped to " +
                                        num(clamped));
                return clamped;
            };
            b = canonical(b, beginMasked, true);
            e = canonical(e, endMasked, false);
            if (dim.fromEllipsis)
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

        std::string detail =
            "Size " + num(d) + ". Raw begin " +
            (beginMasked ? std::string("(masked)") : num(dense.begin[std::size_t(i)])) + ", end " +
            (endMasked && !shrink ? std::string("(masked)") : num(dense.end[std::size_t(i)])) +
            ", stride " + num(s) + ".";
        for (const auto& n : dim.notes) {
            // Start each note as a sentence, unless it starts with a name such as begin_mask.
            const bool name = n.find('_') < n.find(' ');
            detail +=
                " " + (name ? n : std::string(1, char(std::toupper(n[0]))) + n.substr(1)) + ".";
        }
        detail += " Canonical begin " + num(b) + ", end " + num(e) + ", stride " + num(s) + ": ";
        if (length == 0) {
            detail += interval == 0 ? "begin equals end, so nothing is selected."
                                    : "end lies on the wrong side of begin for this stride, so "
                                      "nothing is selected.";
        } else {
            detail += num(length) + (length == 1 ? " element" : " elements");
            if (length <= 6) {
                detail += " (";
                for (std::int64_t k = 0; k < length; ++k)
                    detail += (k ? ", " : "") + num(b + k * s);
                detail += ")";
            } else {
                detail +=
                    " (" + num(b) + ", " + num(b + s) + ", ..., " + num(b + (length - 1) * s) + ")";
            }
            detail += ".";
        }
        step.detail = detail;
        steps.push_back(std::move(step));
    }

    // Stage 4: shapes. Shrunk dimensions vanish; new axes appear as size 1.
    out.finalShape.clear();
    out.finalDims.clear();
    for (int g : finalGather) {
        if (g == kShrinkMarker) continue;
        if (g >= 0) {
            out.finalShape.push_back(out.processingShape[std::size_t(g)]);
            out.finalDims.push_back(g);
        } else {
            out.finalShape.push_back(1);
            out.finalDims.push_back(g);
        }
    }
    {
        Step s{"Processing shape",
               shapeTuple(out.processingShape) +
                   ": the number of elements each input dimension selects (an index selects 1).",
               {}};
        for (int d = 0; d < r; ++d)
            s.inputDims.push_back(d);
        steps.push_back(std::move(s));
    }
    {
        int shrinks = 0;
        int newAxes = 0;
        for (int g : finalGather) {
            shrinks += g == kShrinkMarker;
            newAxes += g < 0 && g != kShrinkMarker;
        }
        std::string detail = shapeTuple(out.finalShape) + ": the processing shape with " +
                             num(shrinks) + " indexed dimension" + (shrinks == 1 ? "" : "s") +
                             " removed and " + num(newAxes) + " new ax" +
                             (newAxes == 1 ? "is" : "es") + " inserted";
        detail += out.isIdentity ? ". Every dimension is taken whole: the result is the input "
                                   "itself, reshaped."
                                 : ".";
        Step s{"Final shape", detail, {}};
        for (int d = 0; d < int(out.finalShape.size()); ++d)
            s.outputDims.push_back(d);
        steps.push_back(std::move(s));
    }
}

} // namespace ss
