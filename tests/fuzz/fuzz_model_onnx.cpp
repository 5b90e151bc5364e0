// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: any bytes as an .onnx file. Reading must return the model or throw OpError (never
// crash, hang or exhaust memory), and every node it lists must translate and plan without
// crashing: the engine may refuse a node, with an error.
#include "core/error.h"
#include "model/model_graph.h"
#include "model/onnx_reader.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const ss::model::ModelReader reader = ss::model::onnxModelReader();
    ss::model::ReadLimits readLimits;
    readLimits.maxConstantElements = 1 << 12;
    ss::Limits limits = ss::Limits::machineDefault();
    limits.maxElements = 1 << 16;
    limits.maxBytes = std::int64_t(1) << 26;
    ss::model::ModelFile file;
    try {
        file = reader.read("fuzz.onnx", std::string(reinterpret_cast<const char*>(data), size),
                           readLimits);
    } catch (const ss::OpError&) {
        return 0;
    }
    for (const ss::model::ModelNode& node : file.nodes) {
        const ss::model::NodeCheck check = ss::model::checkNode(node, limits);
        // A request the engine accepts computes one shape per output it maps.
        if (check.error.empty() && node.request && check.computed.size() != node.outputs.size())
            std::abort();
    }
    return 0;
}
