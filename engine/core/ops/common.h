// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Small helpers every op group uses while it plans: numbers in messages, dimension lists for
// the steps, products of shape ranges, and outputs and row lists held to the limits.

#include "core/checked.h"
#include "core/executor.h"
#include "core/op.h"
#include "core/strings.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace ss::ops {

/// The dimensions first, ..., end - 1 (a step's inputDims or outputDims).
inline std::vector<int> dimRange(int first, int end)
{
    std::vector<int> dims;
    for (int d = first; d < end; ++d)
        dims.push_back(d);
    return dims;
}

/// shape[from] * ... * shape[to - 1] (1 for an empty range). Exact: 0 if any size in the range
/// is 0, whatever the others; resource_exhausted if the true product does not fit in int64
/// (possible only for a range of an empty tensor, such as [0, 2^62, 2^62]).
inline std::int64_t product(const Shape& shape, std::size_t from, std::size_t to)
{
    return numElements(
        Shape(shape.begin() + std::ptrdiff_t(from), shape.begin() + std::ptrdiff_t(to)));
}

/// The widest rank TensorFlow's Eigen-based copy kernels are instantiated for (StridedSlice,
/// StridedSliceAssign, Slice, Pad, ReverseV2 use HANDLE_DIM(1..8)). Above it a kernel either
/// has a fast path that needs no Eigen expression or refuses with Unimplemented.
inline constexpr int kEigenKernelMaxRank = 8;

/// TensorFlow's IsInnerDimsSizeAligned, which decides its "dimension 0" fast path for inputs
/// of rank 2 and more: whole rows along dimension 0 can be handed out as a view when a row's
/// bytes are a multiple of EIGEN_MAX_ALIGN_BYTES. That is 32 in the official x86-64 builds
/// (compiled with AVX); sizeof(tstring) is 24.
inline bool innerDimsAligned(const Shape& shape, DType dtype)
{
    constexpr std::int64_t kEigenMaxAlignBytes = 32;
    if (shape.empty() || shape[0] == 0) return false;
    const std::int64_t elementBytes = dtype == DType::String ? 24 : dtypeSize(dtype);
    // (inner * elementBytes) % 32, without forming a product that could overflow.
    std::int64_t innerMod = 1;
    for (std::size_t k = 1; k < shape.size(); ++k)
        innerMod = innerMod * (shape[k] % kEigenMaxAlignBytes) % kEigenMaxAlignBytes;
    return innerMod * elementBytes % kEigenMaxAlignBytes == 0;
}

/// Refuses an output shape whose element count overflows int64 (in Limits::check's words) before
/// a planner multiplies its sizes into strides. The limits themselves are checked on the finished
/// plan (OutputPlan::checkSize), which holds an output that is its input (a tile by ones, a pad
/// by zeros, a stack of one) to what the input may be: a mapped file's view is not held to the
/// limits of memory the process allocates.
inline void checkCountFits(const OpCall& call, const Shape& shape, DType dtype,
                           const std::string& what)
{
    if (!checkedNumElements(shape)) call.limits().check(shape, dtype, what);
}

/// A new output, refused (before anything is allocated for it) if the engine cannot hold it.
inline OutputPlan newOutput(const OpCall& call, DType dtype, Shape shape, const std::string& what)
{
    call.limits().check(shape, dtype, what); // rank, then size
    OutputPlan out;
    out.dtype = dtype;
    out.shape = std::move(shape);
    return out;
}

/// An empty row list with room for `count` rows; the list itself is held to the limits (and
/// charged to the request's memory budget) too.
inline RowsPiece rowList(const OpCall& call, std::int64_t count, std::int64_t rowLength)
{
    call.limits().reserve({count}, DType::Int64, "the row list");
    RowsPiece p;
    p.rowLength = rowLength;
    p.rows.reserve(std::size_t(count));
    return p;
}

/// The narrowest of int16, int32 and int64 that holds every value in [-bound, bound].
inline DType narrowestIndexType(std::int64_t bound)
{
    return bound <= std::numeric_limits<std::int16_t>::max()   ? DType::Int16
           : bound <= std::numeric_limits<std::int32_t>::max() ? DType::Int32
                                                               : DType::Int64;
}

/// An empty gather-form IndexPiece of `slot` (an input or kConstantSlot) with `count` index
/// values of `type`, unwritten (withRowNumbers() writes them). Held to the limits and charged
/// to the request's memory budget as `what`, as a row list is.
inline IndexPiece indexPieceOfCount(const OpCall& call, int slot, DType type, std::int64_t count,
                                    const std::string& what)
{
    call.limits().reserve({count}, type, what);
    IndexPiece p;
    p.slot = slot;
    // From the heap, as a row list's was: once freed it stays there for the next plan's numbers,
    // and does not take the buffer the tensor pool keeps for the next output (about this size).
    std::shared_ptr<char[]> numbers(new char[std::size_t(count) * std::size_t(dtypeSize(type))]);
    p.indices = Tensor::wrap(type, {count}, std::move(numbers));
    p.count = count;
    return p;
}

/// An empty gather-form IndexPiece for `count` rows of `rowLength` elements of input `slot`, each
/// named by its row number (index stride rowLength) in the piece's indices, which the caller
/// writes through withRowNumbers(). The numbers, below `rowsBelow`, take the narrowest of int16,
/// int32 and int64 that holds them: 2 or 4 bytes per picked row below 2^31 rows, where a
/// RowsPiece keeps 8 (a full mask of 10^7 rows: 40 MB instead of 80).
inline IndexPiece rowNumbers(const OpCall& call, int slot, std::int64_t rowsBelow,
                             std::int64_t count, std::int64_t rowLength)
{
    IndexPiece p =
        indexPieceOfCount(call, slot, narrowestIndexType(rowsBelow), count, "the row list");
    p.rowLength = rowLength;
    p.indexStrides = {rowLength};
    return p;
}

/// Calls f with the indices of a rowNumbers() or indexPieceOfCount() piece, writable, in their
/// own type.
template <class F> void withRowNumbers(IndexPiece& piece, F&& f)
{
    visitDType(piece.indices.dtype(), [&](auto tag) {
        using I = typename decltype(tag)::type;
        if constexpr (std::is_same_v<I, std::int16_t> || std::is_same_v<I, std::int32_t> ||
                      std::is_same_v<I, std::int64_t>)
            f(piece.indices.data<I>());
    });
}

/// body(begin, end) over [0, n) in chunks of at least `grain`: split over the call's executor
/// when it has one, on the calling thread otherwise. For long scans while planning (the range
/// checks of index tensors), which would otherwise keep every core but one idle.
inline void planParallelFor(const OpCall& call, std::int64_t n, std::int64_t grain,
                            const std::function<void(std::int64_t, std::int64_t)>& body)
{
    if (n <= 0) return;
    if (call.executor() && n > grain)
        call.executor()->parallelFor(n, grain, body);
    else
        body(0, n);
}

/// Refuses `input` unless its dtype is a real number (TensorFlow's TF_CALL_REAL_NUMBER_TYPES: the
/// integers and floats, not bool, complex or string), or one of `also`: the dtypes the kernel of
/// call's op is registered for. TensorFlow finds no kernel for the others.
inline void requireRealNumbers(const OpCall& call, const std::string& input,
                               std::initializer_list<DType> also = {})
{
    const DType t = call.input(input).dtype();
    if (isInteger(t) || isFloat(t) || std::find(also.begin(), also.end(), t) != also.end()) return;
    std::string names, others;
    for (DType d : kAllDTypes)
        if (isInteger(d) || isFloat(d))
            names += (names.empty() ? "" : ", ") + std::string(dtypeName(d));
    for (DType d : also)
        others += ", " + std::string(dtypeName(d));
    invalidArgument("input '" + input + "' has dtype " + std::string(dtypeName(t)) + ", but " +
                    call.def().name + " takes real numbers" +
                    (others.empty() ? "" : " (" + names + ")" + others + " only") +
                    (others.empty() ? " only (" + names + ")" : ""));
}

/// strided_slice's arguments (begin, end, strides and the five masks) read and checked exactly as
/// the strided_slice op reads them; for the ops that take the same attributes (compare).
SparseSpec sparseSpecFromCall(const OpCall& call);

} // namespace ss::ops
