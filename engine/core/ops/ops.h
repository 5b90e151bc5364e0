// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Each file under ops/ defines a group of ops; registry.cpp lists the groups in the order
// `slicescope-cli ops` shows them. The frameworks library's compare op comes after them
// (core/op_registry.h).

#include "core/op.h"

#include <vector>

namespace ss {

std::vector<OpDef> stridedSliceOps(); // strided_slice, getitem, encode, to_expr, assign, grad
std::vector<OpDef> sliceOps();        // slice, paddle_strided_slice
// split, tile, pad, concat, stack (pack), unstack (unpack), reverse_sequence, reverse, roll,
// transpose
std::vector<OpDef> shapeOps();
// extract_image_patches, space_to_batch(_nd), required_space_to_batch_paddings,
// batch_to_space(_nd), space_to_depth, depth_to_space
std::vector<OpDef> spaceOps();
// gather, gather_nd, unique_with_counts, dynamic_partition, dynamic_stitch, boolean_mask,
// one_hot, sequence_mask
std::vector<OpDef> indexOps();

} // namespace ss
