// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/model_graph.h"

#include "core/error.h"
#include "core/op.h"
#include "core/strings.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace ss::model {

std::string_view formatName(ModelFormat format)
{
    switch (format) {
    case ModelFormat::Onnx: return "ONNX";
    case ModelFormat::TFLite: return "TFLite";
    case ModelFormat::GraphDef: return "TensorFlow GraphDef";
    }
    return "?";
}

StoredShape StoredShape::known(const Shape& shape)
{
    StoredShape s;
    s.hasRank = true;
    s.dims = shape;
    s.symbols.assign(shape.size(), "");
    return s;
}

bool StoredShape::isFullyKnown() const
{
    return hasRank &&
           std::none_of(dims.begin(), dims.end(), [](std::int64_t d) { return d == kUnknownDim; });
}

std::optional<Shape> StoredShape::shape() const
{
    if (!isFullyKnown()) return std::nullopt;
    return dims;
}

bool StoredShape::agreesWith(const Shape& computed) const
{
    if (!hasRank) return true;
    if (dims.size() != computed.size()) return false;
    for (std::size_t k = 0; k < dims.size(); ++k)
        if (dims[k] != kUnknownDim && dims[k] != computed[k]) return false;
    return true;
}

std::string StoredShape::text() const
{
    if (!hasRank) return "?";
    std::string t = "(";
    for (std::size_t k = 0; k < dims.size(); ++k) {
        if (k) t += ", ";
        if (dims[k] != kUnknownDim)
            t += std::to_string(dims[k]);
        else if (k < symbols.size() && !symbols[k].empty())
            t += symbols[k];
        else
            t += "?";
    }
    if (dims.size() == 1) t += ",";
    return t + ")";
}

namespace {

std::string lowerExtension(const std::string& path)
{
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

std::string readWholeFile(const std::string& path, const ReadLimits& limits)
{
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) invalidArgument(path + ": no such file");
    if (std::filesystem::is_directory(status))
        invalidArgument(path + ": is a directory, not a model file");
    if (!std::filesystem::is_regular_file(status)) invalidArgument(path + ": not a regular file");
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) invalidArgument(path + ": cannot read its size: " + ec.message());
    if (std::int64_t(size) > limits.maxFileBytes)
        invalidArgument(path + ": " + std::to_string(size) + " bytes is more than the " +
                        std::to_string(limits.maxFileBytes) +
                        " bytes SliceScope reads from a model file");
    std::ifstream in(path, std::ios::binary);
    if (!in) invalidArgument(path + ": cannot open the file");
    std::string bytes(std::size_t(size), '\0');
    in.read(bytes.data(), std::streamsize(size));
    if (in.gcount() != std::streamsize(size))
        invalidArgument(path + ": the file changed or could not be read while reading it");
    return bytes;
}

} // namespace

ModelFile readModelFile(const std::string& path, const ReadLimits& limits)
{
    limits.throwIfCancelled();
    const std::string bytes = readWholeFile(path, limits);
    limits.throwIfCancelled();
    if (bytes.empty()) invalidArgument(path + ": the file is empty");
    const std::string ext = lowerExtension(path);
    const std::string_view head(bytes.data(), std::min<std::size_t>(bytes.size(), 64));
    const ModelReader* chosen = nullptr;
    for (const ModelReader& r : modelReaders())
        if (std::find(r.extensions.begin(), r.extensions.end(), ext) != r.extensions.end()) {
            chosen = &r;
            break;
        }
    if (!chosen)
        for (const ModelReader& r : modelReaders())
            if (r.sniff && r.sniff(head)) {
                chosen = &r;
                break;
            }
    if (!chosen) {
        std::string known;
        for (const ModelReader& r : modelReaders())
            for (const std::string& e : r.extensions)
                known += (known.empty() ? "" : ", ") + e;
        invalidArgument(path + ": not a model file SliceScope reads (known: " +
                        (known.empty() ? std::string("none") : known) + ")");
    }
    try {
        return chosen->read(path, bytes, limits);
    } catch (const OpError& e) {
        throw OpError(e.code(), path + ": " + e.what());
    } catch (const std::bad_alloc&) {
        throw OpError(ErrorCode::ResourceExhausted,
                      path + ": reading the file needs more memory than there is");
    }
}

std::string slicingNodesText(const ModelFile& file)
{
    const std::string of = " of " + num(file.totalNodes);
    if (!file.nodes.empty())
        return countText(std::int64_t(file.nodes.size()), "slicing node", "slicing nodes") + of;
    if (file.opCounts.empty()) return "no slicing node" + of + "; the graph has no node";
    std::vector<std::pair<std::string, std::int64_t>> ops(file.opCounts.begin(),
                                                          file.opCounts.end());
    std::stable_sort(ops.begin(), ops.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    constexpr std::size_t kNamed = 5;
    const std::size_t named = std::min(ops.size(), kNamed);
    std::string text = "no slicing node" + of + "; its ops: ";
    for (std::size_t k = 0; k < named; ++k)
        text += (k == 0 ? "" : ", ") + ops[k].first + " (" + num(ops[k].second) + ")";
    if (ops.size() > named)
        text += " and " + countText(std::int64_t(ops.size() - named), "other", "others");
    return text;
}

int setInputValue(ModelFile& file, const std::string& valueName, const Tensor& value)
{
    const ModelReader* reader = nullptr;
    for (const ModelReader& r : modelReaders())
        if (r.format == file.format) reader = &r;
    int taken = 0;
    for (ModelNode& node : file.nodes) {
        bool changed = false;
        for (ModelValue& in : node.inputs) {
            if (in.name.empty() || in.name != valueName) continue;
            if (in.dtype && *in.dtype != value.dtype())
                invalidArgument("the value given for '" + valueName + "' is " +
                                std::string(dtypeName(value.dtype())) + ", but the file stores " +
                                in.dtypeText);
            if (!in.stored.agreesWith(value.shape()))
                invalidArgument("the value given for '" + valueName + "' has shape " +
                                shapeTuple(value.shape()) + ", but the file stores " +
                                in.stored.text());
            in.constant = value;
            changed = true;
            ++taken;
        }
        if (changed && reader && reader->translate) reader->translate(node);
    }
    return taken;
}

std::vector<std::vector<Tensor>> makeRequestInputs(const NodeRequest& request, const Limits& limits)
{
    std::vector<std::vector<Tensor>> inputs;
    for (const auto& [name, tensors] : request.inputs) {
        std::vector<Tensor> list;
        for (const RequestTensor& t : tensors)
            list.push_back(t.value ? *t.value
                                   : makeFilled(t.dtype, t.shape, Fill::Arange, 0, limits));
        inputs.push_back(std::move(list));
    }
    return inputs;
}

NodeCheck checkNode(const ModelNode& node, const Limits& limits)
{
    NodeCheck check;
    if (!node.request) {
        check.unchecked = node.reason;
        return check;
    }
    check.computed.assign(node.outputs.size(), std::nullopt);
    const OpDef* op = findOp(node.request->op);
    if (!op) {
        check.error = "internal: no engine op named " + node.request->op;
        return check;
    }
    std::vector<Shape> shapes;
    try {
        // Planning needs the inputs' values only where they are arguments (indices, paddings):
        // the others are generated, so the limits bound what this costs.
        OpCall call(*op, makeRequestInputs(*node.request, limits), node.request->attrs, limits);
        const OpPlan plan = op->plan(call);
        for (const OutputPlan& out : plan.outputs)
            shapes.push_back(out.shape);
    } catch (const OpError& e) {
        check.error = std::string(errorCodeName(e.code())) + ": " + e.what();
        // The file says this node runs; a limit of this machine (a node of 2^31 elements and
        // more) is no fault of the file: a valid file failed `model --check`.
        check.disagrees = e.code() != ErrorCode::ResourceExhausted;
        if (!check.disagrees) check.unchecked = check.error;
        return check;
    } catch (const std::bad_alloc&) {
        check.error = "resource_exhausted: out of memory";
        check.unchecked = check.error;
        return check;
    }
    const std::vector<int>& map = node.request->outputOf;
    for (std::size_t k = 0; k < node.outputs.size(); ++k) {
        const int from = map.empty() ? int(k) : (k < map.size() ? map[k] : -1);
        if (from < 0) continue;
        if (std::size_t(from) >= shapes.size()) {
            check.disagrees = true; // the file has more outputs than the engine op gives
            continue;
        }
        check.computed[k] = shapes[std::size_t(from)];
        if (!node.outputs[k].stored.agreesWith(shapes[std::size_t(from)])) check.disagrees = true;
    }
    const bool compared = std::any_of(node.outputs.begin(), node.outputs.end(),
                                      [](const ModelValue& v) { return v.stored.hasRank; });
    if (!check.disagrees && !compared) check.unchecked = "the file stores no output shape";
    return check;
}

} // namespace ss::model
