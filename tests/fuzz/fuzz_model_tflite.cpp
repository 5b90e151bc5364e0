// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: any bytes as a .tflite file. The TFLite reader must return a model or throw
// OpError (never crash, hang or read outside the bytes), and every request it makes must plan or
// be refused by the engine with an OpError.
#include "core/error.h"
#include "model/model_graph.h"
#include "model/tflite_reader.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    ss::model::ReadLimits readLimits;
    readLimits.maxConstantElements = 1 << 12;
    ss::Limits limits = ss::Limits::machineDefault();
    limits.maxElements = 1 << 16;
    limits.maxBytes = 1 << 20;
    static const ss::model::ModelReader reader = ss::model::tfliteReader();
    ss::model::ModelFile file;
    try {
        file = reader.read("fuzz.tflite", std::string(reinterpret_cast<const char*>(data), size),
                           readLimits);
    } catch (const ss::OpError&) {
        return 0;
    }
    for (const ss::model::ModelNode& node : file.nodes)
        (void)ss::model::checkNode(node, limits); // refusals are reported, never thrown
    return 0;
}
