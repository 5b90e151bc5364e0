// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/model_test_data.h"

#include "core/error.h"
#include "core/slice_diagnosis.h"
#include "core/strings.h"
#include "protocol/text_format.h"
#include "protocol/value_file.h"

#include <filesystem>

namespace ss {

namespace fs = std::filesystem;

namespace {

// Data files named PREFIX_0.pb, PREFIX_1.pb, ... in `dir`, up to the first missing one.
std::vector<std::string> numberedFiles(const std::string& dir, const std::string& prefix)
{
    std::vector<std::string> files;
    for (int k = 0;; ++k) {
        const fs::path path = fs::path(dir) / (prefix + "_" + std::to_string(k) + ".pb");
        std::error_code ec;
        if (!fs::exists(path, ec)) return files;
        files.push_back(path.string());
    }
}

// Why no run computed `name`: the node that makes it, and what that node lacks.
std::string whyNotComputed(const model::ModelFile& file, const std::string& name,
                           const model::ModelRun& run)
{
    for (const model::ModelNode& node : file.nodes) {
        bool makes = false;
        for (const model::ModelValue& out : node.outputs)
            makes = makes || out.name == name;
        if (!makes) continue;
        for (const std::string& e : run.errors)
            if (e.starts_with(node.name + ": ")) return e;
        if (!node.request) return node.name + " (" + node.op + "): " + node.reason;
        for (const model::ModelValue& in : node.inputs)
            if (!in.name.empty() && !in.constant)
                return node.name + " (" + node.op + ") reads '" + in.name +
                       "', which no input and no node of the slicing family gives";
        return node.name + " (" + node.op + ") has no such output in SliceScope's op";
    }
    return "no node of the slicing family makes it";
}

// Element `i` of `t` as a scalar (a string tensor cannot be viewed in place).
Tensor element(const Tensor& t, std::int64_t i)
{
    if (t.dtype() != DType::String) return t.view(i, {});
    Tensor e = Tensor::empty(DType::String, {});
    e.data<std::string>()[0] = t.data<std::string>()[i];
    e.setHoldsBytes(t.holdsBytes());
    return e;
}

} // namespace

std::string modelInDirectory(const std::string& dir)
{
    for (const char* name : {"model.onnx", "saved_model.pb", "saved_model.pbtxt"}) {
        const fs::path model = fs::path(dir) / name;
        std::error_code ec;
        if (fs::is_regular_file(model, ec)) return model.string();
    }
    badRequest(dir + " is a directory without model.onnx (an ONNX node test holds one) or "
                     "saved_model.pb (a TensorFlow SavedModel's)");
}

std::string nodeTestData(const std::string& dir)
{
    const fs::path data = fs::path(dir) / "test_data_set_0";
    std::error_code ec;
    return fs::is_directory(data, ec) ? data.string() : std::string();
}

std::string tensorDifference(const Tensor& got, const Tensor& expected)
{
    if (got.dtype() != expected.dtype())
        return "dtype " + std::string(dtypeName(got.dtype())) + ", expected " +
               std::string(dtypeName(expected.dtype()));
    if (got.shape() != expected.shape())
        return "shape " + shapeTuple(got.shape()) + ", expected " + shapeTuple(expected.shape());
    std::int64_t differing = 0, first = -1;
    for (std::int64_t i = 0; i < got.size(); ++i)
        if (!element(got, i).identical(element(expected, i))) {
            ++differing;
            if (first < 0) first = i;
        }
    if (differing == 0) return {};
    return num(differing) + " of " + countText(got.size(), "element", "elements") +
           " differ, the first at " + positionText(first, got.shape()) + ": " +
           formatTensor(element(got, first)) + ", expected " +
           formatTensor(element(expected, first));
}

std::vector<std::string> giveModelTestInputs(model::ModelFile& file, const std::string& dir,
                                             const Limits& limits)
{
    if (file.format != model::ModelFormat::Onnx)
        badRequest(file.path + " is a " + std::string(model::formatName(file.format)) +
                   " file: test data sets (input_K.pb, output_K.pb) are ONNX's");
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) badRequest(dir + ": no such test data directory");
    const std::vector<std::string> inputs = numberedFiles(dir, "input");
    if (inputs.size() > file.runTimeInputs.size())
        badRequest(dir + " has " + countText(std::int64_t(inputs.size()), "input", "inputs") +
                   ", but " + file.path + " takes " + num(std::int64_t(file.runTimeInputs.size())) +
                   " at run time");
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        const Tensor value = readValueFile(inputs[k], limits); // its errors name the file
        try {
            model::setInputValue(file, file.runTimeInputs[k], value);
        } catch (const OpError& e) {
            throw OpError(e.code(), inputs[k] + ": " + e.what());
        }
    }
    return {file.runTimeInputs.begin(), file.runTimeInputs.begin() + std::ssize(inputs)};
}

TestDataRun runModelTestData(model::ModelFile& file, const std::string& dir, const Limits& limits,
                             Executor& executor, JobContext* context)
{
    TestDataRun result;
    result.dir = dir;
    result.inputs = std::ssize(giveModelTestInputs(file, dir, limits));
    const model::ModelRun run = model::runKnownNodes(file, limits, executor, context);
    result.errors = run.errors;
    const std::vector<std::string> outputs = numberedFiles(dir, "output");
    for (std::size_t k = 0; k < outputs.size() && k < file.graphOutputs.size(); ++k) {
        TestDataOutput out;
        out.name = file.graphOutputs[k];
        out.file = fs::path(outputs[k]).filename().string();
        const auto got = run.values.find(out.name);
        if (got == run.values.end()) {
            out.detail = whyNotComputed(file, out.name, run);
        } else {
            out.detail = tensorDifference(got->second, readValueFile(outputs[k], limits));
            out.state =
                out.detail.empty() ? TestDataOutput::State::Agrees : TestDataOutput::State::Differs;
        }
        result.outputs.push_back(std::move(out));
    }
    return result;
}

} // namespace ss
