// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The format-neutral picture of a model file: the nodes of the slicing family that it holds, as
// the file stores them (op name, inputs and outputs with their stored shapes and dtypes, constant
// arguments, attributes), and the engine request each node becomes. Every reader (ONNX, TFLite,
// TensorFlow GraphDef) fills these structures; the CLI and the GUI only read them. Nothing here
// knows protobuf, FlatBuffers or JSON.

#include "core/attr.h"
#include "core/dtype.h"
#include "core/executor.h"
#include "core/shape.h"
#include "core/tensor.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ss::model {

/// The file formats SliceScope reads.
enum class ModelFormat { Onnx, TFLite, GraphDef };

/// "ONNX", "TFLite", "TensorFlow GraphDef".
std::string_view formatName(ModelFormat format);

/// A shape as the file stores it. A file may know nothing (no rank), or the rank with some
/// dimensions unknown (ONNX dim_param, TFLite shape_signature -1, TensorFlow -1).
struct StoredShape
{
    /// False when the file says nothing about the rank.
    bool hasRank = false;
    /// One entry per dimension; kUnknownDim where the file gives no size.
    std::vector<std::int64_t> dims;
    /// Per dimension, the symbolic name the file gives it (ONNX dim_param), or "".
    std::vector<std::string> symbols;

    static constexpr std::int64_t kUnknownDim = -1;

    /// A shape with every dimension known.
    static StoredShape known(const Shape& shape);
    /// Rank known and every dimension known.
    bool isFullyKnown() const;
    /// The shape, when fully known.
    std::optional<Shape> shape() const;
    /// Whether `computed` fits this stored shape: same rank, equal where a dimension is known.
    /// A shape without rank fits anything.
    bool agreesWith(const Shape& computed) const;
    /// "(2, ?, 3)" ("N" for a symbolic dimension), "()" for a scalar, "?" without rank.
    std::string text() const;
};

/// One input or output of a node.
struct ModelValue
{
    /// The tensor's name in the file ("" for an omitted optional input).
    std::string name;
    /// The element type, when SliceScope has it (no float16, complex, ...).
    std::optional<DType> dtype;
    /// The element type as the file names it ("FLOAT", "INT64", "float16"); "" if unknown.
    std::string dtypeText;
    /// The shape the file stores (value_info, graph input/output, tensor shape, _output_shapes).
    StoredShape stored;
    /// Where `stored` comes from ("value_info", "graph output", "shape inference", "tensor",
    /// "_output_shapes"); "" when the file says nothing.
    std::string storedFrom;
    /// The value, when the file holds it (ONNX initializer or Constant node, TFLite buffer,
    /// TensorFlow Const). Absent for values computed at run time.
    std::optional<Tensor> constant;
    /// When `constant` is not in the file but computed at reading from the shapes and constants
    /// it fixes (an exporter's Shape -> Gather -> Mul into a Slice's ends): the node that
    /// computes it ("/Mul"). ONNX only (onnx_shape_folding.h).
    std::string foldedBy;
};

/// One attribute decoded for display: "axis" = "1", "begin_mask" = "9 (0b1001: dims 0, 3)".
struct ModelAttribute
{
    std::string name;
    std::string text;
};

/// One tensor of the engine request a node becomes.
struct RequestTensor
{
    DType dtype = DType::Float32;
    Shape shape;
    /// The elements, when known (a constant in the file); otherwise the request generates an
    /// arange fill of `shape` (every element tells where it came from).
    std::optional<Tensor> value;
    /// Which node input this is ("data", "indices"), for messages and the GUI.
    std::string from;
};

/// The engine request (an op of the engine with its inputs and attributes) that computes what
/// the node computes, with the node's framework's semantics.
struct NodeRequest
{
    /// The engine op's name ("onnx_slice", "gather", "transpose", ...).
    std::string op;
    /// One entry per input of the engine op, in its InputDef order: (input name, tensors); a
    /// list input (concat's `values`) has several tensors, the others exactly one.
    std::vector<std::pair<std::string, std::vector<RequestTensor>>> inputs;
    Attrs attrs;
    /// Per node output, the request output that computes it, or -1 where the engine op has no
    /// such output (ONNX Unique's `indices`). Empty: one to one, in order.
    std::vector<int> outputOf;
};

/// One node of the slicing family, as the file stores it.
struct ModelNode
{
    /// The node's name in the file; readers give unnamed nodes "<op>#<index>".
    std::string name;
    /// The op as the file names it ("Slice", "STRIDED_SLICE", "StridedSlice").
    std::string op;
    /// The node's position among all nodes of its graph (file order).
    std::int64_t index = 0;
    /// The inputs in the file's order, optional ones omitted in the file kept with an empty name.
    std::vector<ModelValue> inputs;
    std::vector<ModelValue> outputs;
    /// The op's version: ONNX the opset of the node's domain, TFLite the operator code's
    /// version, 0 where the format has none.
    std::int64_t opVersion = 0;
    /// The node's attributes as the file stores them (integers, floats, strings, lists of
    /// them; a tensor attribute as its values), for the reader's translation.
    Attrs rawAttrs;
    /// The arguments decoded for display: attributes and constant inputs.
    std::vector<ModelAttribute> attributes;
    /// The request this node becomes, or none (see `reason`).
    std::optional<NodeRequest> request;
    /// Without a request: why ("starts is computed at run time", "mode 'CRD' of DepthToSpace is
    /// not modelled"). With one: "" or a note on how it was translated.
    std::string reason;
    /// Without a request because an input's value is known only at run time: that input (an
    /// index into `inputs`; the one `reason` names), whose value, given with setInputValue, lets
    /// the translation go on. Empty otherwise: a data input the request fills with an arange
    /// never blocks it.
    std::vector<std::size_t> blockedBy;
};

/// A model file read: the family nodes it holds, in file order.
struct ModelFile
{
    ModelFormat format = ModelFormat::Onnx;
    std::string path;
    /// Who wrote the file ("pytorch 2.1", "tf2onnx 1.9", "TOCO Converted."); "" if unknown.
    std::string producer;
    /// The format's version: "opset 13", "schema 3", "producer 1395".
    std::string version;
    /// Every node of the graph (the family and all others).
    std::int64_t totalNodes = 0;
    /// How many nodes of the graph have each op (the family and all others).
    std::map<std::string, std::int64_t> opCounts;
    /// The nodes of the slicing family.
    std::vector<ModelNode> nodes;
    /// The graph's inputs that the file gives no value (in its order): what a run is given,
    /// as ONNX's node tests give `input_0.pb`, `input_1.pb`, ... Empty where the reader does not
    /// say (TFLite, GraphDef).
    std::vector<std::string> runTimeInputs;
    /// The graph's outputs, in its order (ONNX's `output_0.pb`, ...); empty as above.
    std::vector<std::string> graphOutputs;
    /// What the reader noticed without refusing the file (the checker's complaints, shape
    /// inference failing): shown above the table.
    std::vector<std::string> warnings;
};

/// How many of the file's nodes are of the slicing family: "1 slicing node of 1", "3 slicing
/// nodes of 10"; for a file with none, the ops it has, the most frequent first: "no slicing node
/// of 12; its ops: Conv (5), Relu (4), Add (2) and 1 other".
std::string slicingNodesText(const ModelFile& file);

/// What the reader may spend on one file (a hostile file must not exhaust the machine).
struct ReadLimits
{
    /// Files larger than this are refused before being read.
    std::int64_t maxFileBytes = std::int64_t(1) << 30;
    /// Constant tensors with more elements than this are kept without their value (a request
    /// that needs them says so).
    std::int64_t maxConstantElements = std::int64_t(1) << 20;
    /// The job the file is read in (the GUI reads on a worker), or null. Once it is cancelled
    /// the reader stops within a fraction of a second with OpError(Cancelled): ONNX's checker
    /// child, which may run for a minute on a hostile file, is killed and reaped.
    const JobContext* job = nullptr;

    /// Throws OpError(Cancelled) if `job` was cancelled.
    void throwIfCancelled() const
    {
        if (job) job->throwIfCancelled();
    }
};

/// One reader: a format, the file names it claims, and a content check.
struct ModelReader
{
    ModelFormat format = ModelFormat::Onnx;
    /// Lower-case extensions with the dot (".onnx").
    std::vector<std::string> extensions;
    /// Whether `head` (the file's first bytes, up to 64) looks like this format; used when the
    /// extension is unknown or claimed by no reader.
    std::function<bool(std::string_view head)> sniff;
    /// Reads the whole file (`bytes`). Throws OpError(invalid_argument) with a clear message
    /// for a file it cannot read.
    std::function<ModelFile(const std::string& path, const std::string& bytes,
                            const ReadLimits& limits)>
        read;
    /// Fills `node.attributes`, `node.request` and `node.reason` from the node's op, rawAttrs,
    /// opVersion and inputs (their constants). `read` calls it for every node; setInputValue
    /// calls it again once a run-time input has a value.
    std::function<void(ModelNode& node)> translate;
    /// The ops of the slicing family it translates, as the file names them: its op table's
    /// entries, in order (the documents that list them are checked against this).
    std::vector<std::string> ops;
};

/// Every reader, in the order readModelFile tries them (model_readers.cpp lists them).
const std::vector<ModelReader>& modelReaders();

/// Reads a model file, choosing the reader by extension first, then by content. Throws
/// OpError(invalid_argument) naming the file for a file that cannot be opened, is too large,
/// is in no known format, or that its reader refuses.
ModelFile readModelFile(const std::string& path, const ReadLimits& limits = {});

/// Gives every node input named `valueName` the value `value` (as if the file held it as a
/// constant) and translates those nodes again: the values a user types for arguments computed
/// at run time. Returns how many node inputs took it (0: a graph input that no node of the
/// family reads). Throws OpError(bad_request) naming givableValues for a name that is neither a
/// graph input nor read by a node (a misspelt name), and OpError(invalid_argument) if the
/// value's dtype or shape contradicts what the file stores.
int setInputValue(ModelFile& file, const std::string& valueName, const Tensor& value);
/// The names a value can be given for that the file holds no value of: the graph's run-time
/// inputs in its order, then the other values the family's nodes read, in file order.
std::vector<std::string> givableValues(const ModelFile& file);

/// The values a run of a file's nodes computed (runKnownNodes).
struct ModelRun
{
    /// By value name: every output of a node that ran.
    std::map<std::string, Tensor> values;
    /// "NODE: why" for each node that had every value it reads but did not run (the engine
    /// refused it, or its output contradicts what the file stores about it).
    std::vector<std::string> errors;
};

/// Runs, in file order, every node with a request whose inputs all have values (constants,
/// values given with setInputValue), and gives what each computes to the nodes that read it,
/// so a chain of the family's nodes runs through. Nodes outside the family are not run: what
/// they compute stays unknown, and so do the nodes after them.
/// `context` (may be null) as for executePlan.
ModelRun runKnownNodes(ModelFile& file, const Limits& limits, Executor& executor,
                       JobContext* context = nullptr);

/// What `request` computes, one tensor per request output (executePlan's order); its run-time
/// values as arange fills. Throws the engine's OpError.
std::vector<Tensor> computeRequest(const NodeRequest& request, const Limits& limits,
                                   Executor& executor, JobContext* context = nullptr);

/// What SliceScope computes for a node: its request planned by the engine.
struct NodeCheck
{
    /// Why no stored output shape could be compared with a computed one ("" when one was): the
    /// node has no request (its `reason`), the engine could not plan it on this machine, or the
    /// file stores no output shape; or why some could not: their size depends on values known
    /// only at run time (unique's y), where the stand-in values' size says nothing.
    std::string unchecked;
    /// One entry per node output: the shape the engine computes for it (for run-time values,
    /// with an arange standing in), or none (no request, the engine refused it, or the engine op
    /// has no such output). Empty without a request.
    std::vector<std::optional<Shape>> computed;
    /// The engine's error ("invalid_argument: ...") when planning refused the request.
    std::string error;
    /// True when a stored output shape contradicts the computed one (or the engine refused a
    /// node the file says runs, for a reason other than this machine's limits): what a converter
    /// bug looks like.
    bool disagrees = false;
};

/// Plans `node.request` (no elements are moved) and compares the output shapes with the stored
/// ones. Never throws for an engine refusal (that is `error`).
NodeCheck checkNode(const ModelNode& node, const Limits& limits);

/// The tensors of a request made: constants as they are, the others as arange fills.
std::vector<std::vector<Tensor>> makeRequestInputs(const NodeRequest& request,
                                                   const Limits& limits);

} // namespace ss::model
