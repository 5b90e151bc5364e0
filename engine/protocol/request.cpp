// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/request.h"

#include "core/decode.h"
#include "core/frameworks/op_equivalents.h"
#include "core/memory_budget.h"
#include "model/model_graph.h"
#include "protocol/slice_program.h"
#include "protocol/tensor_json.h"

#include <algorithm>
#include <charconv>
#include <istream>
#include <limits>
#include <new>
#include <ostream>

namespace ss {

namespace {

using Clock = std::chrono::steady_clock;

// Reading a request line takes up to this many bytes per byte of the line: the JSON tree (about
// 40 bytes a value, with its vectors' spare capacity), the request's copies of the id and the
// attributes, and the echoed id in the response. Measured with /usr/bin/time -v on 16-30 MB lines
// of every shape (flat and nested number lists, empty lists and objects, strings; as id, data
// and attribute values): 28x to 72x, the most for a long attribute list
// (engine/protocol/README.md).
constexpr std::int64_t kParseBytesPerLineByte = 80;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

bool readFlag(const Json& v, const std::string& name)
{
    if (!v.isBool()) badRequest(name + " must be true or false, got " + std::string(v.typeName()));
    return v.toBool();
}

// `framework`: whose reading of a subscript op's spec the request runs.
Framework readFramework(const Json& v, const OpDef& op)
{
    if (!v.isString())
        badRequest("framework must be a string (" + subscriptFrameworkKeys() + "), got " +
                   std::string(v.typeName()));
    const FrameworkModel* model = findFramework(v.toString());
    if (!model || !readsSubscriptOps(model->id()))
        badRequest("unknown framework '" + v.toString() + "' (a request reads with " +
                   subscriptFrameworkKeys() + "; the compare op reads with every framework)");
    if (model->id() != Framework::TensorFlow && !op.indexSpec)
        badRequest("framework '" + v.toString() +
                   "' reads the spec of getitem or strided_slice; op '" + op.name +
                   "' is TensorFlow's alone");
    return model->id();
}

Emit readEmit(const Json& v)
{
    const std::string text = v.isString() ? v.toString() : "";
    if (text == "data") return Emit::Data;
    if (text == "summary") return Emit::Summary;
    if (text == "none") return Emit::None;
    badRequest("emit must be \"data\", \"summary\" or \"none\"");
}

// A tensor error, prefixed with the input it belongs to.
template <class F> auto readInput(const std::string& where, const F& read)
{
    try {
        return read();
    } catch (const OpError& e) {
        throw OpError(e.code(), where + ": " + e.what());
    }
}

std::string inputNames(const OpDef& op)
{
    if (op.inputs.empty()) return "it takes no inputs";
    std::string names = "its inputs: ";
    for (std::size_t k = 0; k < op.inputs.size(); ++k)
        names += (k ? ", " : "") + op.inputs[k].name;
    return names;
}

std::vector<std::vector<TensorSpec>> readInputs(const OpDef& op, const Json* inputs,
                                                const Limits& limits)
{
    if (inputs && !inputs->isObject())
        badRequest("inputs must be an object (input name -> tensor), got " +
                   std::string(inputs->typeName()));
    if (inputs)
        for (const Json::Member& member : inputs->toObject()) {
            const std::string& name = member.first;
            const bool known = std::any_of(op.inputs.begin(), op.inputs.end(),
                                           [&](const InputDef& d) { return d.name == name; });
            if (!known)
                badRequest("op '" + op.name + "' has no input '" + name + "' (" + inputNames(op) +
                           ")");
        }
    std::vector<std::vector<TensorSpec>> result;
    for (const InputDef& def : op.inputs) {
        const Json* value = inputs ? inputs->find(def.name) : nullptr;
        if (!value) badRequest("op '" + op.name + "' needs input '" + def.name + "'");
        const std::string where = "input '" + def.name + "'";
        std::vector<TensorSpec> tensors;
        if (def.isList) {
            if (!value->isArray())
                badRequest(where + " of op '" + op.name + "' takes a list of tensors, got " +
                           std::string(value->typeName()));
            const auto& items = value->toArray();
            for (std::size_t k = 0; k < items.size(); ++k)
                tensors.push_back(readInput(where + "[" + std::to_string(k) + "]",
                                            [&] { return tensorSpecFromJson(items[k], limits); }));
        } else {
            if (value->isArray())
                badRequest(where + " of op '" + op.name + "' takes one tensor, not a list");
            tensors.push_back(readInput(where, [&] { return tensorSpecFromJson(*value, limits); }));
        }
        result.push_back(std::move(tensors));
    }
    return result;
}

void writeInts(JsonWriter& w, const std::vector<std::int64_t>& values)
{
    w.array(values.data(), std::int64_t(values.size()));
}

void writeOptional(JsonWriter& w, const std::optional<std::int64_t>& v)
{
    if (v)
        w.value(*v);
    else
        w.null();
}

void writeDecode(JsonWriter& w, const StridedSliceDecode& d, bool withText)
{
    w.beginObject();
    w.key("spec");
    w.beginArray();
    for (const SpecEntry& e : d.spec) {
        w.beginObject();
        w.key("kind");
        w.value(specKindName(e.kind));
        if (withText) {
            w.key("text");
            w.value(e.text);
        }
        w.key("begin");
        writeOptional(w, e.begin);
        w.key("end");
        writeOptional(w, e.end);
        w.key("stride");
        writeOptional(w, e.stride);
        w.endObject();
    }
    w.endArray();

    const SparseSpec& s = d.sparse;
    w.key("sparse");
    w.beginObject();
    w.key("begin");
    writeInts(w, s.begin);
    w.key("end");
    writeInts(w, s.end);
    w.key("strides");
    writeInts(w, s.strides);
    for (const auto& [name, mask] : {std::pair{"begin_mask", s.beginMask},
                                     {"end_mask", s.endMask},
                                     {"ellipsis_mask", s.ellipsisMask},
                                     {"new_axis_mask", s.newAxisMask},
                                     {"shrink_axis_mask", s.shrinkAxisMask}}) {
        w.key(name);
        w.value(std::int64_t(mask));
    }
    w.endObject();

    w.key("dense");
    w.beginObject();
    w.key("begin");
    writeInts(w, d.dense.begin);
    w.key("end");
    writeInts(w, d.dense.end);
    w.key("strides");
    writeInts(w, d.dense.strides);
    w.key("begin_mask");
    w.value(d.dense.beginMask);
    w.key("end_mask");
    w.value(d.dense.endMask);
    w.key("shrink_axis_mask");
    w.value(d.dense.shrinkAxisMask);
    w.endObject();

    w.key("dims");
    w.beginArray();
    for (const DimDecode& dim : d.dims) {
        w.beginObject();
        for (const auto& [name, v] : {std::pair{"dim", std::int64_t(dim.dim)},
                                      {"size", dim.size},
                                      {"begin", dim.begin},
                                      {"end", dim.end},
                                      {"stride", dim.stride},
                                      {"length", dim.length}}) {
            w.key(name);
            w.value(v);
        }
        w.key("shrink");
        w.value(dim.shrink);
        w.key("notes");
        w.beginArray();
        for (const std::string& note : dim.notes)
            w.value(note);
        w.endArray();
        w.endObject();
    }
    w.endArray();

    w.key("processing_shape");
    writeInts(w, d.processingShape);
    w.key("final_shape");
    writeInts(w, d.finalShape);
    w.key("is_identity");
    w.value(d.isIdentity);
    w.key("is_simple_slice");
    w.value(d.isSimpleSlice);
    w.key("slice_dim0");
    w.value(d.sliceDim0);
    w.endObject();
}

void writeSources(JsonWriter& w, const SourceList& sources)
{
    w.beginArray();
    char buf[48];
    for (const std::int64_t s : sources) {
        if (s == kNoSource) {
            w.null();
            continue;
        }
        char* p = buf;
        *p++ = '[';
        p = std::to_chars(p, buf + sizeof buf, sourceSlot(s)).ptr;
        *p++ = ',';
        p = std::to_chars(p, buf + sizeof buf, sourceIndex(s)).ptr;
        *p++ = ']';
        w.raw(std::string_view(buf, std::size_t(p - buf)));
    }
    w.endArray();
}

// The most characters one element takes in a response, comma included ("-2147483648,").
std::int64_t maxElementChars(DType dtype)
{
    switch (dtype) {
    case DType::Bool: return 6;
    case DType::Int8: return 5;
    case DType::UInt8: return 4;
    case DType::Int16: return 7;
    case DType::Int32: return 12;
    case DType::Int64: return 21;
    case DType::UInt16: return 6;
    case DType::UInt32: return 11;
    case DType::UInt64: return 21;
    case DType::Float16:  // the shortest decimal of a 16-bit float, no longer than a float32's
    case DType::BFloat16: // "-1.1754944e-38,"
    case DType::Float32: return 16;
    case DType::Float64: return 25;
    case DType::Complex64: return 2 * 16 + 2; // "[re,im],"
    case DType::Complex128: return 2 * 25 + 2;
    case DType::String: break;
    }
    return 0; // strings: their own length (longestStrings)
}

// The longest string a string output can hold (every one is a copy of an input string or of a
// constant): its bytes, and its length as JSON text.
struct StringSizes
{
    std::int64_t bytes = 0;
    std::int64_t jsonChars = 2;
};

StringSizes longestStrings(const std::vector<Tensor>& inputs, const OutputPlan& out)
{
    StringSizes longest;
    auto scan = [&](const Tensor& t) {
        if (!t.isValid() || t.dtype() != DType::String) return;
        for (std::int64_t i = 0; i < t.size(); ++i) {
            const std::string& s = t.data<std::string>()[i];
            if (std::int64_t(s.size()) * 6 + 2 <= longest.jsonChars) continue; // cannot be longer
            longest.bytes = std::max(longest.bytes, std::int64_t(s.size()));
            std::string json;
            appendJsonString(json, s);
            longest.jsonChars = std::max(longest.jsonChars, std::int64_t(json.size()));
        }
    };
    for (const Tensor& t : inputs)
        scan(t);
    scan(out.constants);
    scan(out.computed);
    return longest;
}

// The heap a std::string of `length` characters takes (short ones live inside the object).
std::int64_t stringHeapBytes(std::int64_t length)
{
    constexpr std::int64_t kInline = 15, kMallocOverhead = 16;
    return length <= kInline ? 0 : (length + 1 + kMallocOverhead + 15) / 16 * 16;
}

std::int64_t saturatingProduct(std::int64_t a, std::int64_t b)
{
    std::int64_t p = 0;
    return __builtin_mul_overflow(a, b, &p) ? std::numeric_limits<std::int64_t>::max() : p;
}

// Charges, before anything is executed, everything executing the plan allocates: each output with
// its strings' characters, the sources if asked, and the response text. Returns the most bytes
// the response text can take.
std::int64_t chargeExecution(const Request& request, bool sources, const OpPlan& plan,
                             const std::vector<Tensor>& inputs, const Limits& limits)
{
    constexpr std::int64_t kSourceChars = 24;     // "[slot,index],"
    constexpr std::int64_t kEnvelopeChars = 4096; // id, ok, shapes, timing, names
    double responseChars = kEnvelopeChars;
    for (std::size_t k = 0; k < plan.outputs.size(); ++k) {
        const OutputPlan& out = plan.outputs[k];
        const std::string name = "output " + std::to_string(k);
        const std::int64_t n = out.reserve(inputs, limits, name);
        std::int64_t elementChars = maxElementChars(out.dtype);
        if (out.dtype == DType::String) {
            const StringSizes longest = longestStrings(inputs, out);
            limits.charge(saturatingProduct(n, stringHeapBytes(longest.bytes)),
                          "the characters of " + name + " (" + std::to_string(n) +
                              " strings of up to " + std::to_string(longest.bytes) + " bytes)");
            elementChars = longest.jsonChars + 1;
        }
        if (sources) limits.reserve(out.shape, DType::Int64, "the sources of " + name);
        if (request.emitMode == Emit::Data) responseChars += double(n) * double(elementChars);
        if (sources) responseChars += double(n) * kSourceChars;
    }
    // A caller that keeps the tensors in memory (the GUI) has no response text to make.
    if (request.inMemory) return 0;
    if (responseChars > double(limits.maxBytes))
        throw OpError(ErrorCode::ResourceExhausted,
                      "the response would take up to " +
                          std::to_string(std::int64_t(std::min(responseChars, 9e18))) +
                          " bytes of JSON, over " + limits.bytesName + " of " +
                          std::to_string(limits.maxBytes) +
                          " bytes; ask for \"emit\": \"summary\" (and no sources)");
    limits.charge(std::int64_t(responseChars), "the response text");
    return std::int64_t(responseChars);
}

} // namespace

void requireGeneratedInputs(const OpDef& op, const std::vector<std::vector<TensorSpec>>& inputs,
                            const Limits& limits)
{
    if (!limits.budget) return;
    std::int64_t total = 0;
    std::string what;
    int count = 0;
    for (std::size_t k = 0; k < inputs.size() && k < op.inputs.size(); ++k)
        for (std::size_t j = 0; j < inputs[k].size(); ++j) {
            const TensorSpec& spec = inputs[k][j];
            if (spec.kind != TensorSpec::Kind::Fill || !spec.shape) continue;
            const DType dtype = spec.dtype.value_or(DType::Float32);
            const std::string name = "input '" + op.inputs[k].name + "'" +
                                     (op.inputs[k].isList ? "[" + std::to_string(j) + "]" : "");
            const auto n = checkedNumElements(*spec.shape);
            // Bytes past 64 bits: refused as the tensor itself is ("its sizes multiply past
            // 2^63 - 1 elements", "needs more than 2^63 bytes"), not as a saturated 9.2 EB.
            if (!n || *n > std::numeric_limits<std::int64_t>::max() / dtypeSize(dtype))
                limits.check(*spec.shape, dtype, name);
            const std::int64_t bytes = saturatingProduct(n.value_or(0), dtypeSize(dtype));
            total = total > std::numeric_limits<std::int64_t>::max() - bytes
                        ? std::numeric_limits<std::int64_t>::max()
                        : total + bytes;
            what += (count++ ? ", " : "") + name + " of shape " + shapeString(*spec.shape) + " " +
                    std::string(dtypeName(dtype));
        }
    if (count == 0) return;
    limits.budget->require(total, count == 1 ? "the " + what : "the inputs (" + what + ")");
}

Attr attrFromJson(const Json& json, const std::string& name)
{
    switch (json.type()) {
    case Json::Type::Null: return Attr();
    case Json::Type::Bool: return Attr(json.toBool());
    case Json::Type::Number: {
        const JsonNumber& n = json.number();
        if (n.fitsInt64) return Attr(n.integer);
        if (n.isInteger) badRequest("attribute '" + name + "': an integer beyond the int64 range");
        return Attr(n.value);
    }
    case Json::Type::String: return Attr(json.toString());
    case Json::Type::Array: {
        Attr::List list;
        for (const Json& item : json.toArray())
            list.push_back(attrFromJson(item, name));
        return Attr(std::move(list));
    }
    case Json::Type::Object: break;
    }
    Attr::Map map;
    for (const auto& [key, item] : json.toObject())
        map.emplace_back(key, attrFromJson(item, name));
    return Attr(std::move(map));
}

void writeAttr(JsonWriter& w, const Attr& a)
{
    if (a.isNull()) {
        w.null();
    } else if (a.isBool()) {
        w.value(a.toBool());
    } else if (a.isInt()) {
        w.value(a.toInt());
    } else if (a.isFloat()) {
        w.value(a.toDouble());
    } else if (a.isString()) {
        w.value(a.toString());
    } else if (a.isList()) {
        w.beginArray();
        for (const Attr& item : a.toList())
            writeAttr(w, item);
        w.endArray();
    } else {
        w.beginObject();
        for (const auto& [key, item] : a.toMap()) {
            w.key(key);
            writeAttr(w, item);
        }
        w.endObject();
    }
}

RequestSpec requestSpecFromJson(const Json& json, const Limits& limits)
{
    if (!json.isObject())
        badRequest("a request must be a JSON object, got " + std::string(json.typeName()));
    RequestSpec r;
    const Json *op = nullptr, *inputs = nullptr, *attrs = nullptr, *framework = nullptr;
    for (const auto& [name, value] : json.toObject()) {
        if (name == "id")
            r.id = value;
        else if (name == "op")
            op = &value;
        else if (name == "inputs")
            inputs = &value;
        else if (name == "attrs")
            attrs = &value;
        else if (name == "emit")
            r.emitMode = readEmit(value);
        else if (name == "trace")
            r.trace = readFlag(value, name);
        else if (name == "sources")
            r.sources = readFlag(value, name);
        else if (name == "timing")
            r.timing = readFlag(value, name);
        else if (name == "framework")
            framework = &value;
        else
            badRequest("unknown request field \"" + name +
                       "\" (a request has id, op, inputs, attrs, emit, trace, sources, timing, "
                       "framework)");
    }
    if (!op) badRequest("the request has no \"op\"");
    if (!op->isString()) badRequest("op must be a string, got " + std::string(op->typeName()));
    r.op = findOp(op->toString());
    if (!r.op) badRequest("unknown op '" + op->toString() + "' (slicescope-cli ops lists them)");
    if (attrs) {
        if (!attrs->isObject())
            badRequest("attrs must be an object (attribute name -> value), got " +
                       std::string(attrs->typeName()));
        for (const auto& [name, value] : attrs->toObject())
            r.attrs.emplace(name, attrFromJson(value, name));
    }
    if (framework) r.framework = readFramework(*framework, *r.op);
    r.inputs = readInputs(*r.op, inputs, limits);
    return r;
}

Request requestFromJson(const Json& json, const Limits& limits)
{
    RequestSpec spec = requestSpecFromJson(json, limits);
    Request r;
    r.id = std::move(spec.id);
    r.op = spec.op;
    r.attrs = std::move(spec.attrs);
    r.emitMode = spec.emitMode;
    r.trace = spec.trace;
    r.explain = spec.trace;
    r.sources = spec.sources;
    r.timing = spec.timing;
    r.framework = spec.framework;
    requireGeneratedInputs(*r.op, spec.inputs, limits);
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        const InputDef& def = r.op->inputs[k];
        std::vector<Tensor> tensors;
        for (std::size_t j = 0; j < spec.inputs[k].size(); ++j) {
            const std::string where =
                "input '" + def.name + "'" + (def.isList ? "[" + std::to_string(j) + "]" : "");
            tensors.push_back(
                readInput(where, [&] { return makeTensor(spec.inputs[k][j], limits); }));
        }
        r.inputs.push_back(std::move(tensors));
    }
    return r;
}

namespace {

// {"dtype": ..., "shape": [...], "fill": ...}: a tensor the request generates.
void writeGeneratedTensor(JsonWriter& w, DType dtype, const Shape& shape, Fill fill)
{
    w.beginObject();
    w.key("dtype");
    w.value(dtypeName(dtype));
    w.key("shape");
    w.beginArray();
    for (const std::int64_t size : shape)
        w.value(size);
    w.endArray();
    w.key("fill");
    w.value(fillName(fill));
    w.endObject();
}

// The members every request writer begins an object with: "id" (unless null), "op", "inputs"
// (input k under the op's name for it, a list input as an array; `writeInput(k)` writes its
// tensors, for the first `inputCount` inputs) and "attrs".
template <class WriteInput>
void writeCall(JsonWriter& w, const Json& id, const std::string& opName, const OpDef* op,
               std::size_t inputCount, WriteInput writeInput, const Attrs& attrs)
{
    if (!id.isNull()) {
        w.key("id");
        w.value(id);
    }
    w.key("op");
    w.value(opName);
    w.key("inputs");
    w.beginObject();
    for (std::size_t k = 0; op && k < op->inputs.size() && k < inputCount; ++k) {
        w.key(op->inputs[k].name);
        if (op->inputs[k].isList) w.beginArray();
        writeInput(k);
        if (op->inputs[k].isList) w.endArray();
    }
    w.endObject();
    w.key("attrs");
    w.beginObject();
    for (const auto& [name, value] : attrs) {
        w.key(name);
        writeAttr(w, value);
    }
    w.endObject();
}

} // namespace

void writeRequest(JsonWriter& w, const Request& r)
{
    w.beginObject();
    writeCall(
        w, r.id, r.op ? r.op->name : std::string(), r.op, r.inputs.size(),
        [&](std::size_t k) {
            for (const Tensor& t : r.inputs[k])
                writeTensor(w, t);
        },
        r.attrs);
    if (r.framework != Framework::TensorFlow) {
        w.key("framework");
        w.value(std::string(frameworkModel(r.framework).key()));
    }
    if (r.emitMode != Emit::Data) {
        w.key("emit");
        w.value(r.emitMode == Emit::Summary ? "summary" : "none");
    }
    for (const auto& [name, on] :
         {std::pair{"trace", r.trace}, {"sources", r.sources}, {"timing", r.timing}})
        if (on) {
            w.key(name);
            w.value(true);
        }
    w.endObject();
}

void writeExampleRequest(JsonWriter& w, const OpDef& op)
{
    w.beginObject();
    writeCall(
        w, Json(op.name), op.name, &op, op.example.inputs.size(),
        [&](std::size_t k) {
            for (const ExampleTensor& t : op.example.inputs[k]) {
                if (t.value.isNull()) {
                    writeGeneratedTensor(w, t.dtype, t.shape, t.fill);
                    continue;
                }
                w.beginObject();
                w.key("dtype");
                w.value(dtypeName(t.dtype));
                w.key("value");
                writeAttr(w, t.value);
                w.endObject();
            }
        },
        op.example.attrs);
    w.endObject();
}

void writeNodeRequest(JsonWriter& w, const model::ModelNode& node)
{
    const model::NodeRequest& r = *node.request;
    w.beginObject();
    writeCall(
        w, Json(node.name), r.op, findOp(r.op), r.inputs.size(),
        [&](std::size_t k) {
            for (const model::RequestTensor& t : r.inputs[k].second) {
                if (t.value)
                    writeTensor(w, *t.value);
                else
                    writeGeneratedTensor(w, t.dtype, t.shape, Fill::Arange);
            }
        },
        r.attrs);
    w.endObject();
}

RequestResult runRequest(const Request& request, const Limits& givenLimits, Executor& executor,
                         JobContext* context)
{
    // A request read by RequestHandler brings its budget, its line and inputs already charged.
    const Limits limits = givenLimits.budget ? givenLimits : givenLimits.forRequest();
    OpCall call(*request.op, request.inputs, request.attrs, limits);
    call.setExecutor(&executor);
    call.setExplains(request.explain);
    RequestResult result;
    const auto start = Clock::now();
    if (request.framework == Framework::TensorFlow) {
        result.plan = request.op->plan(call);
        result.inputs = call.allInputs();
    } else {
        // The same spec as another framework reads it: its plan and steps take the op's place,
        // so everything below (charging, execution, sources) is the same.
        result.inputs = call.allInputs();
        if (result.inputs.size() != 1)
            badRequest("op '" + request.op->name + "' read by a framework takes one input");
        result.plan = planInFramework(request.framework, request.op->name, request.attrs,
                                      result.inputs.front(), limits);
    }
    const bool sources = request.sources && (!request.sourcesWanted ||
                                             request.sourcesWanted(result.plan, result.inputs));
    result.responseBytes = chargeExecution(request, sources, result.plan, result.inputs, limits);
    // Values, then (if asked) sources: the same pieces run twice.
    if (context) context->beginWork(planWork(result.plan) * (sources ? 2 : 1));
    result.outputs = executePlan(result.plan, result.inputs, executor, context);
    result.opMs = msSince(start);
    if (sources) {
        for (int k = 0; k < int(result.plan.outputs.size()); ++k) {
            try {
                result.sources.push_back(planSources(result.plan, k, executor, context));
            } catch (const OpError& e) {
                // An unwritten element: say whose plan it is.
                if (e.code() != ErrorCode::Internal) throw;
                throw OpError(ErrorCode::Internal, "op '" + request.op->name + "' " + e.what());
            }
        }
    }
    // An input mapped from a file that changed under the op gave a result the file never held.
    checkMappedInputs(result.inputs);
    return result;
}

void writeResponse(JsonWriter& w, const Request& request, const RequestResult& result,
                   Clock::time_point start, Executor* executor)
{
    w.beginObject();
    w.key("id");
    w.value(request.id);
    w.key("ok");
    w.value(true);
    if (request.emitMode != Emit::None) {
        w.key("outputs");
        w.beginArray();
        for (const Tensor& t : result.outputs) {
            if (request.emitMode == Emit::Data)
                writeTensor(w, t);
            else
                writeTensorSummary(w, t, executor);
        }
        w.endArray();
    }
    if (request.sources) {
        w.key("sources");
        w.beginArray();
        for (const auto& sources : result.sources)
            writeSources(w, sources);
        w.endArray();
    }
    for (const auto& [name, value] : result.plan.extras) {
        w.key(name);
        writeAttr(w, value);
    }
    if (request.trace) {
        w.key("trace");
        w.beginObject();
        w.key("steps");
        w.beginArray();
        for (const Step& step : result.plan.steps) {
            w.beginObject();
            w.key("title");
            w.value(step.title);
            w.key("detail");
            w.value(step.detail);
            w.endObject();
        }
        w.endArray();
        if (result.plan.decode) {
            w.key("decode");
            // A subscript's entries carry their text; raw arguments have none.
            writeDecode(w, *result.plan.decode, request.op->notation == Notation::Subscript);
        }
        w.endObject();
    }
    if (request.timing) {
        w.key("timing");
        w.beginObject();
        w.key("op_ms");
        w.value(result.opMs);
        w.key("total_ms");
        w.value(msSince(start));
        w.endObject();
    }
    w.endObject();
}

void writeErrorResponse(JsonWriter& w, const Json& id, const OpError& error)
{
    w.beginObject();
    w.key("id");
    w.value(id);
    w.key("ok");
    w.value(false);
    w.key("error");
    w.beginObject();
    w.key("code");
    w.value(errorCodeName(error.code()));
    w.key("message");
    w.value(error.what());
    if (error.code() == ErrorCode::ParseError && error.position()) {
        w.key("position");
        w.value(*error.position());
    }
    w.endObject();
    w.endObject();
}

OpError errorFromException(std::exception_ptr error)
{
    try {
        std::rethrow_exception(error);
    } catch (const OpError& e) {
        return e;
    } catch (const std::bad_alloc&) {
        return OpError(ErrorCode::ResourceExhausted, "out of memory");
    } catch (const std::exception& e) {
        return OpError(ErrorCode::Internal, std::string("unexpected error: ") + e.what());
    } catch (...) {
        return OpError(ErrorCode::Internal, "unexpected error");
    }
}

std::int64_t maxRequestLineBytes(const Limits& limits)
{
    return limits.maxBytes / kParseBytesPerLineByte;
}

std::string RequestHandler::handleLine(std::string_view line)
{
    const auto start = Clock::now();
    Json json; // outlives the job, so that an error response can echo its id without a copy
    const Json* id = nullptr;
    std::string response;
    auto job = m_executor.submit({}, [&](JobContext& context) {
        const Limits limits = m_limits.forRequest();
        limits.charge(saturatingProduct(std::int64_t(line.size()), kParseBytesPerLineByte),
                      "reading the request line of " + std::to_string(line.size()) +
                          " bytes (up to " + std::to_string(kParseBytesPerLineByte) +
                          " bytes of memory per byte)");
        json = parseJson(line);
        id = json.find("id");
        if (isEquivalenceRequest(json)) {
            // Not an op on tensors: two slice programs compared by their plans.
            const EquivalenceAnswer answer =
                answerEquivalence(equivalenceQueryFromJson(json), limits, m_executor);
            JsonWriter writer(response);
            writeEquivalenceResponse(writer, id ? *id : Json(), answer);
            return;
        }
        if (isDiagnoseRequest(json)) {
            // The request's expected output against an actual one (slice_program.h).
            const DiagnoseAnswer answer = answerDiagnose(json, limits, m_executor, &context);
            JsonWriter writer(response);
            writeDiagnoseResponse(writer, id ? *id : Json(), answer);
            return;
        }
        const Request request = requestFromJson(json, limits);
        const RequestResult result = runRequest(request, limits, m_executor, &context);
        std::string text;
        text.reserve(std::size_t(result.responseBytes)); // no regrowth: the charge is the peak
        JsonWriter writer(text);
        writeResponse(writer, request, result, start, &m_executor);
        // An output may share a mapped input's pages (executePlan): its values or checksum were
        // read just now, after runRequest's check.
        checkMappedInputs(result.outputs);
        response = std::move(text);
    });
    const Job::State state = job->wait();
    if (state != Job::State::Finished) {
        const OpError error = job->error()
                                  ? errorFromException(job->error())
                                  : OpError(ErrorCode::Internal, "the request was cancelled");
        response.clear();
        JsonWriter writer(response);
        writeErrorResponse(writer, id ? *id : Json(), error);
    }
    return response;
}

namespace {

enum class LineRead { Line, TooLong, End };

// Reads one line (without its '\n') into `line` in chunks, and stops storing once it is longer
// than `maxBytes`: an over-long line is never held whole. `rest` says whether the rest of a
// too-long line is still to be skipped.
LineRead readLine(std::istream& in, std::string& line, std::int64_t maxBytes, bool& rest)
{
    line.clear();
    rest = false;
    char chunk[1 << 16];
    for (;;) {
        in.getline(chunk, sizeof chunk);
        const std::streamsize got = in.gcount();
        const bool full = in.fail() && !in.eof() && got == std::streamsize(sizeof chunk) - 1;
        if (in.bad()) return LineRead::End;
        if (full) {
            in.clear(in.rdstate() & ~std::ios::failbit);
            line.append(chunk, std::size_t(got));
        } else if (in.eof()) {
            line.append(chunk, std::size_t(got));
            if (line.empty()) return LineRead::End;
        } else {
            line.append(chunk, std::size_t(got - 1)); // the '\n' was extracted, not stored
        }
        if (std::int64_t(line.size()) > maxBytes) {
            rest = full;
            return LineRead::TooLong;
        }
        if (!full) return LineRead::Line;
    }
}

} // namespace

int runJsonLines(std::istream& in, std::ostream& out, RequestHandler& handler)
{
    const std::int64_t maxLine = handler.maxLineBytes();
    std::string line;
    for (;;) {
        bool rest = false;
        const LineRead read = readLine(in, line, maxLine, rest);
        if (read == LineRead::End) break;
        if (read == LineRead::TooLong) {
            // Answered at once; the rest of the line is skipped afterwards, unread.
            std::string response;
            JsonWriter writer(response);
            writeErrorResponse(
                writer, Json(),
                OpError(ErrorCode::ResourceExhausted,
                        "the request line is longer than " + std::to_string(maxLine) +
                            " bytes, the longest that can be read within " +
                            handler.limits().bytesName + " of " +
                            std::to_string(handler.limits().maxBytes) + " bytes (reading takes " +
                            std::to_string(kParseBytesPerLineByte) +
                            " bytes of memory per byte); the line is skipped"));
            out << response << '\n';
            out.flush();
            if (!out) return 1;
            line.clear();
            line.shrink_to_fit();
            if (rest) in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
            if (in.bad()) return 1;
            continue;
        }
        if (line.find_first_not_of(" \t\r\n") == std::string::npos) continue;
        out << handler.handleLine(line) << '\n';
        out.flush();
        if (!out) return 1;
    }
    return in.bad() ? 1 : 0;
}

} // namespace ss
