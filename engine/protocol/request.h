// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/attr.h"
#include "core/error.h"
#include "core/executor.h"
#include "core/frameworks/framework_model.h"
#include "core/op.h"
#include "core/tensor.h"
#include "protocol/json.h"
#include "protocol/tensor_json.h"

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace ss {

namespace model {
struct ModelNode;
}

/// What a response carries for each output (engine/protocol/README.md, "emit").
enum class Emit {
    Data,    ///< every element
    Summary, ///< dtype, shape, size and checksum
    None,    ///< no `outputs` member at all
};

/// A request with its tensors read (engine/protocol/README.md, "Requests and responses").
struct Request
{
    Json id; ///< echoed back unchanged
    const OpDef* op = nullptr;
    /// One list per op input, in the op's InputDef order (one tensor for a non-list input).
    std::vector<std::vector<Tensor>> inputs;
    Attrs attrs;
    Emit emitMode = Emit::Data; ///< not `emit`, which Qt defines as a macro
    bool trace = false;
    bool sources = false;
    bool timing = false;
    /// The plan's words (its steps, the decode's notes) are made: OpCall::explains(). A request
    /// read from JSON makes them only for `trace`, the one part of a response that shows them.
    bool explain = true;
    /// Whose reading of a subscript op's spec is run (`framework`): TensorFlow is the op
    /// itself; NumPy, PyTorch and JAX plan it with their framework model.
    Framework framework = Framework::TensorFlow;
    /// The caller keeps the result in memory and writes no response text (the GUI): the check
    /// of the response's text size, whose remedy is the protocol's `emit`, does not apply; the
    /// tensors (outputs and sources) still obey the limits.
    bool inMemory = false;
    /// With `sources`: asked once the op is planned (plan, inputs in slot order), whether the
    /// sources are still wanted. A caller that can answer "where did this element come from"
    /// from the plan itself (the GUI, for one-to-one affine plans) says no, and the sources,
    /// 8 bytes per output element, are neither made nor charged.
    std::function<bool(const OpPlan&, const std::vector<Tensor>&)> sourcesWanted;
};

/// A request read and checked, its tensors described but not made (TensorSpec): what the GUI
/// opens as a workspace, keeping fills and literals as written. requestFromJson is this followed
/// by making the tensors, so the GUI and `slicescope-cli run` accept the same requests.
struct RequestSpec
{
    Json id;
    const OpDef* op = nullptr;
    std::vector<std::vector<TensorSpec>> inputs; ///< as Request::inputs
    Attrs attrs;
    Emit emitMode = Emit::Data;
    bool trace = false;
    bool sources = false;
    bool timing = false;
    Framework framework = Framework::TensorFlow;
};

/// requestFromJson's reading and checks, without making filled tensors.
RequestSpec requestSpecFromJson(const Json& json, const Limits& limits);

/// Sizes the tensors a request generates (its "fill" inputs) all together before any of them is
/// made, against `limits.budget` (nothing without one): charges nothing, throws
/// resource_exhausted naming the inputs, their size and the room left if they cannot all fit.
/// requestFromJson calls it; the GUI, which makes its inputs itself, too.
void requireGeneratedInputs(const OpDef& op, const std::vector<std::vector<TensorSpec>>& inputs,
                            const Limits& limits);

/// Reads a request object: `id`, `op` (a name or alias), `inputs`, `attrs`, `emit`, `trace`,
/// `sources`, `timing`, `framework` (a subscript op's only); any other member is refused. Throws
/// OpError: bad_request for a missing or mistyped field, an unknown op or input, a bad tensor;
/// resource_exhausted for a tensor over `limits`. Tensor errors name the input: "input 'input':
/// data[3]: ...".
Request requestFromJson(const Json& json, const Limits& limits);

/// Writes `request` so that requestFromJson reads it back (tensors in the `data` form, the op
/// under its own name). This is the GUI's "copy as request".
void writeRequest(JsonWriter& writer, const Request& request);

/// Writes `op`'s example (OpDef::example) as a request `run` answers: id and op are the op's
/// name, generated tensors keep their "fill", written-out ones their nested "value".
void writeExampleRequest(JsonWriter& writer, const OpDef& op);

/// Writes a model node's request (`node.request`, which must be set) as a request `run`
/// answers: its id is the node's name, inputs the file does not hold are arange fills.
void writeNodeRequest(JsonWriter& writer, const model::ModelNode& node);

/// An attribute from JSON: integers stay integers, numbers with a fraction or exponent become
/// floats, lists become Attr::List, objects Attr::Map. Throws bad_request naming `name` for an
/// integer beyond int64.
Attr attrFromJson(const Json& json, const std::string& name);
/// Writes an attribute (or an op's extra result) as JSON.
void writeAttr(JsonWriter& writer, const Attr& attr);

/// What running a request produced.
struct RequestResult
{
    OpPlan plan;
    std::vector<Tensor> inputs;  ///< in slot order (list inputs expanded in place)
    std::vector<Tensor> outputs; ///< one per plan output
    /// Per output, when the request asked for sources: packSource(slot, index) or kNoSource.
    std::vector<SourceList> sources;
    double opMs = 0;                ///< decode, plan and execution, inputs already in memory
    std::int64_t responseBytes = 0; ///< the most the response text can take (charged)
};

/// Plans and executes the request's op (or, with a `framework` other than TensorFlow, that
/// framework's reading of its spec: planInFramework) on the calling thread (large copies are split
/// across `executor`), then works out the sources if asked. Everything it allocates is charged to
/// `limits.budget` first (a fresh budget of limits.maxBytes if it has none): the plan's index
/// lists, the outputs and their strings, the sources and the response text. Throws OpError as
/// the op does; resource_exhausted, before executing, if that would exceed the limit; internal if
/// the plan leaves an output element unwritten.
RequestResult runRequest(const Request& request, const Limits& limits, Executor& executor,
                         JobContext* context = nullptr);

/// Writes the success response: id, ok, outputs (per `emit`), sources, the op's extras (such as
/// "encoding" or "expr"), trace, and timing (total_ms measured from `start` to this moment).
/// With an executor, summaries' checksums are summed on its workers.
void writeResponse(JsonWriter& writer, const Request& request, const RequestResult& result,
                   std::chrono::steady_clock::time_point start, Executor* executor = nullptr);
/// Writes {"id", "ok": false, "error": {"code", "message"}}, plus "position" for parse_error.
void writeErrorResponse(JsonWriter& writer, const Json& id, const OpError& error);
/// The protocol error for an exception: an OpError as it is, std::bad_alloc as
/// resource_exhausted, anything else as internal.
OpError errorFromException(std::exception_ptr error);

/// The longest request line that can be read within limits.maxBytes.
std::int64_t maxRequestLineBytes(const Limits& limits);

/// Answers JSON Lines requests. Every request runs as a job on the executor, as the GUI's do.
class RequestHandler
{
public:
    RequestHandler(Executor& executor, Limits limits) : m_executor(executor), m_limits(limits) {}

    /// One request line in, one response line out (without the newline). Never throws: a line
    /// that is not JSON is answered with `"id": null` and bad_request; a request whose memory
    /// (reading the line, its inputs, plan, outputs, sources and response) would exceed
    /// limits.maxBytes with resource_exhausted, before that memory is allocated.
    std::string handleLine(std::string_view line);
    const Limits& limits() const { return m_limits; }
    /// The longest line runJsonLines reads; a longer one is refused while it is read.
    std::int64_t maxLineBytes() const { return maxRequestLineBytes(m_limits); }

private:
    Executor& m_executor;
    Limits m_limits;
};

/// The `run` loop: reads request lines from `in` (blank lines are skipped) and writes one
/// response line each to `out`, in order, flushing after each. A line longer than
/// handler.maxLineBytes() is answered with resource_exhausted as soon as that length is reached
/// and the rest of it is skipped unread. Returns 0, or 1 if reading or writing failed.
int runJsonLines(std::istream& in, std::ostream& out, RequestHandler& handler);

} // namespace ss
