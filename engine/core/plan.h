// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/dtype.h"
#include "core/shape.h"
#include "core/tensor.h"

#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace ss {

// Every op in the family only moves elements. Planning an op says, for every output element,
// which input element it is copied from or which constant it takes; one copy engine then
// executes the plan. Values, `sources` and the GUI's highlights all come from the same plan.

/// The source "slot" of constants: the OutputPlan's own `constants` tensor.
inline constexpr int kConstantSlot = (1 << 23) - 1;

/// A source packed into one int64: slot in the high bits, flat element index in the low 40.
inline constexpr std::int64_t packSource(int slot, std::int64_t index)
{
    return (std::int64_t(slot) << 40) | index;
}
inline constexpr int sourceSlot(std::int64_t packed)
{
    return int(packed >> 40);
}
inline constexpr std::int64_t sourceIndex(std::int64_t packed)
{
    return packed & ((std::int64_t(1) << 40) - 1);
}
/// What `sources` holds for an element that no input element was copied to.
inline constexpr std::int64_t kNoSource = -1;

/// An allocator whose default-inserted elements are left uninitialised, for large arrays that
/// are written in full right after they are made (sources, read orders): a fill before the real
/// values would be one more pass over the whole array.
template <class T> struct UninitializedAllocator : std::allocator<T>
{
    using value_type = T;
    UninitializedAllocator() = default;
    template <class U> UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
    template <class U> void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>)
    {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args> void construct(U* p, Args&&... args)
    {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

/// Per output element: packSource(slot, index) or kNoSource. planSources checks that the plan
/// wrote every element (an element no piece wrote is a planning bug, reported as `internal`),
/// so a SourceList never holds anything else.
using SourceList = std::vector<std::int64_t, UninitializedAllocator<std::int64_t>>;

/// A block of the output that is an affine image of one source: for every coordinate p in
/// `extents`, output[outOffset + sum p_k * outStrides_k] = source[inOffset + sum p_k *
/// inStrides_k]. Strides may be negative (reversal) or zero (repetition). Describing an op in a
/// reshaped, higher-rank view (tile, space_to_batch, depth_to_space) keeps it affine.
struct AffinePiece
{
    int slot = 0; ///< input slot, or kConstantSlot
    std::int64_t inOffset = 0;
    std::int64_t outOffset = 0;
    std::vector<std::int64_t> extents;
    std::vector<std::int64_t> inStrides;
    std::vector<std::int64_t> outStrides;
};

/// Consecutive output rows of `rowLength` elements starting at `outOffset`; row r is copied from
/// the contiguous run starting at the packed source `rows[r]`. A constant row repeats its one
/// value, or with `constantRuns` reads a run of the constants like any other row (so one_hot
/// reads each row from a window [off.., on, off..]). one_hot, sequence_mask, reverse_sequence
/// and roll use this form; index-driven ops name their rows in an IndexPiece.
struct RowsPiece
{
    std::int64_t outOffset = 0;
    std::int64_t rowLength = 1;
    std::vector<std::int64_t> rows;
    bool constantRuns = false;
};

/// Rows picked by an index tensor read in place (gather, gather_nd, dynamic_stitch; one_hot's
/// constants), so that no 8-byte-per-row list is built. The planner has range-checked every
/// offset an index tuple makes. An index tuple t is
/// `indexStrides.size()` consecutive elements of `indices` (int16, int32 or int64), and stands for
/// the element offset sum_k indices[t * tupleLength + k] * indexStrides[k].
/// - Gather form (`scatter` false): output row r = g * count + j (g < groups, j < count), at
///   outOffset + r * rowLength, is copied from the run at inOffset + g * groupStride + the offset
///   of tuple t = (g / groupsPerBlock) * count + j. (gather: g runs over params' batch and outer
///   dimensions, and every `groupsPerBlock` outer groups of a batch entry read its indices.)
/// - Scatter form (`scatter` true, groups 1): source row j, the run at inOffset + j * rowLength,
///   is copied to outOffset + the offset of tuple j. A later j wins where two name one row
///   (dynamic_stitch); `distinctTargets` says that none do, so rows may be written in any order.
struct IndexPiece
{
    int slot = 0; ///< input slot, or kConstantSlot (one_hot along an inner axis)
    Tensor indices;
    std::int64_t rowLength = 1;
    std::int64_t inOffset = 0;
    std::int64_t outOffset = 0;
    std::int64_t groups = 1;
    std::int64_t count = 0;
    std::int64_t groupsPerBlock = 1;
    std::int64_t groupStride = 0;
    std::vector<std::int64_t> indexStrides{1};
    bool scatter = false;
    bool distinctTargets = true;
    std::int64_t targetRows = 0; ///< scatter: the output rows a tuple may name (rows of rowLength)

    /// The elements the piece moves (duplicates included).
    std::int64_t elements() const { return groups * count * rowLength; }
};

using Piece = std::variant<AffinePiece, RowsPiece, IndexPiece>;

/// Consecutive elements of one input: [offset, offset + an output's element count) of `slot`.
struct InputRun
{
    int slot = 0;
    std::int64_t offset = 0;
};

/// How one output tensor is made. Pieces run in order and a later piece overwrites an earlier
/// one where they meet (strided_slice_assign, dynamic_stitch duplicates); together they must
/// write every element. An output whose values are computed rather than moved (unique's idx and
/// count, required_space_to_batch_paddings) is given ready-made in `computed`; none of its
/// elements has a source.
struct OutputPlan
{
    DType dtype = DType::Float32;
    Shape shape;
    std::vector<Piece> pieces;
    Tensor constants; ///< rank 1, same dtype as the output: values that have no input source
    Tensor computed;  ///< if valid, the output itself

    /// A piece that copies the whole of `slot` (same shape) into this output.
    static AffinePiece identityPiece(int slot, const Shape& shape);
    /// A piece that fills the whole output with constants[constantIndex].
    static AffinePiece fillPiece(std::int64_t constantIndex, const Shape& shape);
    /// A piece over `extents` that holds no element (an extent is 0): it moves nothing, so its
    /// offsets and strides are 0. Builders return it instead of computing strides, because an
    /// empty tensor's dimensions, such as [0, 2^62, 2^62], may multiply past int64.
    static AffinePiece emptyPiece(int slot, const Shape& extents);
    /// Appends a scalar to `constants` (converted from `value`, a rank-0 tensor of any numeric
    /// dtype or of the output's own dtype) and returns its index.
    std::int64_t addConstant(const Tensor& value);
    /// The run of consecutive input elements this output is a copy of, in their order (one
    /// affine piece reading an input of the same dtype contiguously from some element on, such
    /// as x[7] of a row-major tensor, x[2:5], x[...], a transpose by the identity, a tile by ones,
    /// a pad by zeros), or nothing. Such an output of a mapped file shares the file's pages
    /// instead of copying them (executePlan).
    std::optional<InputRun> contiguousRun(const std::vector<Tensor>& inputs) const;
    /// The run of an input this output shares instead of copying it (executePlan), or nothing
    /// when the output is allocated and filled: a contiguousRun that is all of its input, or
    /// that lies in a mapped file at a 64-byte boundary (the alignment of every tensor buffer).
    std::optional<InputRun> sharedRun(const std::vector<Tensor>& inputs) const;
    /// Checks that the engine may hold this output before anything is allocated for it: an
    /// output that shares an input's memory (sharedRun) as file-backed memory
    /// (Limits::checkFileBacked), any other against the limits (Limits::check, the same
    /// messages). `what` names it. Charges nothing; returns the element count.
    std::int64_t checkSize(const std::vector<Tensor>& inputs, const Limits& limits,
                           const std::string& what) const;
    /// checkSize(), then charges the output's bytes to the limits' budget unless it shares an
    /// input's memory: for an output about to be made.
    std::int64_t reserve(const std::vector<Tensor>& inputs, const Limits& limits,
                         const std::string& what) const;
};

} // namespace ss
