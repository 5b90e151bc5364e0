// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/frameworks/framework_model.h"

namespace ss {

/// ONNX's reading of a basic-indexing spec (see onnx_model.cpp for the version and rules).
class OnnxModel final : public FrameworkModel
{
public:
    Framework id() const override;
    std::string_view key() const override { return "onnx"; }
    std::string_view title() const override;
    FrameworkOutcome plan(const IndexSpec& spec, const Tensor& input,
                          const Limits& limits) const override;
    std::string code(const IndexSpec& spec, const std::optional<Shape>& shape) const override;
};

} // namespace ss
