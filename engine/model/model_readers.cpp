// SPDX-License-Identifier: GPL-3.0-or-later
// The one list of model readers. A new format adds its reader here (and its files beside this).
#include "model/graphdef_reader.h"
#include "model/model_graph.h"
#include "model/onnx_reader.h"
#include "model/tflite_reader.h"

namespace ss::model {

const std::vector<ModelReader>& modelReaders()
{
    // Sniffing tries them in this order: TFLite's identifier ("TFL3" at byte 4) is certain,
    // ONNX's first byte (0x08) only likely, so TFLite goes first.
    static const std::vector<ModelReader> readers = {
        tfliteReader(),
        onnxModelReader(),
        graphDefReader(),
    };
    return readers;
}

} // namespace ss::model
