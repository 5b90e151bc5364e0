// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Advanced (array) indexing as NumPy, PyTorch and JAX do it, reduced to one form every model
// fills in its own way: per input dimension a basic pick, the index arrays with the dimension
// each reads, and where the broadcast index dimensions go in the result. The models decide the
// reading (which items are arrays, how a mask becomes arrays, which errors come first); this
// file only broadcasts, places and plans, so every element of the result keeps its source.

#include "core/frameworks/framework_model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ss::frameworks {

/// One integer index array as a framework reads it.
struct IndexArray
{
    Shape shape;                      ///< its own shape, before broadcasting
    std::vector<std::int64_t> values; ///< row-major; in [0, size) once the model has checked
    int dim = -1;                     ///< the input dimension it reads; -1: none (a 0-d bool)
    std::string label;                ///< how the steps name it ("idx0", "nonzero(mask)[1]")
};

/// An advanced index ready to plan.
struct GatherSpec
{
    /// Per input dimension: the basic pick (whole, sliced or removed by an integer). A dimension
    /// read by an index array keeps its whole pick; the array decides what is read there.
    std::vector<AxisPick> picks;
    std::vector<IndexArray> arrays;
    /// The result's dimensions in order: an input dimension (>= 0), a new axis (-1), or the
    /// broadcast index dimensions (kBlock, exactly once).
    std::vector<int> layout;
};

inline constexpr int kBlock = -2;

/// The element of `a` that the broadcast coordinate `coord` reads (an array broadcasts from
/// the right; a dimension of 1 repeats).
std::int64_t arrayOffset(const IndexArray& a, const std::vector<std::int64_t>& coord);
/// Steps `coord` to the next position of `shape`, the last dimension fastest (to all zeros
/// after the last).
void nextCoord(std::vector<std::int64_t>& coord, const Shape& shape);

/// NumPy's spelling of a shape in its messages: "(2,3)", "(2,)", "()".
std::string numpyShapeText(const Shape& shape);

/// The positions of a bool mask's true elements, one array per mask dimension (nonzero()).
std::vector<std::vector<std::int64_t>> nonzeroIndices(const Shape& shape,
                                                      const std::vector<std::int64_t>& mask);

/// Plans the index: one output from input slot 0 whose every element names its source element.
/// The arrays must broadcast and hold checked values. Adds steps for the broadcast, the placement
/// of the index dimensions (`placement` says why they go where they go) and the read.
FrameworkOutcome gatherOutcome(Framework framework, const Tensor& input, const GatherSpec& spec,
                               const std::string& placement, std::vector<Step> steps,
                               const Limits& limits);

/// The plan extra gatherOutcome adds (when the index arrays hold at most kExplainedIndexValues
/// values together): {"broadcast": shape, "position": the result dimension the broadcast
/// dimensions start at, "rank": the input's rank, "arrays": [{"name", "dim", "shape", "values"},
/// ...]}, each array's values as it reads them (counted from 0).
inline constexpr const char* kIndexArraysExtra = "index_arrays";
inline constexpr std::int64_t kExplainedIndexValues = 65536;

/// Why element `flat` of an advanced result of shape `outShape` reads what it reads, from the
/// plan's kIndexArraysExtra: "the index arrays broadcast to (2, 3); element [1, 2] takes row
/// idx0[1, 2] = 4 and column idx1[1, 2] = 0". Empty if `extra` is not such an extra or the
/// element lies outside `outShape`.
std::string explainIndexArrays(const Attr& extra, const Shape& outShape, std::int64_t flat);

/// NumPy 1.24's advanced indexing of `items` (every list an index array, a list of bools a mask
/// read as nonzero(), a bool a 0-d mask, integers joining the arrays for the placement rule), in
/// the order mapping.c checks it; for Framework::Jax, jax.numpy's reading of the same: no bounds
/// errors (an index wraps once and clamps), JAX's messages, and "not modelled" where JAX
/// releases disagree.
FrameworkOutcome planNumpyStyle(Framework fw, const std::vector<SubscriptItem>& items,
                                const Tensor& input, const Limits& limits);

/// Why a model cannot read these items at all (a float, a string, a ragged list, a slice bound
/// that is not an integer), or empty. Unlike advancedIndexingReason, index arrays and bools pass.
std::string unreadableItemReason(const std::vector<SubscriptItem>& items, const std::string& who);

/// Whether the subscript compares the tensor with a number anywhere (`x[x > 3]`).
bool hasComparisons(const IndexSpec& spec);
/// Fills in every `x > 3` item's mask (SubscriptItem::comparison) from the input's values, as
/// NumPy, PyTorch and JAX evaluate the comparison before indexing: a boolean array of the
/// input's shape, charged to `limits`. Clears `comparison` on the items it fills. Returns why it
/// cannot (a string or complex input: not modelled), or empty.
std::string resolveComparisons(IndexSpec& spec, const Tensor& input, const Limits& limits);
/// What NumPy, PyTorch and JAX do before they read a subscript's items: a spec without a
/// subscript is not modelled, and comparisons (`x > 3`) are evaluated first, as Python does, and
/// the masked spec planned by `model`. Returns that outcome, or nothing when the spec is to be
/// planned as it is.
std::optional<FrameworkOutcome> planBeforeItems(const FrameworkModel& model, const IndexSpec& spec,
                                                const Tensor& input, const Limits& limits);

/// Whether any item is an index array or a bool (the subscript is advanced indexing).
bool hasArrayItems(const std::vector<SubscriptItem>& items);

} // namespace ss::frameworks
