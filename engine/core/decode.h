// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/attr.h"
#include "core/shape.h"
#include "core/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ss {

/// The width of strided_slice's masks (TensorFlow's int32 attributes): a spec holds at most
/// kMaskBits - 1 entries, because an implied ellipsis takes the bit after the last.
inline constexpr int kMaskBits = 32;

/// The arguments of tf.strided_slice as the op receives them (one entry per sparse spec).
struct SparseSpec
{
    std::vector<std::int64_t> begin;
    std::vector<std::int64_t> end;
    std::vector<std::int64_t> strides;
    std::int32_t beginMask = 0;
    std::int32_t endMask = 0;
    std::int32_t ellipsisMask = 0;
    std::int32_t newAxisMask = 0;
    std::int32_t shrinkAxisMask = 0;

    bool operator==(const SparseSpec&) const = default;
};

/// A mask in binary, "0b0110": at least `digits` digits (one per spec entry), more when a higher
/// bit is set, so that no set bit is ever cut off.
std::string maskBinary(std::int32_t mask, int digits);

/// strided_slice's attributes for a sparse spec (masks only where non-zero: they default to 0).
Attrs attrsFromSparse(const SparseSpec& sparse);

/// One entry of the sparse spec, as written (getitem) or as the masks say (strided_slice).
struct SpecEntry
{
    enum class Kind { Index, Slice, NewAxis, Ellipsis };
    Kind kind = Kind::Slice;
    std::string text;   ///< the subscript text of this entry (getitem only)
    int textBegin = -1; ///< character range of `text` in the expression
    int textEnd = -1;
    std::optional<std::int64_t> begin; ///< absent where omitted or masked
    std::optional<std::int64_t> end;
    std::optional<std::int64_t> stride;
};
std::string_view specKindName(SpecEntry::Kind kind); ///< "index", "slice", "new_axis", "ellipsis"

/// The sparse spec expanded to one entry per input dimension (TensorFlow's dense spec).
struct DenseSpec
{
    std::vector<std::int64_t> begin;
    std::vector<std::int64_t> end;
    std::vector<std::int64_t> strides;
    std::int64_t beginMask = 0;
    std::int64_t endMask = 0;
    std::int64_t shrinkAxisMask = 0;
};

/// One input dimension after canonicalisation: TensorFlow's begin/end/stride and the number of
/// elements it selects, with every rule that changed a value in plain words.
struct DimDecode
{
    int dim = 0;
    std::int64_t size = 0;
    std::int64_t begin = 0;
    std::int64_t end = 0;
    std::int64_t stride = 1;
    std::int64_t length = 0;
    bool shrink = false;
    int specEntry = -1; ///< the sparse entry that produced this dimension
    bool fromEllipsis = false;
    std::vector<std::string> notes;
};

/// Everything TensorFlow's ValidateStridedSliceOp works out, stage by stage.
struct StridedSliceDecode
{
    std::vector<SpecEntry> spec;
    SparseSpec sparse;
    DenseSpec dense;
    std::vector<DimDecode> dims;
    Shape processingShape;
    Shape finalShape;
    /// Per output dimension: the input dimension it runs over, or -1 - (sparse index) for a new
    /// axis.
    std::vector<int> finalDims;
    bool isIdentity = true;
    bool isSimpleSlice = true;
    bool sliceDim0 = true;
};

/// Describes each sparse entry of a raw spec by its masks, the way TensorFlow will read it.
std::vector<SpecEntry> describeSparseSpec(const SparseSpec& sparse);

/// Runs TensorFlow's pipeline (the stages of its ValidateStridedSliceOp) for an input of
/// `inputShape`, filling `out` (whose `spec` may already hold the parsed entries) and appending one
/// Step per stage. Throws OpError with TensorFlow's message (invalid_argument; out_of_range for an
/// index outside its dimension); `out` and `steps` then hold the stages completed before the error.
/// Without `explain` the words are left out: no steps, and no notes in `out.dims` (the rest of
/// `out`, the errors and their messages are the same); for a small slice they cost several
/// times the rest of its request.
void decodeStridedSlice(const Shape& inputShape, const SparseSpec& sparse, StridedSliceDecode& out,
                        std::vector<Step>& steps, bool explain = true);

/// TensorFlow's first check, on the shapes of the begin/end/strides arguments.
void checkSparseArgShapes(const Shape& begin, const Shape& end, const Shape& strides);

} // namespace ss
