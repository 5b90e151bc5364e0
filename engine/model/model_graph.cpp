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

std::vector<std::string> givableValues(const ModelFile& file)
{
    std::vector<std::string> names = file.runTimeInputs;
    for (const ModelNode& node : file.nodes)
        for (const ModelValue& in : node.inputs)
            if (!in.name.empty() && !in.constant &&
                std::find(names.begin(), names.end(), in.name) == names.end())
                names.push_back(in.name);
    return names;
}

namespace {
// Gives every node input named `valueName` the value and translates those nodes again (what
// setInputValue does once the name is known to be the graph's); returns how many took it.
int giveValue(ModelFile& file, const std::string& valueName, const Tensor& value)
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
} // namespace

int setInputValue(ModelFile& file, const std::string& valueName, const Tensor& value)
{
    const auto reads = [&](const ModelNode& node) {
        return std::any_of(node.inputs.begin(), node.inputs.end(),
                           [&](const ModelValue& in) { return in.name == valueName; });
    };
    const auto& inputs = file.runTimeInputs;
    if (valueName.empty() || (std::find(inputs.begin(), inputs.end(), valueName) == inputs.end() &&
                              std::none_of(file.nodes.begin(), file.nodes.end(), reads))) {
        const std::vector<std::string> names = givableValues(file);
        badRequest("the graph has no value '" + valueName + "' to give: " +
                   (names.empty() ? std::string("it leaves none to run time")
                                  : "it leaves " + joinText(names, [](const std::string& name) {
                                        return "'" + name + "'";
                                    }) + " to run time"));
    }
    return giveValue(file, valueName, value);
}

namespace {

// The request's inputs: constants as they are, the values known only at run time as `fill`.
std::vector<std::vector<Tensor>> requestInputs(const NodeRequest& request, const Limits& limits,
                                               Fill fill)
{
    std::vector<std::vector<Tensor>> inputs;
    for (const auto& [name, tensors] : request.inputs) {
        std::vector<Tensor> list;
        for (const RequestTensor& t : tensors)
            list.push_back(t.value ? *t.value : makeFilled(t.dtype, t.shape, fill, 0, limits));
        inputs.push_back(std::move(list));
    }
    return inputs;
}

// The output shapes `op` plans for the request (no elements are moved).
std::vector<Shape> plannedShapes(const OpDef& op, const NodeRequest& request, const Limits& limits,
                                 Fill fill)
{
    // Planning needs the inputs' values only where they are arguments (indices, paddings): the
    // others are generated, so the limits bound what this costs.
    OpCall call(op, requestInputs(request, limits, fill), request.attrs, limits);
    std::vector<Shape> shapes;
    for (const OutputPlan& out : op.plan(call).outputs)
        shapes.push_back(out.shape);
    return shapes;
}

// The outputs whose size follows from values known only at run time (unique's y, a run-time
// mask's boolean_mask): planned again with those values all zeros instead of an arange (all
// the same instead of all different), their shapes change. Empty if every input is a constant
// or the second plan is refused.
std::vector<Shape> shapesOfOtherValues(const OpDef& op, const NodeRequest& request,
                                       const Limits& limits)
{
    const bool runTime =
        std::any_of(request.inputs.begin(), request.inputs.end(), [](const auto& in) {
            return std::any_of(in.second.begin(), in.second.end(),
                               [](const RequestTensor& t) { return !t.value; });
        });
    if (!runTime) return {};
    try {
        return plannedShapes(op, request, limits, Fill::Zeros);
    } catch (const OpError&) {
        return {};
    } catch (const std::bad_alloc&) {
        return {};
    }
}

} // namespace

std::vector<std::vector<Tensor>> makeRequestInputs(const NodeRequest& request, const Limits& limits)
{
    return requestInputs(request, limits, Fill::Arange);
}

namespace {

bool hasEveryValue(const NodeRequest& request)
{
    return std::all_of(request.inputs.begin(), request.inputs.end(), [](const auto& in) {
        return std::all_of(in.second.begin(), in.second.end(),
                           [](const RequestTensor& t) { return bool(t.value); });
    });
}

} // namespace

std::vector<Tensor> computeRequest(const NodeRequest& request, const Limits& limits,
                                   Executor& executor, JobContext* context)
{
    const OpDef* op = findOp(request.op);
    if (!op) throw OpError(ErrorCode::Internal, "no engine op named " + request.op);
    OpCall call(*op, makeRequestInputs(request, limits), request.attrs, limits);
    call.setExecutor(&executor);
    const OpPlan plan = op->plan(call);
    return executePlan(plan, call.allInputs(), executor, context);
}

ModelRun runKnownNodes(ModelFile& file, const Limits& limits, Executor& executor,
                       JobContext* context)
{
    ModelRun run;
    // setInputValue translates later nodes again; the list itself never changes size.
    for (const ModelNode& node : file.nodes) {
        if (!node.request || !hasEveryValue(*node.request)) continue;
        try {
            const std::vector<Tensor> outputs =
                computeRequest(*node.request, limits, executor, context);
            const std::vector<int>& map = node.request->outputOf;
            for (std::size_t k = 0; k < node.outputs.size(); ++k) {
                const int from = map.empty() ? int(k) : (k < map.size() ? map[k] : -1);
                const std::string& name = node.outputs[k].name;
                if (from < 0 || std::size_t(from) >= outputs.size() || name.empty()) continue;
                run.values[name] = outputs[std::size_t(from)];
                // Not setInputValue: a graph output that no node reads is no misspelt name.
                giveValue(file, name, outputs[std::size_t(from)]);
            }
        } catch (const OpError& e) {
            if (e.code() == ErrorCode::Cancelled) throw;
            run.errors.push_back(node.name + ": " + std::string(errorCodeName(e.code())) + ": " +
                                 e.what());
        }
    }
    return run;
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
        shapes = plannedShapes(*op, *node.request, limits, Fill::Arange);
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
    const std::vector<Shape> other = shapesOfOtherValues(*op, *node.request, limits);
    std::vector<std::string> valueSized; // outputs whose size the run-time values decide
    bool compared = false;
    const std::vector<int>& map = node.request->outputOf;
    for (std::size_t k = 0; k < node.outputs.size(); ++k) {
        const int from = map.empty() ? int(k) : (k < map.size() ? map[k] : -1);
        if (from < 0) continue;
        if (std::size_t(from) >= shapes.size()) {
            check.disagrees = true; // the file has more outputs than the engine op gives
            continue;
        }
        const Shape& shape = shapes[std::size_t(from)];
        check.computed[k] = shape;
        if (std::size_t(from) < other.size() && other[std::size_t(from)] != shape) {
            valueSized.push_back("'" + node.outputs[k].name + "'");
            continue; // the stand-in values' size says nothing of the file's
        }
        compared = compared || node.outputs[k].stored.hasRank;
        if (!node.outputs[k].stored.agreesWith(shape)) check.disagrees = true;
    }
    if (!check.disagrees && !valueSized.empty()) {
        const std::string last = valueSized.back();
        valueSized.pop_back();
        check.unchecked =
            valueSized.empty()
                ? "the size of " + last + " depends on the values its inputs hold at run time"
                : "the sizes of " + joinText(valueSized, [](const std::string& s) { return s; }) +
                      " and " + last + " depend on the values its inputs hold at run time";
    } else if (!check.disagrees && !compared)
        check.unchecked = "the file stores no output shape";
    return check;
}

} // namespace ss::model
