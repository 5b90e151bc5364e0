// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// ONNX's node tests as SliceScope runs them: a directory holds model.onnx and
// test_data_set_0/ with input_0.pb, input_1.pb, ... (the graph's run-time inputs in order) and
// output_0.pb, ... (its outputs in order), each a serialized TensorProto. The inputs are given
// to the file's nodes, the nodes that can run do, and each output is compared with its file.
// `slicescope-cli model DIR` and `model FILE --test-data DIR` print what runModelTestData finds.

#include "core/executor.h"
#include "core/tensor.h"
#include "model/model_graph.h"

#include <string>
#include <vector>

namespace ss {

/// One graph output compared with its output_K.pb.
struct TestDataOutput
{
    enum class State { Agrees, Differs, NotComputed };
    std::string name; ///< the graph output's name
    std::string file; ///< "output_0.pb"
    State state = State::NotComputed;
    /// Differs: how ("shape (2, 3), expected (3, 2)", "3 of 6 elements differ, the first at
    /// [0, 1]: 4, expected 5"); NotComputed: why no node computed it.
    std::string detail;
};

/// What a node test's data found.
struct TestDataRun
{
    std::string dir;         ///< the data set's directory
    std::int64_t inputs = 0; ///< input_K.pb files given
    std::vector<TestDataOutput> outputs;
    std::vector<std::string> errors; ///< nodes that had their values but did not run
};

/// The model file a directory holds: an ONNX node test's DIR/model.onnx, or a TensorFlow
/// SavedModel's DIR/saved_model.pb (the directory tf.saved_model.save writes; or
/// saved_model.pbtxt). Throws OpError(bad_request) naming both if DIR holds neither.
std::string modelInDirectory(const std::string& dir);
/// The data set a node test directory holds first (DIR/test_data_set_0), or "" if none.
std::string nodeTestData(const std::string& dir);

/// Gives input_K.pb of `dir` to `file.runTimeInputs[K]` (setInputValue) and returns the names
/// given, in order. Throws OpError naming the file for a data file that cannot be read, more
/// inputs than the graph takes, or an input that contradicts what the file stores. The Model
/// dock gives a node test's model.onnx its data so.
std::vector<std::string> giveModelTestInputs(model::ModelFile& file, const std::string& dir,
                                             const Limits& limits);

/// giveModelTestInputs, then runs the nodes that can run (runKnownNodes) and compares every
/// output_K.pb with `file.graphOutputs[K]`. Throws as giveModelTestInputs does.
TestDataRun runModelTestData(model::ModelFile& file, const std::string& dir, const Limits& limits,
                             Executor& executor, JobContext* context = nullptr);

/// How `got` differs from `expected` ("" if identical): dtype, shape or the elements.
std::string tensorDifference(const Tensor& got, const Tensor& expected);

} // namespace ss
