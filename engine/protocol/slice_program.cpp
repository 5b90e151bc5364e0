// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/slice_program.h"

#include "core/error.h"
#include "protocol/request.h"
#include "protocol/tensor_json.h"

namespace ss {

namespace {

ChainStep stepFromJson(const Json& json, const std::string& where)
{
    if (!json.isObject())
        badRequest(where + " must be an object {\"op\", \"attrs\"}, got " +
                   std::string(json.typeName()));
    if (json.find("inputs")) {
        // A whole request: its op and attrs, read by the request reader itself.
        try {
            const RequestSpec spec = requestSpecFromJson(json, Limits::machineDefault());
            return {spec.op, spec.attrs};
        } catch (const OpError& e) {
            throw OpError(e.code(), where + ": " + e.what());
        }
    }
    ChainStep step;
    for (const auto& [name, value] : json.toObject()) {
        if (name == "op") {
            if (!value.isString())
                badRequest(where + ": op must be a string, got " + std::string(value.typeName()));
            step.op = findOp(value.toString());
            if (!step.op)
                badRequest(where + ": unknown op '" + value.toString() +
                           "' (slicescope-cli ops lists them)");
        } else if (name == "attrs") {
            if (!value.isObject())
                badRequest(where + ": attrs must be an object, got " +
                           std::string(value.typeName()));
            for (const auto& [attr, v] : value.toObject())
                step.attrs.emplace(attr, attrFromJson(v, attr));
        } else if (name != "id") {
            badRequest(where + ": unknown field \"" + name + "\" (a step has op and attrs)");
        }
    }
    if (!step.op) badRequest(where + " has no \"op\"");
    return step;
}

void writeCoords(JsonWriter& w, std::int64_t source, const Shape& shape)
{
    if (source == kNoSource) {
        w.null();
        return;
    }
    w.beginArray();
    for (const std::int64_t c : unravelIndex(source, shape))
        w.value(c);
    w.endArray();
}

void writeShape(JsonWriter& w, const Shape& shape)
{
    w.beginArray();
    for (const std::int64_t d : shape)
        w.value(d);
    w.endArray();
}

} // namespace

std::vector<ChainStep> chainFromJson(const Json& json, const std::string& what)
{
    std::vector<ChainStep> steps;
    if (json.isArray()) {
        const auto& items = json.toArray();
        if (items.empty()) badRequest(what + " is an empty list; a chain needs at least one step");
        for (std::size_t k = 0; k < items.size(); ++k)
            steps.push_back(stepFromJson(items[k], what + " step " + std::to_string(k + 1)));
    } else if (json.isObject()) {
        steps.push_back(stepFromJson(json, what));
    } else {
        badRequest(what +
                   " must be a request, a step {\"op\", \"attrs\"} or a list of steps, got " +
                   std::string(json.typeName()));
    }
    return steps;
}

bool isEquivalenceRequest(const Json& json)
{
    const Json* op = json.isObject() ? json.find("op") : nullptr;
    return op && op->isString() && op->toString() == "equivalent";
}

EquivalenceQuery equivalenceQueryFromJson(const Json& json)
{
    EquivalenceQuery q;
    const Json *a = nullptr, *b = nullptr, *shape = nullptr;
    for (const auto& [name, value] : json.toObject()) {
        if (name == "id")
            q.id = value;
        else if (name == "a")
            a = &value;
        else if (name == "b")
            b = &value;
        else if (name == "shape")
            shape = &value;
        else if (name == "dtype")
            q.dtype = readDType(value);
        else if (name != "op")
            badRequest("unknown field \"" + name +
                       "\" of an equivalent request (it has id, op, a, b, shape, dtype)");
    }
    if (!a || !b) badRequest("an equivalent request needs \"a\" and \"b\"");
    if (!shape) badRequest("an equivalent request needs \"shape\", the input's shape");
    q.shape = readShape(*shape);
    q.a = chainFromJson(*a, "a");
    q.b = chainFromJson(*b, "b");
    return q;
}

EquivalenceAnswer answerEquivalence(const EquivalenceQuery& q, const Limits& limits,
                                    Executor& executor)
{
    // Sources take 8 bytes per element and step; the limit is checked before any is made.
    limits.check(q.shape, DType::Int64, "the input of the programs");
    EquivalenceAnswer answer;
    try {
        answer.a = planChain(q.a, q.shape, q.dtype, limits, executor);
    } catch (const OpError& e) {
        throw OpError(e.code(), std::string("a: ") + e.what());
    }
    try {
        answer.b = planChain(q.b, q.shape, q.dtype, limits, executor);
    } catch (const OpError& e) {
        throw OpError(e.code(), std::string("b: ") + e.what());
    }
    answer.result = compareChains(answer.a, answer.b);
    return answer;
}

void writeEquivalenceResponse(JsonWriter& w, const Json& id, const EquivalenceAnswer& answer)
{
    w.beginObject();
    w.key("id");
    w.value(id);
    w.key("ok");
    w.value(true);
    w.key("equivalent");
    w.value(answer.result.same);
    w.key("shape_a");
    writeShape(w, answer.a.outputShape);
    w.key("shape_b");
    writeShape(w, answer.b.outputShape);
    w.key("explanation");
    w.value(answer.result.explanation);
    if (answer.result.position >= 0) {
        w.key("position");
        writeCoords(w, answer.result.position, answer.a.outputShape);
        w.key("source_a");
        writeCoords(w, answer.result.sourceA, answer.a.inputShape);
        w.key("source_b");
        writeCoords(w, answer.result.sourceB, answer.b.inputShape);
    }
    w.endObject();
}

void writeDiagnosis(JsonWriter& w, const Diagnosis& d, const Shape& inputShape,
                    const Shape& expectedShape, const Shape& actualShape)
{
    w.beginObject();
    w.key("class");
    w.value(diagnosisClassName(d.kind));
    w.key("sentence");
    w.value(d.sentence);
    w.key("shape_note");
    w.value(d.shapeNote);
    w.key("expected_shape");
    writeShape(w, expectedShape);
    w.key("actual_shape");
    writeShape(w, actualShape);
    w.key("matching");
    w.value(d.matching);
    w.key("differing");
    w.value(d.differing);
    w.key("differences");
    w.beginArray();
    for (const ElementDifference& e : d.differences) {
        w.beginObject();
        w.key("position");
        writeCoords(w, e.position, expectedShape);
        w.key("expected");
        w.value(e.expected);
        w.key("actual");
        w.value(e.actual);
        w.key("expected_source");
        writeCoords(w, e.expectedSource, inputShape);
        w.key("actual_source");
        writeCoords(w, d.sourcesRecovered ? e.actualSource : kNoSource, inputShape);
        w.endObject();
    }
    w.endArray();
    w.key("pairing");
    w.value(d.pairing);
    w.key("sources_recovered");
    w.value(d.sourcesRecovered);
    w.key("expected_spec");
    if (d.expectedFit)
        w.value(selectionText(*d.expectedFit));
    else
        w.null();
    w.key("actual_spec");
    if (const std::string spec = d.actualSpec(); !spec.empty())
        w.value(spec);
    else
        w.null();
    w.endObject();
}

bool isDiagnoseRequest(const Json& json)
{
    const Json* op = json.isObject() ? json.find("op") : nullptr;
    return op && op->isString() && op->toString() == "diagnose";
}

Diagnosis diagnoseRequest(const Request& request, const RequestResult& result, const Tensor& actual)
{
    if (result.outputs.empty() || result.sources.empty() || result.inputs.empty())
        throw OpError(ErrorCode::BadRequest,
                      "op '" + request.op->name + "' gives no output tensor to compare with");
    // x is the op's first input; elements from other inputs or constants have no source in x.
    std::vector<std::int64_t> sources(result.sources[0].size());
    for (std::size_t i = 0; i < sources.size(); ++i) {
        const std::int64_t s = result.sources[0][i];
        sources[i] = (s == kNoSource || sourceSlot(s) != 0) ? kNoSource : sourceIndex(s);
    }
    const DiagnoseContext ctx = diagnoseContextFor(
        *request.op, request.attrs, result.plan.decode ? &*result.plan.decode : nullptr);
    return diagnoseOutput(result.inputs[0], result.outputs[0], sources, actual, ctx);
}

DiagnoseAnswer answerDiagnose(const Json& json, const Limits& limits, Executor& executor,
                              JobContext* context)
{
    const Json *requestJson = nullptr, *actualJson = nullptr;
    for (const auto& [name, value] : json.toObject()) {
        if (name == "request")
            requestJson = &value;
        else if (name == "actual")
            actualJson = &value;
        else if (name != "op" && name != "id")
            badRequest("unknown field \"" + name +
                       "\" of a diagnose request (it has id, op, request, actual)");
    }
    if (!requestJson) badRequest("a diagnose request needs \"request\", the expected op");
    if (!actualJson) badRequest("a diagnose request needs \"actual\", the output to explain");
    Request request;
    RequestResult result;
    try {
        request = requestFromJson(*requestJson, limits);
        request.sources = true;
        request.emitMode = Emit::None;
        result = runRequest(request, limits, executor, context);
    } catch (const OpError& e) {
        throw OpError(e.code(), std::string("request: ") + e.what(), e.position());
    }
    Tensor actual;
    try {
        actual = tensorFromJson(*actualJson, limits);
    } catch (const OpError& e) {
        throw OpError(e.code(), std::string("actual: ") + e.what(), e.position());
    }
    // The diagnosis keeps a source per actual element and a position per differing one, and
    // the response writes both lists: up to 20 digits and a comma each, charged before.
    constexpr std::int64_t kListBytesPerElement = 8 + 21;
    limits.charge(2 * actual.size() * kListBytesPerElement,
                  "the diagnosis's lists of " + std::to_string(actual.size()) + " elements");
    DiagnoseAnswer answer;
    answer.diagnosis = diagnoseRequest(request, result, actual);
    answer.inputShape = result.inputs[0].shape();
    answer.expectedShape = result.outputs[0].shape();
    answer.actualShape = actual.shape();
    return answer;
}

void writeDiagnoseResponse(JsonWriter& w, const Json& id, const DiagnoseAnswer& answer)
{
    const Diagnosis& d = answer.diagnosis;
    w.beginObject();
    w.key("id");
    w.value(id);
    w.key("ok");
    w.value(true);
    w.key("diagnosis");
    writeDiagnosis(w, d, answer.inputShape, answer.expectedShape, answer.actualShape);
    w.key("differing_positions");
    w.beginArray();
    for (const std::int64_t p : d.differingPositions)
        w.value(p);
    w.endArray();
    if (d.sourcesRecovered) {
        w.key("actual_sources");
        w.beginArray();
        for (const std::int64_t s : d.actualSources)
            if (s == kNoSource)
                w.null();
            else
                w.value(s);
        w.endArray();
    }
    w.endObject();
}

} // namespace ss
