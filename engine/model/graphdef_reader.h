// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The TensorFlow graph reader: a frozen GraphDef (.pb binary, .pbtxt text) or a SavedModel's
// saved_model.pb, read with our own message definitions (graphdef.proto). Its nodes are the ops
// of the slicing family by TensorFlow's names (its op table, graphdef_ops.cpp), translated to
// engine requests with TensorFlow's semantics (the engine's own).

#include "model/model_graph.h"

namespace ss::model {

/// The reader for .pb and .pbtxt files: a GraphDef, or a SavedModel (its first MetaGraphDef's
/// graph). Stored shapes come from each node's `_output_shapes` attribute (a Placeholder's
/// `shape`, a Const's value); constants from Const nodes.
ModelReader graphDefReader();

/// Reads TensorFlow node text as a .pbtxt prints it: `node { ... }` blocks (a GraphDef), or one
/// node's fields (`name: "s" op: "StridedSlice" input: "x" ...`). Const nodes in the text give
/// their values to the inputs they feed. Throws OpError(parse_error) with the position of the
/// first problem and the text there.
ModelFile readGraphDefText(const std::string& text, const ReadLimits& limits = {});

} // namespace ss::model
