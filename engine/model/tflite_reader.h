// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The TensorFlow Lite reader: a .tflite file (a FlatBuffer with file identifier "TFL3", read with
// our own schema subset, tflite_schema.fbs) becomes a ModelFile whose nodes are the operators of
// the slicing family, each translated to an engine request with TFLite's semantics.

#include "model/model_graph.h"

namespace ss::model {

/// The reader for .tflite files: verifies the whole buffer with FlatBuffers' Verifier before
/// reading anything (a hostile file gets invalid_argument, never a crash), then lists every
/// operator of every subgraph that its op table (tflite_ops.cpp, `ops`) translates.
ModelReader tfliteReader();

} // namespace ss::model
