// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The file a value for a model's run-time input comes from: a NumPy .npy, or an ONNX
// TensorProto .pb as ONNX's node tests ship them (test_data_set_0/input_0.pb). The CLI's
// `model --input` and the Model dock's "From file…" both read through here.

#include "core/tensor.h"

#include <string>

namespace ss {

/// Reads `path` as an ONNX TensorProto if its name ends in ".pb" (any case), else as a .npy
/// (readNpyFile). Either is read under `limits` (the file's size and the element count).
/// Throws OpError naming the file for a file it cannot read.
Tensor readValueFile(const std::string& path, const Limits& limits);

/// Whether readValueFile reads `path` as a TensorProto.
bool isTensorProtoFile(const std::string& path);

} // namespace ss
