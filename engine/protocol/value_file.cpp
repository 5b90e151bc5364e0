// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/value_file.h"

#include "model/onnx_reader.h"
#include "protocol/npy.h"
#include "protocol/read_file.h"

#include <algorithm>
#include <cctype>

namespace ss {

bool isTensorProtoFile(const std::string& path)
{
    std::string lower = path;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return lower.ends_with(".pb");
}

Tensor readValueFile(const std::string& path, const Limits& limits)
{
    if (!isTensorProtoFile(path)) return readNpyFile(path, limits);
    model::ReadLimits read;
    read.maxFileBytes = std::min<std::int64_t>(limits.maxBytes, read.maxFileBytes);
    read.maxConstantElements = limits.maxElements;
    const std::string bytes = readRegularFile(path, read.maxFileBytes);
    Tensor value = model::readOnnxTensor(path, bytes, read);
    limits.check(value.shape(), value.dtype(), path);
    return value;
}

} // namespace ss
