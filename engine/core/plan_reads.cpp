// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/plan_reads.h"

#include "core/mapped_file.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

namespace ss {

namespace {

constexpr std::int64_t kReadThroughBytes = std::int64_t(256) << 10;
constexpr std::int64_t kMostBlocks = std::int64_t(1) << 16;
constexpr std::int64_t kMostAdvisedBytes = std::int64_t(512) << 20;

struct Axis
{
    std::int64_t extent;
    std::int64_t stride; ///< in input elements
};

/// A piece's reads as blocks: `length` elements from `first`, at each offset of `outer`.
struct Blocks
{
    std::int64_t first = 0;
    std::int64_t length = 1;
    std::vector<Axis> outer;

    std::int64_t count() const
    {
        std::int64_t n = 1;
        for (const Axis& a : outer)
            n *= a.extent; // at most kMostBlocks: checked as it grows (blocksOf)
        return n;
    }
};

// The axes of extent > 1, the smallest stride first; nothing if the piece reads nothing.
std::vector<Axis> axesOf(const AffinePiece& p)
{
    std::vector<Axis> axes;
    for (std::size_t k = 0; k < p.extents.size(); ++k) {
        if (p.extents[k] == 0) return {};
        if (p.extents[k] > 1) axes.push_back({p.extents[k], p.inStrides[k]});
    }
    std::stable_sort(axes.begin(), axes.end(), [](const Axis& a, const Axis& b) {
        return std::abs(a.stride) < std::abs(b.stride);
    });
    return axes;
}

// Stage 1: inner axes whose copies of the block lie less than kReadThroughBytes apart join the
// block; the rest repeat it. Nothing if there would be more than kMostBlocks blocks.
std::optional<Blocks> blocksOf(const AffinePiece& p, std::int64_t elementBytes)
{
    const std::vector<Axis> axes = axesOf(p);
    Blocks b;
    b.first = p.inOffset;
    std::size_t k = 0;
    for (; k < axes.size(); ++k) {
        const Axis& a = axes[k];
        if ((std::abs(a.stride) - b.length) * elementBytes >= kReadThroughBytes) break;
        if (a.stride < 0) b.first += (a.extent - 1) * a.stride;
        b.length = std::max(b.length, (a.extent - 1) * std::abs(a.stride) + b.length);
    }
    std::int64_t count = 1;
    for (; k < axes.size(); ++k) {
        if (axes[k].extent > kMostBlocks / count) return std::nullopt;
        count *= axes[k].extent;
        b.outer.push_back(axes[k]);
    }
    return b;
}

// Stage 2: whether the blocks are worth advising: more than one, sparse (less than half of the
// bytes from the first block's start to the last one's end) and not too many bytes.
bool scattered(const Blocks& b, std::int64_t elementBytes)
{
    const std::int64_t count = b.count();
    if (count < 2 || b.length * elementBytes > kMostAdvisedBytes / count) return false;
    std::int64_t low = b.first, high = b.first + b.length;
    for (const Axis& a : b.outer)
        (a.stride < 0 ? low : high) += (a.extent - 1) * a.stride;
    return 2 * count * b.length < high - low;
}

// Stage 3: the blocks as byte spans from the input's first byte.
std::vector<ByteSpan> spansOf(const Blocks& b, std::int64_t elementBytes)
{
    std::vector<ByteSpan> spans;
    spans.reserve(std::size_t(b.count()));
    std::vector<std::int64_t> coord(b.outer.size(), 0);
    std::int64_t at = b.first;
    for (;;) {
        spans.push_back({at * elementBytes, (at + b.length) * elementBytes});
        std::size_t k = 0;
        for (; k < b.outer.size(); ++k) {
            at += b.outer[k].stride;
            if (++coord[k] < b.outer[k].extent) break;
            at -= b.outer[k].stride * b.outer[k].extent;
            coord[k] = 0;
        }
        if (k == b.outer.size()) return spans;
    }
}

} // namespace

void adviseScatteredPlanReads(const OutputPlan& out, const std::vector<Tensor>& inputs)
{
    if (out.dtype == DType::String) return;
    for (const Piece& piece : out.pieces) {
        const auto* p = std::get_if<AffinePiece>(&piece);
        if (!p || p->slot < 0 || p->slot >= int(inputs.size())) continue;
        const Tensor& input = inputs[std::size_t(p->slot)];
        if (!input.isValid() || !isMappedFile(input.raw())) continue;
        const std::int64_t elementBytes = dtypeSize(input.dtype());
        const auto blocks = blocksOf(*p, elementBytes);
        if (blocks && scattered(*blocks, elementBytes))
            adviseWillRead(input.raw(), spansOf(*blocks, elementBytes));
    }
}

} // namespace ss
