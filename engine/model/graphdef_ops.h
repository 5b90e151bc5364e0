// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The TensorFlow graph reader's op table (graphdef_ops.cpp): the ops of the slicing family by
// TensorFlow's names, their outputs and their translations. The reader includes this.

#include "model/model_graph.h"

#include <string>
#include <vector>

namespace ss::model {

/// Whether the table has op `op` ("StridedSlice").
bool isGraphDefFamilyOp(const std::string& op);

/// How many outputs a family node has by its op and attributes (Split's num_split, Unpack's num,
/// Unique's two), where the graph stores no `_output_shapes`.
int graphDefOutputCount(const ModelNode& node);

/// The family's ops, in the table's order.
std::vector<std::string> graphDefOpNames();

/// Translates one node (op, rawAttrs, inputs' constants) into display attributes and a request
/// or a reason; the reader's `translate`.
void translateGraphDefNode(ModelNode& node);

} // namespace ss::model
