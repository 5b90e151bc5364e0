// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli.h"

#include "core/decode.h"
#include "core/error.h"
#include "core/executor.h"
#include "core/frameworks/framework_comparison.h"
#include "core/frameworks/op_equivalents.h"
#include "core/memory_budget.h"
#include "core/op.h"
#include "core/slice_expr.h"
#include "core/strings.h"
#include "core/tensorflow_version.h"
#include "model/model_graph.h"
#include "model/pasted_code.h"
#include "protocol/model_test_data.h"
#include "protocol/npy.h"
#include "protocol/read_file.h"
#include "protocol/request.h"
#include "protocol/shape_text.h"
#include "protocol/slice_program.h"
#include "protocol/text_format.h"
#include "protocol/value_file.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <stdexcept>

namespace ss {

namespace {

struct UsageError : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

int usageFailure(std::ostream& err, const UsageError& e)
{
    err << "slicescope-cli: " << e.what() << "\nTry 'slicescope-cli --help'.\n";
    return 2;
}

struct Options
{
    std::string command;
    std::vector<std::string> positional;
    std::set<std::string> given; ///< the options used, to check they apply to the command
    int threads = 0;
    std::optional<std::int64_t> maxElements;
    std::optional<std::int64_t> maxBytes;
    std::optional<Shape> shape;
    DType dtype = DType::Int32;
    Fill fill = Fill::Arange;
    std::uint64_t seed = 0;
    bool json = false;
    bool examples = false;
    std::string save;
    bool help = false;
    bool version = false;
    std::string framework; ///< code: numpy, tensorflow, torch, jax, onnx, paddle or request
    std::string op;        ///< code: another op than a subscript
    std::string attrs;     ///< code: that op's attributes, a JSON object
    bool check = false;    ///< model: only the disagreeing nodes, exit 1 if any
    /// model: values for inputs computed at run time (name, .npy or TensorProto .pb file), in
    /// the order given.
    std::vector<std::pair<std::string, std::string>> inputs;
    std::string testData; ///< model: an ONNX node test's data set (input_K.pb, output_K.pb)
    std::string actual; ///< diagnose: the actual output (.npy)
    std::string model;  ///< equivalent: B is a run of this model file's nodes
    std::string nodes;  ///< equivalent: which ones, "3-5" (as `model FILE` lists them, from 1)
    std::int64_t firstNode = 0, lastNode = 0; ///< --nodes read
};

std::optional<std::int64_t> parseInteger(std::string_view text)
{
    std::int64_t v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nullopt;
    return v;
}

std::int64_t parseCount(const std::string& text, const std::string& option, std::int64_t min,
                        std::int64_t max = std::numeric_limits<std::int64_t>::max())
{
    const auto v = parseInteger(text);
    if (!v || *v < min || *v > max)
        throw UsageError(option + " takes an integer " +
                         (max == std::numeric_limits<std::int64_t>::max()
                              ? "of at least " + std::to_string(min)
                              : "from " + std::to_string(min) + " to " + std::to_string(max)) +
                         ", not '" + text + "'");
    return *v;
}

// The one shape reader the GUI uses too: "5 6" is (5, 6) here as there.
Shape parseShapeOption(const std::string& text)
{
    try {
        return parseShape(text);
    } catch (const OpError& e) {
        throw UsageError(std::string("--shape: ") + e.what());
    }
}

Options parseArgs(const std::vector<std::string>& args)
{
    Options o;
    bool onlyPositional = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        // "-1:" and the like are subscripts, not options.
        const bool option = !onlyPositional && a.size() > 1 && a[0] == '-' &&
                            !(a[1] >= '0' && a[1] <= '9') && a[1] != ':' && a[1] != '.';
        if (!option) {
            o.positional.push_back(a);
            continue;
        }
        if (a == "--") {
            onlyPositional = true;
            continue;
        }
        std::string name = a;
        std::optional<std::string> inlineValue;
        if (const std::size_t eq = a.find('='); a.starts_with("--") && eq != std::string::npos) {
            name = a.substr(0, eq);
            inlineValue = a.substr(eq + 1);
        }
        auto value = [&]() -> std::string {
            if (inlineValue) return *inlineValue;
            if (i + 1 >= args.size()) throw UsageError("option " + name + " needs a value");
            return args[++i];
        };
        auto flag = [&]() {
            if (inlineValue) throw UsageError("option " + name + " takes no value");
            return true;
        };
        if (name == "-h" || name == "--help") {
            o.help = flag();
        } else if (name == "--version") {
            o.version = flag();
        } else if (name == "--examples") {
            o.examples = flag();
        } else if (name == "--json") {
            o.json = flag();
        } else if (name == "--threads") {
            o.threads = int(parseCount(value(), name, 0, 1024));
        } else if (name == "--max-elements") {
            o.maxElements = parseCount(value(), name, 1);
        } else if (name == "--max-bytes") {
            o.maxBytes = parseCount(value(), name, 1);
        } else if (name == "--shape") {
            o.shape = parseShapeOption(value());
        } else if (name == "--dtype") {
            const std::string v = value();
            const auto t = dtypeFromName(v);
            if (!t) throw UsageError("--dtype takes " + dtypeNameList() + ", not '" + v + "'");
            o.dtype = *t;
        } else if (name == "--fill") {
            const std::string v = value();
            if (v == "arange")
                o.fill = Fill::Arange;
            else if (v == "zeros")
                o.fill = Fill::Zeros;
            else if (v == "ones")
                o.fill = Fill::Ones;
            else if (v == "random")
                o.fill = Fill::Random;
            else
                throw UsageError("--fill takes arange, zeros, ones or random, not '" + v + "'");
        } else if (name == "--seed") {
            o.seed = std::uint64_t(parseCount(value(), name, 0));
        } else if (name == "--framework") {
            o.framework = value();
            if (o.framework != "request" && !findFramework(o.framework))
                throw UsageError("--framework takes " + frameworkKeys() + " or request, not '" +
                                 o.framework + "'");
        } else if (name == "--op") {
            o.op = value();
        } else if (name == "--attrs") {
            o.attrs = value();
        } else if (name == "--check") {
            o.check = flag();
        } else if (name == "--input") {
            const std::string v = value();
            const std::size_t eq = v.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
                throw UsageError("--input takes NAME=FILE.npy or NAME=FILE.pb, not '" + v + "'");
            o.inputs.emplace_back(v.substr(0, eq), v.substr(eq + 1));
        } else if (name == "--test-data") {
            o.testData = value();
            if (o.testData.empty()) throw UsageError("--test-data needs a directory");
        } else if (name == "--actual") {
            o.actual = value();
            if (o.actual.empty()) throw UsageError("--actual needs a .npy file name");
        } else if (name == "--model") {
            o.model = value();
            if (o.model.empty()) throw UsageError("--model needs a model file name");
        } else if (name == "--nodes") {
            o.nodes = value();
        } else if (name == "--save") {
            o.save = value();
            if (o.save.empty()) throw UsageError("--save needs a file name");
        } else {
            throw UsageError("unknown option '" + a + "'");
        }
        o.given.insert(name == "-h" ? "--help" : name);
    }
    if (!o.positional.empty()) {
        o.command = o.positional.front();
        o.positional.erase(o.positional.begin());
    }
    return o;
}

// Checks the options and arguments against what the command takes.
void checkCommand(const Options& o, const std::set<std::string>& takes, std::size_t minArgs,
                  std::size_t maxArgs, const std::string& argName)
{
    for (const std::string& name : o.given)
        if (name != "--threads" && name != "--max-elements" && name != "--max-bytes" &&
            !takes.count(name))
            throw UsageError(name + " does not apply to '" + o.command + "'");
    if (o.positional.size() < minArgs) throw UsageError("'" + o.command + "' needs " + argName);
    if (o.positional.size() > maxArgs)
        throw UsageError("'" + o.command + "' takes " +
                         (maxArgs == 0 ? "no arguments" : "only " + argName) + "; '" +
                         o.positional[maxArgs] + "' is one too many");
    if (takes.count("--shape") && !o.shape)
        throw UsageError("'" + o.command + "' needs --shape, e.g. --shape 5,6");
    if (o.given.count("--seed") && o.fill != Fill::Random)
        throw UsageError("--seed goes with --fill random");
}

class Printer
{
public:
    Printer(std::ostream& out, const CliEnvironment& env) : m_out(out), m_env(env) {}

    std::ostream& out() { return m_out; }
    int width() const { return m_env.width; }
    bool color() const { return m_env.color; }

    void heading(const std::string& text)
    {
        m_out << (m_env.color ? "\x1b[1m" + text + "\x1b[0m" : text) << "\n";
    }
    /// Wrapped text; lines after the first start with `hanging` more spaces.
    void paragraph(const std::string& text, const std::string& indent, int hanging = 0)
    {
        const auto lines = wrapText(text, std::max(30, m_env.width - int(indent.size()) - hanging));
        for (std::size_t k = 0; k < lines.size(); ++k)
            m_out << indent << std::string(k ? std::size_t(hanging) : 0, ' ') << lines[k] << "\n";
    }
    void table(const TextTable& t, const std::string& indent)
    {
        m_out << t.render(indent, m_env.width);
    }

private:
    std::ostream& m_out;
    const CliEnvironment& m_env;
};

std::string optionalText(const std::optional<std::int64_t>& v)
{
    return v ? std::to_string(*v) : "-";
}

// "entries 4, 5": the entries whose bit is set in a mask.
std::string entryList(std::int32_t mask)
{
    std::string list;
    int count = 0;
    for (int i = 0; i < 32; ++i)
        if ((std::uint32_t(mask) >> i) & 1) list += (count++ ? ", " : "") + std::to_string(i);
    if (count == 0) return "-";
    return (count == 1 ? "entry " : "entries ") + list;
}

void printEntries(Printer& p, const std::vector<SpecEntry>& entries)
{
    TextTable t;
    t.addColumn("#", TextTable::Align::Right);
    t.addColumn("entry");
    t.addColumn("kind");
    t.addColumn("begin", TextTable::Align::Right);
    t.addColumn("end", TextTable::Align::Right);
    t.addColumn("stride", TextTable::Align::Right);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const SpecEntry& e = entries[i];
        t.addRow({std::to_string(i), e.text, std::string(specKindName(e.kind)),
                  optionalText(e.begin), optionalText(e.end), optionalText(e.stride)});
    }
    p.table(t, "   ");
}

void printSparse(Printer& p, const SparseSpec& s)
{
    const int m = int(s.strides.size());
    p.out() << "   begin    " << listString(s.begin) << "\n"
            << "   end      " << listString(s.end) << "\n"
            << "   strides  " << listString(s.strides) << "\n\n";
    TextTable t;
    t.addColumn("mask");
    t.addColumn("decimal", TextTable::Align::Right);
    t.addColumn("binary");
    t.addColumn("set for");
    const std::pair<const char*, std::int32_t> masks[] = {{"begin_mask", s.beginMask},
                                                          {"end_mask", s.endMask},
                                                          {"ellipsis_mask", s.ellipsisMask},
                                                          {"new_axis_mask", s.newAxisMask},
                                                          {"shrink_axis_mask", s.shrinkAxisMask}};
    for (const auto& [name, mask] : masks)
        t.addRow({name, std::to_string(mask), maskBinary(mask, m), entryList(mask)});
    p.table(t, "   ");
    p.out()
        << "   (bit i of a mask belongs to entry i; binary is written with entry 0 on the right)\n";
}

void printError(std::ostream& err, const OpError& e, const std::string& expression)
{
    err << "slicescope-cli: " << errorCodeName(e.code()) << ": " << e.what() << "\n";
    if (e.code() == ErrorCode::ParseError && e.position() && !expression.empty())
        err << "  " << expression << "\n  " << std::string(std::size_t(*e.position()), ' ')
            << "^\n";
}

// Runs `work` as a job on the executor, as every engine call from a front end does, and
// rethrows what it threw.
template <class F> void runJob(Executor& executor, const F& work)
{
    auto job = executor.submit({}, [&](JobContext& context) { work(context); });
    if (job->wait() != Job::State::Finished)
        throw job->error() ? errorFromException(job->error())
                           : OpError(ErrorCode::Internal, "the job was cancelled");
}

// What a decoded dimension's spec column says.
std::string dimSource(const StridedSliceDecode& d, const DimDecode& dim)
{
    if (dim.specEntry < 0) return "(implicit ...)";
    const SpecEntry& e = d.spec[std::size_t(dim.specEntry)];
    const std::string text = e.text.empty() ? std::string(specKindName(e.kind)) : e.text;
    return "#" + std::to_string(dim.specEntry) + " " + text;
}

std::string newAxesLine(const StridedSliceDecode& d)
{
    std::string list;
    for (std::size_t i = 0; i < d.spec.size(); ++i)
        if (d.spec[i].kind == SpecEntry::Kind::NewAxis)
            list += (list.empty() ? "" : ", ") + std::to_string(i);
    return list;
}

// One row per input dimension: where it came from (eval) or its raw dense values (explain,
// whose previous stage already shows where each came from), then the canonical values and why.
void printCanonical(Printer& p, const StridedSliceDecode& d, bool withRaw)
{
    TextTable t;
    t.addColumn("dim", TextTable::Align::Right);
    t.addColumn("size", TextTable::Align::Right);
    t.addColumn(withRaw ? "raw b:e:s" : "spec");
    t.addColumn("begin", TextTable::Align::Right);
    t.addColumn("end", TextTable::Align::Right);
    t.addColumn("stride", TextTable::Align::Right);
    t.addColumn("length", TextTable::Align::Right);
    t.addColumn("why");
    for (const DimDecode& dim : d.dims) {
        std::string notes;
        for (const auto& n : dim.notes)
            notes += (notes.empty() ? "" : "\n") + n;
        std::vector<std::string> row{std::to_string(dim.dim), std::to_string(dim.size)};
        if (!withRaw) {
            row.push_back(dimSource(d, dim));
        } else {
            const auto k = std::size_t(dim.dim);
            const bool bm = (d.dense.beginMask >> dim.dim) & 1;
            const bool em = (d.dense.endMask >> dim.dim) & 1;
            row.push_back((bm ? std::string("*") : std::to_string(d.dense.begin[k])) + ":" +
                          (em ? std::string("*") : std::to_string(d.dense.end[k])) + ":" +
                          std::to_string(d.dense.strides[k]));
        }
        for (const std::int64_t v : {dim.begin, dim.end, dim.stride, dim.length})
            row.push_back(std::to_string(v));
        row.push_back(notes.empty() ? "unchanged" : notes);
        t.addRow(std::move(row));
    }
    p.table(t, "   ");
}

// The engine's pool; says so when the system granted fewer threads than --threads asked for.
std::unique_ptr<Executor> startExecutor(const Options& o, std::ostream& err)
{
    auto executor = std::make_unique<Executor>(o.threads);
    if (o.threads > 0 && executor->threadCount() < o.threads)
        err << "slicescope-cli: the system started " << executor->threadCount() << " of the "
            << o.threads << " worker threads asked for; running with those\n";
    return executor;
}

// readNpyFile maps .npy inputs while it lives (setNpyMapping), for commands whose requests
// check them after their op (runRequest); put back as it was, for callers that run commands in
// their own process (the tests).
struct NpyMapping
{
    bool before = npyMapping();
    NpyMapping() { setNpyMapping(true); }
    ~NpyMapping() { setNpyMapping(before); }
    NpyMapping(const NpyMapping&) = delete;
    NpyMapping& operator=(const NpyMapping&) = delete;
};

int runCommand(const Options& o, std::istream& in, std::ostream& out, std::ostream& err,
               const Limits& limits)
{
    std::ifstream file;
    if (!o.positional.empty()) {
        // Not openRegularFile: a FIFO is a stream of requests as standard input is (`run
        // <(...)`), and a file of requests has no size cap. A directory opens, though, and only
        // its first read would fail.
        const std::string& path = o.positional[0];
        std::error_code ec;
        std::string why = std::filesystem::is_directory(path, ec) ? "it is a directory" : "";
        if (why.empty()) {
            file.open(path, std::ios::binary);
            if (!file) why = std::strerror(errno);
        }
        if (!why.empty()) {
            err << "slicescope-cli: cannot read '" << path << "': " << why << "\n";
            return 1;
        }
    }
    const auto executor = startExecutor(o, err);
    // Each request checks its mapped inputs after its op (runRequest): .npy inputs are mapped,
    // not copied.
    const NpyMapping mapping;
    RequestHandler handler(*executor, limits);
    if (runJsonLines(o.positional.empty() ? in : file, out, handler) != 0) {
        err << "slicescope-cli: "
            << (out ? "reading the requests failed" : "writing the responses failed") << "\n";
        return 1;
    }
    return 0;
}

// eval's text lists the elements a result reads from its per-element sources (8 bytes an
// element) up to this many output elements; a bigger strided slice is read from its plan.
constexpr std::int64_t kListedSources = std::int64_t(1) << 20;

// eval sizes its whole request from the shapes before the input is made: the
// input, and the result its subscript makes of it (with the result's sources when asked), so a
// request too big is refused at once instead of after building its input. Each piece is still
// charged as it is made. A subscript that does not decode is left to the request to report.
void requireSubscriptRequest(const std::string& expr, DType dtype, const Shape& shape, bool sources,
                             const Limits& limits)
{
    StridedSliceDecode decode;
    std::vector<Step> steps;
    try {
        decodeStridedSlice(shape, encodeExpression(expr).sparse, decode, steps, false);
    } catch (const OpError&) {
        return;
    }
    const std::int64_t in = limits.check(shape, dtype, "the input");
    const std::int64_t out = limits.check(decode.finalShape, dtype, "the result");
    const std::int64_t size = dtypeSize(dtype);
    // A result too big to list its sources is read from its plan (listsSources).
    sources = sources && out <= kListedSources;
    // Each count is at most maxBytes / size (checked), so none of these overflows.
    const std::int64_t bytes = in * size + out * size + (sources ? out * 8 : 0);
    limits.budget->require(bytes, "the input of shape " + shapeString(shape) + " " +
                                      std::string(dtypeName(dtype)) + " with the result of " +
                                      expr + " (shape " + shapeString(decode.finalShape) + ")" +
                                      (sources ? " and its sources (8 bytes an element)" : ""));
}

// A pasted call (tf.strided_slice(x, ...), np.take(x, ...), node text) read for eval: its op
// and arguments, with the inputs it gives after the tensor sliced, in the op's input order.
void usePastedCall(Request& request, const CallTranslation& call)
{
    request.op = findOp(call.op);
    if (!request.op)
        throw OpError(ErrorCode::Internal, "the call reads as an unknown op " + call.op);
    request.attrs = call.attrs;
    for (std::size_t k = 1; k < request.op->inputs.size(); ++k) {
        const std::string& name = request.op->inputs[k].name;
        const auto it = std::find_if(call.givenInputs.begin(), call.givenInputs.end(),
                                     [&](const auto& given) { return given.first == name; });
        if (it == call.givenInputs.end())
            throw OpError(ErrorCode::InvalidArgument,
                          call.function + " does not give " + call.op + "'s input " + name);
        request.inputs.push_back({it->second});
    }
}

// The attributes as a request writes them: `begin: [0, 1]`, one per line.
std::string attrsText(const Attrs& attrs)
{
    std::string out;
    for (const auto& [name, attr] : attrs) {
        std::string text;
        JsonWriter writer(text);
        writeAttr(writer, attr);
        out += (out.empty() ? "" : ", ") + name + "=" + text;
    }
    return out;
}

// The one piece of a strided slice's plan (getitem, strided_slice: the plans with a decode),
// whose output element i is read from the input at the piece's coordinates of i (row-major); null
// for any other plan. A strided slice reads each element it selects once: no stride is 0.
const AffinePiece* slicePieceOf(const OpPlan& plan)
{
    if (!plan.decode || plan.outputs.size() != 1 || plan.outputs[0].pieces.size() != 1)
        return nullptr;
    const auto* piece = std::get_if<AffinePiece>(&plan.outputs[0].pieces[0]);
    if (!piece || piece->slot != 0 || piece->outOffset != 0 ||
        piece->outStrides != rowMajorStrides(piece->extents))
        return nullptr;
    return piece;
}

// Whether eval's text asks for the result's sources: not for a result too big to list that its
// plan answers for (slicePieceOf).
bool listsSources(const OpPlan& plan)
{
    return numElements(plan.outputs.at(0).shape) <= kListedSources || !slicePieceOf(plan);
}

// The input elements a result reads, as eval's text shows them: how many, the first few in
// output order, and for colour the sorted list (empty when the plan answers instead of sources).
struct ReadElements
{
    std::int64_t count = 0;
    std::vector<std::int64_t> first;
    std::vector<std::int64_t> sorted;
};

ReadElements readElements(const RequestResult& result, std::int64_t firstCount)
{
    ReadElements r;
    if (result.sources.empty()) {
        const AffinePiece& piece = *slicePieceOf(result.plan);
        r.count = numElements(piece.extents);
        for (std::int64_t i = 0; i < std::min(r.count, firstCount); ++i) {
            std::int64_t index = piece.inOffset;
            const auto coords = unravelIndex(i, piece.extents);
            for (std::size_t k = 0; k < coords.size(); ++k)
                index += coords[k] * piece.inStrides[k];
            r.first.push_back(index);
        }
        return r;
    }
    const SourceList& sources = result.sources[0];
    // As many as the output has, not a flag per input element (a mapped input may have 4 x 10^9).
    r.sorted.reserve(sources.size());
    for (const std::int64_t s : sources)
        if (s != kNoSource && sourceSlot(s) == 0) r.sorted.push_back(sourceIndex(s));
    std::sort(r.sorted.begin(), r.sorted.end());
    r.sorted.erase(std::unique(r.sorted.begin(), r.sorted.end()), r.sorted.end());
    r.count = std::int64_t(r.sorted.size());
    for (std::int64_t i = 0; i < std::min(std::int64_t(sources.size()), firstCount); ++i)
        r.first.push_back(sourceIndex(sources[std::size_t(i)]));
    return r;
}

int evalCommand(const Options& o, Printer& p, std::ostream& err, const Limits& givenLimits)
{
    // runRequest checks the mapped input after the op: a .npy file bigger than memory is sliced
    // where it lies.
    const NpyMapping mapping;
    const std::string& expr = o.positional[0];
    const auto executorPtr = startExecutor(o, err);
    Executor& executor = *executorPtr;
    Request request;
    request.op = findOp("getitem");
    request.attrs.emplace("expr", Attr(expr));
    request.trace = true;
    request.sources = !o.json;
    request.sourcesWanted = [](const OpPlan& plan, const std::vector<Tensor>&) {
        return listsSources(plan);
    };
    // The text prints a summary of the result, not the response's JSON.
    request.inMemory = !o.json;
    // A pasted call is read with the input's shape (narrow and np.take's negative indices need
    // it): --shape's at once, a .npy file's once it is read.
    const bool pasted = model::looksLikePastedCode(expr);
    std::optional<CallTranslation> call;
    if (pasted && o.inputs.empty()) call = model::translatePastedCode(expr, *o.shape);
    const auto start = std::chrono::steady_clock::now();
    RequestResult result;
    runJob(executor, [&](JobContext& context) {
        const Limits limits = givenLimits.forRequest();
        if (!o.inputs.empty()) {
            // The array of a .npy file (its header is checked against the limits first).
            request.inputs = {{readNpyFile(o.inputs[0].second, limits)}};
            if (pasted) call = model::translatePastedCode(expr, request.inputs[0][0].shape());
        } else {
            if (!pasted) requireSubscriptRequest(expr, o.dtype, *o.shape, request.sources, limits);
            request.inputs = {{makeFilled(o.dtype, *o.shape, o.fill, o.seed, limits)}};
        }
        if (call) usePastedCall(request, *call);
        result = runRequest(request, limits, executor, &context);
    });
    if (!o.save.empty()) {
        writeNpyFile(o.save, result.outputs[0]);
        (o.json ? err : p.out()) << "saved the result to " << o.save << "\n";
    }
    if (o.json) {
        std::string text;
        JsonWriter writer(text);
        writeResponse(writer, request, result, start);
        // The result may share the mapped input's pages: its values were read just now.
        checkMappedInputs(result.outputs);
        p.out() << text << "\n";
        return 0;
    }

    const Tensor& input = result.inputs[0];
    const Tensor& output = result.outputs[0];
    constexpr std::int64_t kFirstReads = 8;
    const ReadElements read = readElements(result, kFirstReads);
    const std::int64_t readCount = read.count;
    const bool highlighted = p.color() && !read.sorted.empty();

    PrintOptions printOptions;
    printOptions.lineWidth = std::max(40, p.width());
    if (highlighted)
        printOptions.highlight = [&](std::int64_t i) {
            return std::binary_search(read.sorted.begin(), read.sorted.end(), i);
        };
    p.heading("x: " + std::string(dtypeName(input.dtype())) + " " + compactShape(input.shape()) +
              ", " +
              (!o.inputs.empty()
                   ? "from " + o.inputs[0].second
                   : std::string(fillName(o.fill)) +
                         (o.fill == Fill::Random ? " (seed " + std::to_string(o.seed) + ")" : "")));
    p.out() << formatTensor(input, printOptions) << "\n\n";
    printOptions.highlight = nullptr;
    if (call) {
        p.heading(call->function + " reads as the op " + call->op);
        p.paragraph(attrsText(call->attrs), "   ");
        for (const auto& [name, tensor] : call->givenInputs)
            p.paragraph(name + " = " + formatTensor(tensor), "   ");
        for (const std::string& note : call->notes)
            p.paragraph("Note: " + note, "   ");
        p.out() << "\n";
    }
    p.heading(expr + ": " + std::string(dtypeName(output.dtype())) + " " +
              compactShape(output.shape()));
    p.out() << formatTensor(output, printOptions) << "\n\n";
    p.out() << readCount << " of " << input.size() << " input element"
            << (input.size() == 1 ? " is" : "s are") << " read"
            << (highlighted ? " (highlighted in x)" : "") << ".\n";
    // Where the first elements come from, in output order: the order the slice walks.
    std::string order;
    for (std::size_t i = 0; i < read.first.size(); ++i) {
        std::string coords;
        for (const std::int64_t c : unravelIndex(read.first[i], input.shape()))
            coords += (coords.empty() ? "" : ",") + std::to_string(c);
        order += (i ? ", " : "") + (coords.empty() ? "x" : "x[" + coords + "]");
    }
    if (!order.empty())
        p.paragraph("Read in this order: " + order + (output.size() > kFirstReads ? ", ..." : "."),
                    "", 2);
    p.out() << "\n";

    // Only a slice spec (getitem, strided_slice) has a decode to show.
    if (!result.plan.decode) return 0;
    const StridedSliceDecode& d = *result.plan.decode;
    p.heading("Decode (TensorFlow's canonical begin, end and stride per input dimension)");
    if (!d.dims.empty()) printCanonical(p, d, false);
    if (const std::string axes = newAxesLine(d); !axes.empty())
        p.out() << "   new axes from entr" << (axes.find(',') == std::string::npos ? "y " : "ies ")
                << axes << "\n";
    p.out() << "   processing shape " << compactShape(d.processingShape) << ", final shape "
            << compactShape(d.finalShape) << "\n";
    return 0;
}

int encodeCommand(const Options& o, Printer& p)
{
    const std::string& expr = o.positional[0];
    const Encoding enc = encodeExpression(expr);
    p.heading(expr);
    p.out() << "\n";
    p.heading("Entries");
    printEntries(p, enc.entries);
    p.out() << "\n";
    p.heading("What tf.Tensor.__getitem__ passes to tf.strided_slice");
    printSparse(p, enc.sparse);
    for (const auto& note : enc.notes) {
        p.out() << "\n";
        p.paragraph("Note: " + note, "   ");
    }
    return 0;
}

int explainCommand(const Options& o, Printer& p)
{
    const std::string& expr = o.positional[0];
    const Shape& shape = *o.shape;
    p.heading(expr + " on an input of shape " + compactShape(shape));
    p.out() << "\n";
    Encoding enc = encodeExpression(expr);
    p.heading("1. Parse the subscript: " + std::to_string(enc.entries.size()) + " entr" +
              (enc.entries.size() == 1 ? "y" : "ies"));
    printEntries(p, enc.entries);
    p.out() << "\n";
    p.heading("2. Encode it as tf.Tensor.__getitem__ does (the sparse spec)");
    printSparse(p, enc.sparse);
    for (const auto& note : enc.notes)
        p.paragraph("Note: " + note, "   ");
    p.out() << "\n";

    StridedSliceDecode d;
    d.spec = enc.entries;
    std::vector<Step> steps;
    try {
        decodeStridedSlice(shape, enc.sparse, d, steps);
    } catch (const OpError&) {
        // Show how far the decode got before TensorFlow would refuse it.
        int stage = 3;
        for (const Step& step : steps) {
            p.heading(std::to_string(stage++) + ". " + step.title);
            p.paragraph(step.detail, "   ");
            p.out() << "\n";
        }
        throw;
    }
    auto stepDetail = [&](const std::string& title) {
        for (const Step& s : steps)
            if (s.title == title) return s.detail;
        return std::string();
    };
    p.heading("3. Check the arguments");
    p.paragraph(stepDetail("Check the arguments"), "   ");
    p.out() << "\n";
    const bool implicit = !stepDetail("Implicit ellipsis").empty();
    p.heading(implicit ? "4. Implicit ellipsis" : "4. Ellipsis");
    p.paragraph(stepDetail(implicit ? "Implicit ellipsis" : "Ellipsis"), "   ");
    p.out() << "\n";

    p.heading("5. Sparse to dense: one entry per input dimension");
    TextTable dense;
    dense.addColumn("dim", TextTable::Align::Right);
    dense.addColumn("from");
    dense.addColumn("begin", TextTable::Align::Right);
    dense.addColumn("end", TextTable::Align::Right);
    dense.addColumn("stride", TextTable::Align::Right);
    dense.addColumn("begin_mask");
    dense.addColumn("end_mask");
    dense.addColumn("shrink");
    for (const DimDecode& dim : d.dims) {
        const auto k = std::size_t(dim.dim);
        auto bit = [&](std::int64_t mask) {
            return (mask >> dim.dim) & 1 ? std::string("set") : std::string();
        };
        dense.addRow({std::to_string(dim.dim), dimSource(d, dim), std::to_string(d.dense.begin[k]),
                      std::to_string(d.dense.end[k]), std::to_string(d.dense.strides[k]),
                      bit(d.dense.beginMask), bit(d.dense.endMask), dim.shrink ? "yes" : ""});
    }
    if (!d.dims.empty()) p.table(dense, "   ");
    if (const std::string axes = newAxesLine(d); !axes.empty())
        p.paragraph("New axes (entr" +
                        std::string(axes.find(',') == std::string::npos ? "y " : "ies ") + axes +
                        ") use no input dimension; each puts a dimension of size 1 in the output.",
                    "   ");
    p.paragraph("Dense masks: begin " + std::to_string(d.dense.beginMask) + ", end " +
                    std::to_string(d.dense.endMask) + ", shrink " +
                    std::to_string(d.dense.shrinkAxisMask) + ".",
                "   ");
    p.out() << "\n";

    p.heading("6. Canonicalise each dimension (masks, negative indices, clamping)");
    if (d.dims.empty()) {
        p.paragraph("The input is a scalar: there are no dimensions to canonicalise.", "   ");
    } else {
        printCanonical(p, d, true);
        p.out() << "   (raw b:e:s are the dense begin:end:stride; * marks a masked value)\n";
    }
    p.out() << "\n";

    p.heading("7. Shapes");
    std::string finalWhy = stepDetail("Final shape");
    finalWhy = finalWhy.substr(std::min(finalWhy.size(), finalWhy.find(": ") + 2));
    const std::string processing = compactShape(d.processingShape);
    const std::string final = compactShape(d.finalShape);
    const std::size_t w = std::max(processing.size(), final.size());
    p.out() << "   processing shape  " << processing << std::string(w - processing.size(), ' ')
            << "  one length per input dimension\n";
    const std::string indent(3 + 18 + w + 2, ' ');
    const auto why = wrapText(finalWhy, std::max(30, p.width() - int(indent.size())));
    p.out() << "   final shape       " << final << std::string(w - final.size(), ' ') << "  "
            << why[0] << "\n";
    for (std::size_t k = 1; k < why.size(); ++k)
        p.out() << indent << why[k] << "\n";
    p.out() << "   is_identity " << (d.isIdentity ? "true" : "false") << ", is_simple_slice "
            << (d.isSimpleSlice ? "true" : "false") << ", slice_dim0 "
            << (d.sliceDim0 ? "true" : "false") << "\n";
    return 0;
}

// One request line per op, so that `ops --examples | run` answers every example.
int opsExamplesCommand(std::ostream& out)
{
    for (const OpDef& op : allOps()) {
        std::string line;
        JsonWriter writer(line);
        writeExampleRequest(writer, op);
        out << line << "\n";
    }
    return 0;
}

int opsCommand(Printer& p)
{
    for (const OpDef& op : allOps()) {
        std::string title = op.name;
        for (const auto& alias : op.aliases)
            title += " [" + alias + "]";
        std::string inputs;
        for (const InputDef& in : op.inputs)
            inputs += (inputs.empty() ? "" : ", ") + in.name + (in.isList ? "[]" : "");
        p.heading(title + "(" + inputs + ") -> " + op.outputs);
        if (!op.summary.empty()) p.paragraph(op.summary, "    ");
        std::string attrs;
        for (const AttrDef& a : op.attrs) {
            std::string text = a.name;
            for (const auto& alias : a.aliases)
                text += " [" + alias + "]";
            text += a.defaultText.empty() ? " (required)" : " = " + a.defaultText;
            attrs += (attrs.empty() ? "" : ", ") + text;
        }
        p.paragraph("attrs: " + (attrs.empty() ? std::string("none") : attrs), "    ", 7);
    }
    p.out() << "\nNames in [brackets] are older TensorFlow names accepted in their place; "
               "inputs marked [] take a list of tensors.\n";
    return 0;
}

// ---- compare and code: one spec in every framework (core/frameworks/).

void checkCodeCommand(const Options& o)
{
    for (const std::string& name : o.given)
        if (name != "--threads" && name != "--max-elements" && name != "--framework" &&
            name != "--shape" && name != "--dtype" && name != "--op" && name != "--attrs")
            throw UsageError(name + " does not apply to 'code'");
    if (o.framework.empty())
        throw UsageError("'code' needs --framework: " + frameworkKeys() + " or request");
    if (!o.op.empty()) {
        if (!findOp(o.op)) throw UsageError("--op: unknown op '" + o.op + "' (see 'ops')");
        if (o.framework == "request")
            throw UsageError("--op goes with a framework; a request is written by 'eval --json'");
        if (!o.positional.empty())
            throw UsageError("'code --op' takes no expression (give the attributes with --attrs)");
        return;
    }
    if (o.given.count("--attrs")) throw UsageError("--attrs goes with --op");
    if (o.positional.empty()) throw UsageError("'code' needs an expression (or --op NAME)");
    if (o.positional.size() > 1)
        throw UsageError("'code' takes only an expression; '" + o.positional[1] +
                         "' is one too many");
    if (o.framework == "request" && !o.shape)
        throw UsageError("'code --framework request' needs --shape: the request carries the input");
}

int compareCommand(const Options& o, Printer& p, const Limits& limits)
{
    const std::string& expr = o.positional[0];
    Executor executor(o.threads);
    Request request;
    request.op = findOp("compare");
    request.attrs.emplace("expr", Attr(expr));
    request.emitMode = o.json ? Emit::Data : Emit::None;
    const auto start = std::chrono::steady_clock::now();
    RequestResult result;
    runJob(executor, [&](JobContext& context) {
        const Limits budgeted = limits.forRequest(); // the input is part of the request
        request.inputs = {{makeFilled(o.dtype, *o.shape, o.fill, o.seed, budgeted)}};
        result = runRequest(request, budgeted, executor, &context);
    });
    if (o.json) {
        std::string text;
        JsonWriter writer(text);
        writeResponse(writer, request, result, start);
        p.out() << text << "\n";
        return 0;
    }
    // The table is made from the same comparison the op answers with.
    const IndexSpec spec = IndexSpec::fromExpression(expr);
    const FrameworkComparison c = compareFrameworks(spec, result.inputs[0], limits);
    p.heading(expr + " on x of shape " + compactShape(*o.shape));
    p.out() << "\n";
    TextTable t;
    t.addColumn("framework");
    t.addColumn("differs");
    t.addColumn("outcome");
    for (std::size_t i = 0; i < c.outcomes.size(); ++i) {
        const FrameworkOutcome& out = c.outcomes[i];
        std::string what = outcomeSummary(out);
        if (out.kind == FrameworkOutcome::Kind::Result && out.plan.outputs[0].shape.size() <= 2) {
            const Tensor& value = result.outputs[std::size_t(c.resultIndex[i])];
            if (value.size() <= 12) {
                PrintOptions po;
                po.lineWidth = 1000;
                std::string v = formatTensor(value, po);
                std::replace(v.begin(), v.end(), '\n', ' ');
                what += " " + v;
            }
        }
        t.addRow(
            {std::string(frameworkModel(out.framework).title()), c.differs[i] ? "yes" : "", what});
    }
    p.table(t, "   ");
    bool any = false;
    for (std::size_t i = 0; i < c.outcomes.size(); ++i)
        if (c.differs[i]) {
            if (!any) p.out() << "\n";
            any = true;
            p.paragraph("- " + c.reasons[i], "   ", 2);
        }
    if (!any) p.out() << "\n   Every framework agrees with TensorFlow.\n";
    return 0;
}

// Whether a command's argument is a subscript ("x[..., None]") rather than JSON or a file.
bool isSubscript(const std::string& arg)
{
    const std::size_t first = arg.find_first_not_of(" \t\r\n");
    return first != std::string::npos && arg.compare(first, 2, "x[") == 0;
}

// The request of a subscript on an arange input (the input's values name their positions).
Request subscriptRequest(const std::string& expr, DType dtype, const Shape& shape,
                         const Limits& limits)
{
    Request request;
    request.op = findOp("getitem");
    request.attrs.emplace("expr", Attr(expr));
    IndexSpec::fromExpression(expr); // a subscript that does not parse is refused here
    request.inputs = {{makeFilled(dtype, shape, Fill::Arange, 0, limits)}};
    return request;
}

int codeCommand(const Options& o, Printer& p, const Limits& limits)
{
    if (!o.op.empty()) {
        Attrs attrs;
        if (!o.attrs.empty()) {
            const Json json = parseJson(o.attrs);
            if (!json.isObject())
                throw OpError(ErrorCode::BadRequest, "--attrs takes a JSON object");
            for (const auto& [name, value] : json.toObject())
                attrs.emplace(name, attrFromJson(value, name));
        }
        p.out() << opCode(findFramework(o.framework)->id(), *findOp(o.op), attrs);
        return 0;
    }
    const std::string& expr = o.positional[0];
    if (o.framework == "request") {
        const Request request = subscriptRequest(expr, o.dtype, *o.shape, limits);
        std::string text;
        JsonWriter writer(text);
        writeRequest(writer, request);
        p.out() << text << "\n";
        return 0;
    }
    const IndexSpec spec = IndexSpec::fromExpression(expr);
    p.out() << findFramework(o.framework)->code(spec, o.shape);
    return 0;
}

// ---- model: the slicing nodes of a model file (engine/model).

std::string shapesText(const std::vector<model::ModelValue>& values)
{
    std::string t;
    for (const model::ModelValue& v : values)
        t += (t.empty() ? "" : " ") + v.stored.text();
    return t.empty() ? "-" : t;
}

std::string computedText(const model::NodeCheck& check)
{
    if (!check.error.empty()) return "error";
    std::string t;
    for (const auto& s : check.computed)
        t += (t.empty() ? "" : " ") + (s ? shapeTuple(*s) : std::string("-"));
    return t.empty() ? "-" : t;
}

// `model --check` with no node disagreeing: how many nodes that rests on, and why the others
// could not be checked.
void printNoneDisagrees(Printer& p, std::int64_t nodes, const std::vector<std::string>& unchecked)
{
    const std::int64_t checked = nodes - std::ssize(unchecked);
    p.paragraph("No node's stored output shape disagrees with SliceScope's (" +
                    countText(checked, "node", "nodes") + " checked" +
                    (unchecked.empty() ? "" : ", " + num(std::ssize(unchecked)) + " not") + ").",
                "");
    if (!unchecked.empty()) p.out() << "Not checked:\n";
    for (const std::string& why : unchecked)
        p.paragraph(why, "  ", 4);
}

// What a node test's data found, under the table: each graph output against its output_K.pb.
// Returns how many outputs differ.
int printTestData(Printer& p, const TestDataRun& run)
{
    int differing = 0, agreeing = 0;
    for (const TestDataOutput& out : run.outputs) {
        differing += out.state == TestDataOutput::State::Differs;
        agreeing += out.state == TestDataOutput::State::Agrees;
    }
    p.out() << "\n";
    p.paragraph("Test data " + run.dir + ": " + countText(run.inputs, "input", "inputs") +
                    " given; " + num(agreeing) + " of " +
                    countText(std::int64_t(run.outputs.size()), "output", "outputs") +
                    " computed agree" + (differing ? ", " + num(differing) + " differ" : "") + ".",
                "");
    for (const TestDataOutput& out : run.outputs) {
        const std::string state = out.state == TestDataOutput::State::Agrees ? "agrees"
                                  : out.state == TestDataOutput::State::Differs
                                      ? "differs: " + out.detail
                                      : "not computed: " + out.detail;
        p.paragraph("'" + out.name + "' (" + out.file + "): " + state, "  ", 4);
    }
    for (const std::string& e : run.errors)
        p.paragraph("did not run: " + e, "  ", 4);
    return differing;
}

int modelCommand(const Options& o, Printer& p, std::ostream& err, const Limits& limits)
{
    // A model's directory: an ONNX node test's model.onnx and, unless --test-data says, its
    // first data set; a SavedModel's saved_model.pb.
    std::error_code ec;
    const bool directory = std::filesystem::is_directory(o.positional[0], ec);
    const std::string testData = !o.testData.empty() ? o.testData
                                 : directory         ? nodeTestData(o.positional[0])
                                                     : "";
    model::ModelFile file =
        model::readModelFile(directory ? modelInDirectory(o.positional[0]) : o.positional[0]);
    for (const auto& [name, valueFile] : o.inputs) {
        const Tensor value = readValueFile(valueFile, limits);
        int taken = 0;
        try {
            taken = model::setInputValue(file, name, value);
        } catch (const OpError& e) {
            if (e.code() != ErrorCode::BadRequest) throw;
            throw UsageError("--input " + name + ": " + e.what()); // a misspelt name
        }
        if (taken == 0)
            err << "slicescope-cli: --input " << name << ": no node of the slicing family reads '"
                << name << "'\n";
    }
    std::optional<TestDataRun> run;
    if (!testData.empty()) {
        const auto executor = startExecutor(o, err);
        runJob(*executor, [&](JobContext& context) {
            run = runModelTestData(file, testData, limits, *executor, &context);
        });
    }
    if (o.json) {
        for (const model::ModelNode& node : file.nodes) {
            if (node.request) {
                std::string line;
                JsonWriter writer(line);
                writeNodeRequest(writer, node);
                p.out() << line << "\n";
            } else
                err << "slicescope-cli: " << node.name << " (" << node.op
                    << ") has no request: " << node.reason << "\n";
        }
        return 0;
    }
    p.heading(file.path + ": " + std::string(model::formatName(file.format)) + ", " + file.version +
              (file.producer.empty() ? "" : ", written by " + file.producer));
    p.paragraph(model::slicingNodesText(file) + ".", "");
    for (const std::string& w : file.warnings)
        p.paragraph("warning: " + w, "", 9);
    if (file.nodes.empty()) return 0; // the line above names the ops it has instead
    TextTable table;
    table.addColumn("");
    table.addColumn("node");
    table.addColumn("op");
    table.addColumn("input");
    table.addColumn("stored output");
    table.addColumn("computed");
    table.addColumn("arguments");
    std::vector<std::string> notes;
    std::vector<std::string> unchecked; // "NODE: why"
    int disagreeing = 0;
    for (const model::ModelNode& node : file.nodes) {
        const model::NodeCheck check = model::checkNode(node, limits);
        if (check.disagrees) ++disagreeing;
        if (!check.unchecked.empty()) unchecked.push_back(node.name + ": " + check.unchecked);
        if (o.check && !check.disagrees) continue;
        std::string args;
        for (const model::ModelAttribute& a : node.attributes)
            args += (args.empty() ? "" : ", ") + a.name + "=" + a.text;
        const std::vector<model::ModelValue> first(
            node.inputs.begin(),
            node.inputs.begin() + std::min<std::ptrdiff_t>(1, std::ssize(node.inputs)));
        table.addRow({check.disagrees ? "!" : "", node.name, node.op, shapesText(first),
                      shapesText(node.outputs), computedText(check), args});
        if (!check.error.empty())
            notes.push_back(node.name + ": the engine refuses it: " + check.error);
        else if (!node.request)
            notes.push_back(node.name + ": not computed: " + node.reason);
        else if (!node.reason.empty())
            notes.push_back(node.name + ": " + node.reason);
    }
    if (o.check && disagreeing == 0) {
        printNoneDisagrees(p, std::int64_t(file.nodes.size()), unchecked);
        return run && printTestData(p, *run) > 0 ? 1 : 0;
    }
    p.out() << "\n";
    p.table(table, "");
    if (!notes.empty()) p.out() << "\n";
    for (const std::string& n : notes)
        p.paragraph(n, "", 4);
    if (disagreeing > 0)
        p.out() << "\n! marks a node whose stored output shape disagrees with the one SliceScope "
                   "computes, or that the engine refuses.\n";
    const int differing = run ? printTestData(p, *run) : 0;
    return o.check && disagreeing + differing > 0 ? 1 : 0;
}

// ---- equivalent and diagnose: slice programs compared by their plans (core/slice_diagnosis.h).

// A JSON argument: inline when it starts with '{' or '[', else the file it names (read under the
// one file rule, up to the longest request line).
Json jsonArgument(const std::string& arg, const std::string& what, const Limits& limits)
{
    const std::size_t first = arg.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && (arg[first] == '{' || arg[first] == '['))
        return parseJson(arg);
    std::string text;
    try {
        text = readRegularFile(arg, maxRequestLineBytes(limits));
        return parseJson(text);
    } catch (const OpError& e) {
        throw OpError(e.code(), what + ": " + (text.empty() ? "" : arg + ": ") + e.what(),
                      e.position());
    }
}

// A slice program argument: a subscript ("x[..., None]", a getitem step), inline JSON or a file.
std::vector<ChainStep> programArgument(const std::string& arg, const std::string& what,
                                       const Limits& limits)
{
    if (isSubscript(arg))
        return {{findOp("getitem"), {{"expr", Attr(arg.substr(arg.find('x')))}}, {}}};
    return chainFromJson(jsonArgument(arg, what, limits), what);
}

// Nodes FIRST to LAST (from 1, in the order `model FILE` lists the slicing nodes) of a model
// file as a chain: each must read the output of the one before, and every input but its first
// must be a constant of the file.
std::vector<ChainStep> modelChain(const std::string& path, std::int64_t firstNode,
                                  std::int64_t lastNode, std::string& names)
{
    const std::string range = std::to_string(firstNode) + "-" + std::to_string(lastNode);
    const model::ModelFile file = model::readModelFile(path);
    if (lastNode > std::int64_t(file.nodes.size()))
        throw OpError(ErrorCode::BadRequest, path + " has " + model::slicingNodesText(file) +
                                                 "; --nodes " + range + " asks for more");
    std::vector<ChainStep> steps;
    for (std::int64_t k = firstNode; k <= lastNode; ++k) {
        const model::ModelNode& node = file.nodes[std::size_t(k - 1)];
        const std::string where =
            "node " + std::to_string(k) + " (" + node.name + ", " + node.op + ")";
        if (!node.request)
            throw OpError(ErrorCode::BadRequest, where + " is not modelled: " + node.reason);
        if (k > firstNode) {
            const model::ModelNode& before = file.nodes[std::size_t(k - 2)];
            if (node.inputs.empty() || before.outputs.empty() ||
                node.inputs[0].name != before.outputs[0].name)
                throw OpError(ErrorCode::BadRequest,
                              where + " does not read the output of node " + std::to_string(k - 1) +
                                  " (" + before.name + "): the nodes are not a chain");
        }
        ChainStep step{findOp(node.request->op), node.request->attrs, {}};
        for (std::size_t i = 1; i < node.request->inputs.size(); ++i) {
            std::vector<Tensor> tensors;
            for (const model::RequestTensor& t : node.request->inputs[i].second) {
                if (!t.value)
                    throw OpError(ErrorCode::BadRequest,
                                  where + ": its input " + t.from +
                                      " is computed at run time; a chain's other inputs must be "
                                      "constants of the file");
                tensors.push_back(*t.value);
            }
            step.constants.push_back(std::move(tensors));
        }
        steps.push_back(std::move(step));
        names += (names.empty() ? "" : ", ") + node.op;
    }
    names = "nodes " + range + " of " + path + " (" + names + ")";
    return steps;
}

std::string chainText(const std::vector<ChainStep>& steps)
{
    std::string t;
    for (const ChainStep& s : steps)
        t += (t.empty() ? "" : ", ") + s.op->name;
    return t;
}

int equivalentCommand(const Options& o, Printer& p, std::ostream& err, const Limits& limits)
{
    EquivalenceQuery q;
    q.a = programArgument(o.positional[0], "A", limits);
    std::string modelNodes;
    q.b = o.model.empty() ? programArgument(o.positional[1], "B", limits)
                          : modelChain(o.model, o.firstNode, o.lastNode, modelNodes);
    q.shape = *o.shape;
    q.dtype = o.dtype;
    const auto executor = startExecutor(o, err);
    EquivalenceAnswer answer;
    runJob(*executor, [&](JobContext&) { answer = answerEquivalence(q, limits, *executor); });
    if (o.json) {
        std::string text;
        JsonWriter writer(text);
        writeEquivalenceResponse(writer, Json(), answer);
        p.out() << text << "\n";
        return answer.result.same ? 0 : 1;
    }
    p.out() << "A: " << chainText(q.a) << " -> " << shapeTuple(answer.a.outputShape) << "\n";
    p.out() << "B: " << (modelNodes.empty() ? chainText(q.b) : modelNodes) << " -> "
            << shapeTuple(answer.b.outputShape) << "\n";
    p.paragraph(std::string(answer.result.same ? "equivalent" : "not equivalent") +
                    " for x of shape " + shapeTuple(q.shape) + ": " + answer.result.explanation,
                "", 2);
    return answer.result.same ? 0 : 1;
}

int diagnoseCommand(const Options& o, Printer& p, std::ostream& err, const Limits& limits)
{
    // A subscript reads an arange of --shape, as eval's; else the request gives its input.
    const std::string& program = o.positional[0];
    const std::optional<Json> json =
        isSubscript(program) ? std::nullopt
                             : std::optional<Json>(jsonArgument(program, "REQUEST", limits));
    const auto executor = startExecutor(o, err);
    Request request;
    RequestResult result;
    Tensor actual;
    runJob(*executor, [&](JobContext& context) {
        request = json ? requestFromJson(*json, limits)
                       : subscriptRequest(program, o.dtype, *o.shape, limits);
        request.sources = true;
        request.emitMode = Emit::None;
        result = runRequest(request, limits, *executor, &context);
        actual = readNpyFile(o.actual, limits);
    });
    const Diagnosis d = diagnoseRequest(request, result, actual);
    const DiagnoseContext ctx = diagnoseContextFor(
        *request.op, request.attrs, result.plan.decode ? &*result.plan.decode : nullptr);
    const Tensor& input = result.inputs[0];
    const Tensor& expected = result.outputs[0];
    const int status = d.kind == DiagnosisClass::Equivalent ? 0 : 1;
    if (o.json) {
        std::string text;
        JsonWriter writer(text);
        writeDiagnosis(writer, d, input.shape(), expected.shape(), actual.shape());
        p.out() << text << "\n";
        return status;
    }
    p.out() << "expected: " << request.op->name
            << (ctx.expectedText.empty() ? "" : " " + ctx.expectedText) << " on x "
            << dtypeName(input.dtype()) << " " << shapeTuple(input.shape()) << " -> "
            << shapeTuple(expected.shape()) << "\n";
    p.out() << "actual:   " << o.actual << " " << dtypeName(actual.dtype()) << " "
            << shapeTuple(actual.shape()) << "\n";
    if (!d.shapeNote.empty()) p.paragraph("shape: " + d.shapeNote, "", 2);
    if (expected.shape() == actual.shape())
        p.out() << d.matching << " element" << (d.matching == 1 ? "" : "s") << " match, "
                << d.differing << " differ\n";
    if (!d.differences.empty())
        p.out() << "first differences" << (d.pairing.empty() ? "" : " (" + d.pairing + ")")
                << ":\n";
    else if (!d.pairing.empty())
        p.paragraph((d.paired ? "no element differs " : "") + d.pairing + ".", "", 2);
    for (const ElementDifference& e : d.differences) {
        std::string line = "  " + positionText(e.position, expected.shape()) + ": expected " +
                           e.expected + " (from " + sourceText(e.expectedSource, input.shape()) +
                           "), actual " + e.actual;
        if (d.sourcesRecovered)
            line += e.actualSource == kNoSource
                        ? " (not an element of x)"
                        : " (from " + sourceText(e.actualSource, input.shape()) + ")";
        p.out() << line << "\n";
    }
    if (d.expectedFit) p.out() << "expected reads: " << selectionText(*d.expectedFit) << "\n";
    if (!d.actualSpec().empty()) p.out() << "actual reads:   " << d.actualSpec() << "\n";
    p.paragraph("diagnosis (" + std::string(diagnosisClassName(d.kind)) + "): " + d.sentence, "",
                2);
    return status;
}

} // namespace

std::string cliUsage()
{
    return R"(usage: slicescope-cli [--threads N] [--max-elements N] [--max-bytes N] COMMAND [ARGUMENTS]

Commands:
  run [FILE]               answer JSON Lines requests from FILE (or stdin): one response
                           line per request, in order
  eval --shape S EXPR      slice a generated tensor and show the input, the result and
                           the decode  [--dtype T] [--fill F] [--seed N] [--json]
                           [--save FILE.npy]
  eval --input x=FILE.npy EXPR
                           the same for the array of a .npy file  [--json] [--save FILE.npy]
  encode EXPR              the begin/end/strides and the five masks of a subscript
  explain --shape S EXPR   every stage of TensorFlow's strided-slice decode, with reasons
  ops                      every op with its inputs, attributes and defaults
                           [--examples: one example request per op, for 'run']
  compare --shape S EXPR   the subscript in NumPy, TensorFlow, PyTorch, JAX, ONNX and
                           PaddlePaddle: each outcome, and which differ and why
                           [--dtype T] [--fill F] [--seed N] [--json]
  code --framework F EXPR  Python that computes the subscript with framework F (numpy,
                           tensorflow, torch, jax, onnx, paddle) or the protocol request
                           (request); [--shape S] where axes must be numbered
  code --framework F --op NAME [--attrs JSON]
                           the same for another op ("no direct equivalent" where the
                           framework has none)
  model FILE               the slicing nodes of a model file (.onnx, .tflite, a TensorFlow
                           GraphDef .pb or .pbtxt, a SavedModel's saved_model.pb): each
                           node's arguments, its stored and its computed output shape
                           [--json: one request per node, for 'run'] [--check: only the
                           nodes that disagree; exit 1 if any] [--input NAME=FILE.npy or
                           NAME=FILE.pb (an ONNX TensorProto): a value for an input computed
                           at run time] [--test-data DIR: an ONNX node test's input_K.pb
                           given to the graph's inputs in order, the nodes run and each
                           output compared with its output_K.pb; --check: exit 1 if one
                           differs]
  model DIR                an ONNX node test (DIR/model.onnx), with --test-data
                           DIR/test_data_set_0; a SavedModel's DIR/saved_model.pb
  equivalent A B --shape S whether two slice programs (subscripts 'x[...]', requests,
                           steps or lists of steps, inline JSON or files) read the same
                           elements of x in the same order for every x of shape S; exit 0 if
                           so, 1 if not, with the first place they part  [--dtype T] [--json]
  equivalent A --model FILE --nodes FIRST-LAST --shape S
                           the same, B being a run of a model file's slicing nodes (counted
                           from 1 as 'model FILE' lists them), each reading the one before
  diagnose REQUEST --actual FILE.npy
                           compare an actual output with what REQUEST gives: the
                           differences, where each value comes from, the spec the actual
                           output was read with and how it differs; exit 0 if the actual
                           output is right, 1 if not  [--json]
  diagnose --shape S EXPR --actual FILE.npy
                           the same for a subscript on an arange x of shape S  [--dtype T]

Options:
  --shape S          input shape: 5,6 or 5x6 or '5 6' ('' or '()' for a scalar)
  --dtype T          bool, int8, uint8, int16, uint16, int32 (default), uint32, int64, uint64,
                     float16, bfloat16, float32, float64, complex64, complex128, string
  --fill F           arange (default), zeros, ones or random
  --seed N           seed for --fill random (default 0)
  --json             eval, compare, equivalent, diagnose: print a protocol object
                     instead; model: one request line per node
  --actual FILE.npy  diagnose: the actual output
  --model FILE       equivalent: B is nodes of this model file (--nodes FIRST-LAST)
  --framework F      code: numpy, tensorflow, torch, jax, onnx, paddle or request
  --save FILE.npy    eval: also write the result to FILE.npy (atomically)
  --threads N        engine worker threads (default 0: one per CPU)
  --max-elements N   largest tensor allowed (default: 2^31 elements, or what memory holds)
  --max-bytes N      most memory one request may take (default: the cgroup's memory limit,
                     or physical memory; what the process holds counts against those, and no
                     more than the memory available when the request starts)
  -h, --help         show this help
  --version          show the version

EXPR is a Python subscript such as 'x[1, 2:4, None, ..., :-3:-1, :]' (quote it for the
shell). Exit status: 0 on success, 1 if the work failed, 2 for a usage error; ended by
SIGINT, SIGTERM or SIGHUP (130, 143, 129 in a shell), a file being saved is not left behind.
)";
}

int runCli(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
           std::ostream& err, const CliEnvironment& environment)
{
    Options o;
    try {
        o = parseArgs(args);
        if (o.help) {
            out << cliUsage();
            return 0;
        }
        if (o.version) {
            // The version stays the last word: packaging scripts read it from there.
            out << "slicescope-cli (TensorFlow " << kTensorFlowVersion << " CPU kernels) "
                << environment.version << "\n";
            return 0;
        }
        if (o.command.empty()) throw UsageError("no command given");
        if (o.command == "run")
            checkCommand(o, {}, 0, 1, "a file");
        else if (o.command == "eval" && o.given.count("--input")) {
            for (const char* generated : {"--shape", "--dtype", "--fill", "--seed"})
                if (o.given.count(generated))
                    throw UsageError(std::string(generated) +
                                     " does not apply to 'eval --input': the file gives the array");
            checkCommand(o, {"--input", "--json", "--save"}, 1, 1, "an expression");
            if (o.inputs.size() != 1 || o.inputs[0].first != "x")
                throw UsageError("eval takes one --input x=FILE.npy, the array x to slice");
        } else if (o.command == "eval")
            checkCommand(o, {"--shape", "--dtype", "--fill", "--seed", "--json", "--save"}, 1, 1,
                         "an expression");
        else if (o.command == "encode")
            checkCommand(o, {}, 1, 1, "an expression");
        else if (o.command == "explain")
            checkCommand(o, {"--shape"}, 1, 1, "an expression");
        else if (o.command == "ops")
            checkCommand(o, {"--examples"}, 0, 0, "");
        else if (o.command == "compare")
            checkCommand(o, {"--shape", "--dtype", "--fill", "--seed", "--json"}, 1, 1,
                         "an expression");
        else if (o.command == "code")
            checkCodeCommand(o);
        else if (o.command == "model") {
            checkCommand(o, {"--json", "--check", "--input", "--test-data"}, 1, 1,
                         "a model file or an ONNX node test's directory");
            if (o.json && o.check) throw UsageError("--json and --check do not go together");
        } else if (o.command == "equivalent") {
            if (o.given.count("--model") || o.given.count("--nodes")) {
                checkCommand(o, {"--shape", "--dtype", "--json", "--model", "--nodes"}, 1, 1,
                             "one slice program A (B is the model's nodes)");
                if (o.model.empty() || o.nodes.empty())
                    throw UsageError("--model FILE and --nodes FIRST-LAST go together");
                const std::size_t dash = o.nodes.find('-');
                const auto first = parseInteger(o.nodes.substr(0, dash));
                const auto last =
                    dash == std::string::npos ? first : parseInteger(o.nodes.substr(dash + 1));
                if (!first || !last || *first < 1 || *last < *first)
                    throw UsageError("--nodes takes FIRST-LAST or N, counted from 1 as 'model "
                                     "FILE' lists the nodes, not '" +
                                     o.nodes + "'");
                o.firstNode = *first;
                o.lastNode = *last;
            } else {
                checkCommand(o, {"--shape", "--dtype", "--json"}, 2, 2,
                             "two slice programs A and B");
            }
        } else if (o.command == "diagnose") {
            // A subscript reads an arange x of --shape; a request gives its own input.
            const bool subscript = !o.positional.empty() && isSubscript(o.positional[0]);
            if (!subscript && (o.given.count("--shape") || o.given.count("--dtype")))
                throw UsageError("--shape and --dtype go with a subscript; the request gives its "
                                 "input");
            checkCommand(o,
                         subscript ? std::set<std::string>{"--actual", "--json", "--shape",
                                                           "--dtype"}
                                   : std::set<std::string>{"--actual", "--json"},
                         1, 1, "a request or a subscript");
            if (o.actual.empty())
                throw UsageError("'diagnose' needs --actual FILE.npy, the output to explain");
        } else
            throw UsageError("unknown command '" + o.command + "'");
    } catch (const UsageError& e) {
        return usageFailure(err, e);
    }

    Limits limits = Limits::machineDefault();
    if (o.maxElements) limits.maxElements = *o.maxElements;
    if (o.maxBytes) limits = withMaxBytes(limits, *o.maxBytes);
    Printer printer(out, environment);
    try {
        if (o.command == "run") return runCommand(o, in, out, err, limits);
        if (o.command == "eval") return evalCommand(o, printer, err, limits);
        if (o.command == "encode") return encodeCommand(o, printer);
        if (o.command == "explain") return explainCommand(o, printer);
        if (o.command == "compare") return compareCommand(o, printer, limits);
        if (o.command == "code") return codeCommand(o, printer, limits);
        if (o.command == "model") return modelCommand(o, printer, err, limits);
        if (o.command == "equivalent") return equivalentCommand(o, printer, err, limits);
        if (o.command == "diagnose") return diagnoseCommand(o, printer, err, limits);
        return o.examples ? opsExamplesCommand(out) : opsCommand(printer);
    } catch (const UsageError& e) { // one that needs the input read to be seen (model --input)
        return usageFailure(err, e);
    } catch (...) {
        printError(err, errorFromException(std::current_exception()),
                   o.positional.empty() ? "" : o.positional[0]);
        return 1;
    }
}

} // namespace ss
