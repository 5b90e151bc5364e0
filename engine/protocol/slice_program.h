// SPDX-License-Identifier: GPL-3.0-or-later
// Slice programs in JSON: chains of steps, the "equivalent" protocol op, and the diagnosis of an
// actual output as a protocol object (engine/protocol/README.md, "Equivalence and diagnosis").
#pragma once

#include "core/executor.h"
#include "core/slice_diagnosis.h"
#include "protocol/json.h"

#include <string>
#include <vector>

namespace ss {

struct Request;
struct RequestResult;

/// A slice program: a request object (its op and attrs; its inputs are replaced by the input
/// the caller gives), one step `{"op", "attrs"}`, or a list of steps applied in turn. Throws
/// bad_request naming `what` ("a") and the step for anything else.
std::vector<ChainStep> chainFromJson(const Json& json, const std::string& what);

/// A protocol `equivalent` request: {"id", "op": "equivalent", "a", "b", "shape", "dtype"}.
struct EquivalenceQuery
{
    Json id;
    std::vector<ChainStep> a, b;
    Shape shape;
    DType dtype = DType::Int32;
};
/// Whether `json` is an `equivalent` request (its op member says so).
bool isEquivalenceRequest(const Json& json);
/// Reads one; any other member is refused.
EquivalenceQuery equivalenceQueryFromJson(const Json& json);

struct EquivalenceAnswer
{
    ChainPlan a, b;
    Equivalence result;
};
/// Plans both programs for an input of the query's shape and compares them.
EquivalenceAnswer answerEquivalence(const EquivalenceQuery& query, const Limits& limits,
                                    Executor& executor);
/// {"id", "ok": true, "equivalent", "shape_a", "shape_b", "explanation", and where they part:
/// "position", "source_a", "source_b" (input coordinates, null for a constant)}.
void writeEquivalenceResponse(JsonWriter& writer, const Json& id, const EquivalenceAnswer& answer);

/// The diagnosis as a protocol object: "class", "sentence", "shape_note", "expected_shape",
/// "actual_shape", "matching", "differing", "differences", "sources_recovered",
/// "expected_spec", "actual_spec" (null when no simple spec fits).
void writeDiagnosis(JsonWriter& writer, const Diagnosis& diagnosis, const Shape& inputShape,
                    const Shape& expectedShape, const Shape& actualShape);

/// A protocol `diagnose` request: {"id", "op": "diagnose", "request", "actual"}: `request` is an
/// ordinary request whose first output is the expected one, `actual` a tensor object.
bool isDiagnoseRequest(const Json& json);
/// Runs the request (with sources), reads `actual` and diagnoses it; any other member is refused.
/// Errors in the request or the actual tensor are prefixed "request: " or "actual: ".
struct DiagnoseAnswer
{
    Shape inputShape, expectedShape, actualShape;
    Diagnosis diagnosis;
};
DiagnoseAnswer answerDiagnose(const Json& json, const Limits& limits, Executor& executor,
                              JobContext* context);
/// The diagnosis of `result`'s first output (the expected one) against `actual`: the sources in
/// the request's first input x (other inputs' elements and constants have none), the context of
/// the request's op (diagnoseContextFor). Throws bad_request for an op without a tensor output.
Diagnosis diagnoseRequest(const Request& request, const RequestResult& result,
                          const Tensor& actual);
/// {"id", "ok": true, "diagnosis": the diagnosis object, with "differing_positions" (the flat
/// output index of every differing element) and, when the sources were recovered,
/// "actual_sources" (per actual element, its flat index in x or null)}.
void writeDiagnoseResponse(JsonWriter& writer, const Json& id, const DiagnoseAnswer& answer);

} // namespace ss
