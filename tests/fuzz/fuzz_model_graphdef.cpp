// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: any bytes as a TensorFlow graph, binary (.pb) and text (.pbtxt). The reader must
// return a model or throw OpError, and every request it makes must plan or be refused by the
// engine without throwing.
#include "core/error.h"
#include "model/graphdef_reader.h"
#include "model/model_graph.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    ss::model::ReadLimits readLimits;
    readLimits.maxConstantElements = 1 << 12;
    ss::Limits limits = ss::Limits::machineDefault();
    limits.maxElements = 1 << 16;
    limits.maxBytes = 1 << 20;
    static const ss::model::ModelReader reader = ss::model::graphDefReader();
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    for (const char* name : {"fuzz.pb", "fuzz.pbtxt", "saved_model.pb"}) {
        try {
            const ss::model::ModelFile file = reader.read(name, bytes, readLimits);
            for (const ss::model::ModelNode& node : file.nodes)
                (void)ss::model::checkNode(node, limits);
        } catch (const ss::OpError&) {
        }
    }
    return 0;
}
