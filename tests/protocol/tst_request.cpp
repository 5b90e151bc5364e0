// SPDX-License-Identifier: GPL-3.0-or-later
// Requests and responses as engine/protocol/README.md says: every error code, wrong types for every
// field, id echo, emit modes, sources of the slicing ops, the decode object, extras, timing, and
// the request writer the GUI uses.
#include "protocol/tensor_json.h"
#include "protocol_test.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <mutex>
#include <new>
#include <numeric>

using namespace ss;
using namespace ss::testing;

namespace {

// A request on one arange-filled int32 input named `input`.
std::string onArange(const std::string& op, const std::string& shape, const std::string& attrs,
                     const std::string& extra = "")
{
    return R"({"id":1,"op":")" + op + R"(","inputs":{"input":{"dtype":"int32","shape":)" + shape +
           R"(,"fill":"arange"}},"attrs":)" + attrs + extra + "}";
}

} // namespace

class TestRequest : public QObject
{
    Q_OBJECT

private slots:
    void answersEveryErrorCode_data();
    void answersEveryErrorCode();
    void documentsEveryErrorCode();
    void refusesWrongTypes_data();
    void refusesWrongTypes();
    void refusesWhatWouldNotFitInMemory();
    void inMemoryResultsAreNotJudgedAsText();
    void sourcesNotWantedAreNeitherMadeNorCharged();
    void reportsInternalErrors();
    void progressCountsValuesAndSources();
    void mapsExceptions();
    void echoesIds_data();
    void echoesIds();
    void idIsNullWhenTheLineCannotBeRead_data();
    void idIsNullWhenTheLineCannotBeRead();
    void emitModes();
    void sourcesOfSlicingOps_data();
    void sourcesOfSlicingOps();
    void sourcesOfListInputsAndConstants();
    void seedExampleFromTheProtocol();
    void getitemDecodeOfTheSeedSpec();
    void extras();
    void timing();
    void traceSteps();
    void wordsOnlyWhereShown();
    void writesRequestsThatReadBack();
    void frameworkReadings_data();
    void frameworkReadings();
    void frameworkRequestsReadBack();
    void comparisonOfStringsIsNotModelled();
    void frameworkIndexArrays();
};

void TestRequest::answersEveryErrorCode_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("message");
    auto row = [](const char* name, const std::string& line, const char* code,
                  const char* message) {
        QTest::newRow(name) << QByteArray::fromStdString(line) << QString(code) << QString(message);
    };
    row("bad_request: not JSON", "{\"id\": 1, ", "bad_request",
        "invalid JSON: expected a member name in double quotes, found end of text at character 10");
    row("bad_request: unknown op", R"({"id":1,"op":"slicer"})", "bad_request",
        "unknown op 'slicer' (slicescope-cli ops lists them)");
    row("bad_request: bad tensor", onArange("getitem", "[2,-3]", R"({"expr":"x[0]"})"),
        "bad_request", "input 'input': shape[1] is -3; a dimension cannot be negative");
    row("parse_error", onArange("getitem", "[5]", R"({"expr":"x[1:2:3:4]"})"), "parse_error", "");
    row("invalid_argument", onArange("getitem", "[5]", R"({"expr":"x[::0]"})"), "invalid_argument",
        "strides[0] must be non-zero");
    row("out_of_range: shrink index", onArange("getitem", "[5]", R"({"expr":"x[7]"})"),
        "out_of_range", "slice index 7 of dimension 0 out of bounds.");
    row("out_of_range",
        R"({"op":"gather","inputs":{"params":{"value":[1,2,3]},"indices":{"value":[5]}}})",
        "out_of_range", "indices[0] = 5 is not in [0, 3)");
    row("resource_exhausted: input",
        R"({"op":"getitem","inputs":{"input":{"dtype":"float32","shape":[1000000,1000000],"fill":"zeros"}},"attrs":{"expr":"x[0]"}})",
        "resource_exhausted", "");
    row("resource_exhausted: output",
        R"({"op":"tile","inputs":{"input":{"dtype":"int8","shape":[1000],"fill":"zeros"}},"attrs":{"multiples":[10000000]}})",
        "resource_exhausted", "");
    row("unimplemented",
        R"({"op":"reverse","inputs":{"tensor":{"dtype":"int8","shape":[1,1,1,1,1,1,1,1,2],"fill":"zeros"}},"attrs":{"axis":[8]}})",
        "unimplemented", "reverse is not implemented for tensors of rank > 8.");
}

void TestRequest::answersEveryErrorCode()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, code);
    QFETCH(QString, message);
    const Json r = respond(line.toStdString());
    QCOMPARE(r.find("ok")->toBool(), false);
    QCOMPARE(QString::fromStdString(errorCode(r)), code);
    if (!message.isEmpty()) QCOMPARE(QString::fromStdString(errorMessage(r)), message);
    QCOMPARE(r.find("error")->find("position") != nullptr, code == "parse_error");
    if (code == "parse_error") QCOMPARE(r.find("error")->find("position")->toInt64(), 7);
}

// engine/protocol/README.md's table of error codes is ErrorCode's names, no more, no fewer
// (Internal is the enum's last value).
void TestRequest::documentsEveryErrorCode()
{
    QFile file(qEnvironmentVariable("SLICESCOPE_SOURCE_DIR") +
               QStringLiteral("/engine/protocol/README.md"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString readme = QString::fromUtf8(file.readAll());
    const QString table = readme.section(QStringLiteral("### Error codes"), 1).section("\n#", 0, 0);
    QStringList documented;
    static const QRegularExpression row(QStringLiteral("^\\| `([a-z_]+)` \\|"),
                                        QRegularExpression::MultilineOption);
    for (const QRegularExpressionMatch& m : row.globalMatch(table)) documented << m.captured(1);
    QStringList named;
    for (int code = 0; code <= int(ErrorCode::Internal); ++code)
        named << QString::fromLatin1(errorCodeName(ErrorCode(code)).data());
    documented.sort();
    named.sort();
    QCOMPARE(documented, named);
}

void TestRequest::refusesWrongTypes_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("message");
    auto row = [](const char* name, const std::string& line, const char* message) {
        QTest::newRow(name) << QByteArray::fromStdString(line) << QString(message);
    };
    const std::string input = R"("inputs":{"input":{"value":[1,2,3]}})";
    row("request is a list", "[1,2]", "a request must be a JSON object, got a list");
    row("request is a string", "\"getitem\"", "a request must be a JSON object, got a string");
    row("no op", R"({"id":1})", "the request has no \"op\"");
    row("op not a string", R"({"op":["getitem"]})", "op must be a string, got a list");
    row("unknown field", R"({"op":"getitem","atrs":{}})",
        "unknown request field \"atrs\" (a request has id, op, inputs, attrs, emit, trace, "
        "sources, timing, framework)");
    row("framework not a string", R"({"op":"getitem","framework":1})",
        "framework must be a string (tensorflow, numpy, torch, jax), got a number");
    row("framework unknown", R"({"op":"getitem","framework":"numpy2"})",
        "unknown framework 'numpy2' (a request reads with tensorflow, numpy, torch, jax; the "
        "compare op reads with every framework)");
    row("framework without index arrays", R"({"op":"getitem","framework":"onnx"})",
        "unknown framework 'onnx' (a request reads with tensorflow, numpy, torch, jax; the "
        "compare op reads with every framework)");
    row("framework of an op without a spec",
        R"({"op":"tile","inputs":{"input":{"value":[1]}},"attrs":{"multiples":[2]},"framework":"numpy"})",
        "framework 'numpy' reads the spec of getitem or strided_slice; op 'tile' is TensorFlow's "
        "alone");
    row("emit unknown", R"({"op":"getitem","emit":"all"})",
        "emit must be \"data\", \"summary\" or \"none\"");
    row("emit not a string", R"({"op":"getitem","emit":1})",
        "emit must be \"data\", \"summary\" or \"none\"");
    row("trace not a bool", R"({"op":"getitem","trace":1})",
        "trace must be true or false, got a number");
    row("sources not a bool", R"({"op":"getitem","sources":"yes"})",
        "sources must be true or false, got a string");
    row("timing not a bool", R"({"op":"getitem","timing":null})",
        "timing must be true or false, got null");
    row("inputs not an object", R"({"op":"getitem","inputs":[1]})",
        "inputs must be an object (input name -> tensor), got a list");
    row("attrs not an object", R"({"op":"getitem",)" + input + R"(,"attrs":"x[1]"})",
        "attrs must be an object (attribute name -> value), got a string");
    row("missing input", R"({"op":"getitem","attrs":{"expr":"x[1]"}})",
        "op 'getitem' needs input 'input'");
    row("unknown input", R"({"op":"getitem","inputs":{"input":{"value":[1]},"x":{"value":[1]}}})",
        "op 'getitem' has no input 'x' (its inputs: input)");
    row("input for an op without inputs", R"({"op":"encode","inputs":{"x":{"value":[1]}}})",
        "op 'encode' has no input 'x' (it takes no inputs)");
    row("list for a single input", R"({"op":"getitem","inputs":{"input":[{"value":[1]}]}})",
        "input 'input' of op 'getitem' takes one tensor, not a list");
    row("tensor for a list input",
        R"({"op":"concat","inputs":{"values":{"value":[1]}},"attrs":{"axis":0}})",
        "input 'values' of op 'concat' takes a list of tensors, got an object");
    row("bad tensor in a list",
        R"({"op":"concat","inputs":{"values":[{"value":[1]},{"value":[[1],2]}]},"attrs":{"axis":0}})",
        "input 'values'[1]: ragged value: value[1] is a number where a list of 1 was expected");
    row("tensor is a number", R"({"op":"getitem","inputs":{"input":5}})",
        "input 'input': a tensor must be an object with dtype, shape and one of data, value, fill "
        "or npy; got a number");
    row("unknown attribute",
        R"({"op":"getitem",)" + input + R"(,"attrs":{"expr":"x[1]","axis":0}})",
        "op 'getitem' has no attribute 'axis'");
    row("attribute of the wrong type",
        R"({"op":"strided_slice",)" + input + R"(,"attrs":{"begin":"0","end":[1]}})",
        "attribute 'begin' must be an integer or a rectangular list of integers");
    row("expr not a string", R"({"op":"getitem",)" + input + R"(,"attrs":{"expr":1}})",
        "op 'getitem' needs attribute 'expr', a string");
    row("attribute beyond int64",
        R"({"op":"strided_slice",)" + input +
            R"(,"attrs":{"begin":[99999999999999999999],"end":[1]}})",
        "attribute 'begin': an integer beyond the int64 range");
    row("attribute given twice under an alias",
        R"({"op":"split","inputs":{"value":{"value":[1,2]}},"attrs":{"num_or_size_splits":2,"num_split":2}})",
        "attribute 'num_or_size_splits' of op 'split' is given more than once (under an alias)");
}

void TestRequest::refusesWrongTypes()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, message);
    const Json r = respond(line.toStdString());
    QCOMPARE(errorCode(r), std::string("bad_request"));
    QCOMPARE(QString::fromStdString(errorMessage(r)), message);
}

void TestRequest::inMemoryResultsAreNotJudgedAsText()
{
    // The GUI keeps results in memory and writes no response: a refusal there must not tell the
    // user to ask for "emit": "summary", which the GUI cannot. Its tensors obey the limits.
    Limits limits; // a byte limit for this request alone
    limits.maxBytes = 20000;
    Request request;
    request.op = findOp("getitem");
    request.attrs = {{"expr", Attr("x[::-1]")}};
    request.inputs = {{makeFilled(DType::Float64, {1000}, Fill::Ones, 0, limits)}};
    request.sources = true;
    request.inMemory = true;
    const RequestResult result = runRequest(request, limits, testExecutor());
    QCOMPARE(result.outputs.front().size(), 1000);
    request.inputs = {{makeFilled(DType::Float64, {3000}, Fill::Ones, 0, Limits{})}};
    try {
        runRequest(request, limits, testExecutor());
        QFAIL("no error");
    } catch (const OpError& e) {
        QCOMPARE(e.code(), ErrorCode::ResourceExhausted);
        QVERIFY2(std::string(e.what()).find("emit") == std::string::npos, e.what());
    }
}

void TestRequest::refusesWhatWouldNotFitInMemory()
{
    Limits limits; // a byte limit for the request alone
    limits.maxBytes = 100000;
    // 4000 float64 elements take 32000 bytes, but their text (up to 25 characters each) may not
    // fit.
    const std::string line =
        R"({"id":1,"op":"getitem","inputs":{"input":{"dtype":"float64","shape":[4000],"fill":"ones"}},"attrs":{"expr":"x[::-1]"}})";
    const Json data = respond(line, limits);
    QCOMPARE(errorCode(data), std::string("resource_exhausted"));
    QCOMPARE(errorMessage(data),
             std::string("the response would take up to 104096 bytes of JSON, over "
                         "the byte limit of 100000 bytes; ask for \"emit\": \"summary\" "
                         "(and no sources)"));
    QCOMPARE(data.find("id")->toInt64(), 1);
    QVERIFY(respond(line.substr(0, line.size() - 1) + R"(,"emit":"summary"})", limits)
                .find("ok")
                ->toBool());

    limits.maxBytes = 4000; // lines of more than 50 bytes are refused before parsing
    const Json tooLong = respond(line, limits);
    QCOMPARE(errorCode(tooLong), std::string("resource_exhausted"));
    QVERIFY(tooLong.find("id")->isNull());
}

void TestRequest::sourcesNotWantedAreNeitherMadeNorCharged()
{
    // The GUI answers for a one-to-one plan's sources itself: once it has seen the plan, it says
    // so, and the 8 bytes per output element are neither made nor charged to the budget.
    Limits limits;
    limits.maxBytes = 12000; // the output (8000 bytes), and no room for its sources as well
    Request request;
    request.op = findOp("getitem");
    request.attrs = {{"expr", Attr("x[::-1]")}};
    request.inputs = {{makeFilled(DType::Float64, {1000}, Fill::Ones, 0, Limits{})}};
    request.sources = true;
    request.inMemory = true;
    int asked = 0;
    request.sourcesWanted = [&](const OpPlan& plan, const std::vector<Tensor>& inputs) {
        ++asked;
        return plan.outputs.size() != 1 || inputs.size() != 1;
    };
    const RequestResult result = runRequest(request, limits, testExecutor());
    QCOMPARE(asked, 1);
    QVERIFY(result.sources.empty());
    QCOMPARE(result.outputs.front().size(), 1000);
    // Wanted, the same request makes them, and they do not fit.
    request.sourcesWanted = [](const OpPlan&, const std::vector<Tensor>&) { return true; };
    try {
        runRequest(request, limits, testExecutor());
        QFAIL("no error");
    } catch (const OpError& e) {
        QCOMPARE(e.code(), ErrorCode::ResourceExhausted);
    }
}

void TestRequest::reportsInternalErrors()
{
    // An op whose plan forgets an element: the sources reveal it and the request fails as
    // `internal` instead of answering with uninitialised memory.
    OpDef broken;
    broken.name = "broken";
    broken.plan = [](const OpCall&) {
        OpPlan plan;
        OutputPlan out;
        out.dtype = DType::Int32;
        out.shape = {3};
        AffinePiece first = OutputPlan::identityPiece(0, {2});
        out.pieces.push_back(first);
        plan.outputs.push_back(out);
        return plan;
    };
    broken.inputs = {{"input", false}};
    Request request;
    request.op = &broken;
    request.inputs = {{Tensor::fromInts(DType::Int32, {2}, {1, 2})}};
    request.sources = true;
    try {
        runRequest(request, Limits::machineDefault(), testExecutor());
        QFAIL("no error");
    } catch (const OpError& e) {
        QCOMPARE(e.code(), ErrorCode::Internal);
        QCOMPARE(std::string(e.what()),
                 std::string("op 'broken' left element 2 of output 0 unwritten"));
        std::string text;
        JsonWriter w(text);
        writeErrorResponse(w, Json(7), e);
        QCOMPARE(
            text,
            std::string(
                R"({"id":7,"ok":false,"error":{"code":"internal","message":"op 'broken' left element 2 of output 0 unwritten"}})"));
    }
}

void TestRequest::progressCountsValuesAndSources()
{
    // Values and sources run the same pieces: progress counts both, so it reaches 1 once, at
    // the end (it used to reach 1 after the values and then report every chunk of the sources).
    Request request;
    request.op = findOp("getitem");
    std::vector<std::int64_t> values(std::size_t(1) << 20);
    std::iota(values.begin(), values.end(), 0);
    request.inputs = {{Tensor::fromInts(DType::Int32, {std::int64_t(values.size())}, values)}};
    request.attrs = {{"expr", Attr("x[::-1]")}};
    request.sources = true;
    JobContext ctx;
    std::mutex mutex;
    std::vector<double> reports;
    ctx.setProgressSink([&](double fraction) {
        const std::lock_guard lock(mutex);
        reports.push_back(fraction);
    });
    runRequest(request, Limits::machineDefault(), testExecutor(), &ctx);
    QVERIFY(!reports.empty());
    QCOMPARE(reports.back(), 1.0);
    QCOMPARE(std::count(reports.begin(), reports.end(), 1.0), 1);
    QCOMPARE(ctx.progress(), 1.0);
}

void TestRequest::mapsExceptions()
{
    auto code = [](auto exception) {
        return errorFromException(std::make_exception_ptr(exception)).code();
    };
    QCOMPARE(code(OpError(ErrorCode::OutOfRange, "x")), ErrorCode::OutOfRange);
    QCOMPARE(code(std::bad_alloc()), ErrorCode::ResourceExhausted);
    QCOMPARE(code(std::runtime_error("boom")), ErrorCode::Internal);
    QCOMPARE(code(42), ErrorCode::Internal);
    QCOMPARE(
        std::string(errorFromException(std::make_exception_ptr(std::runtime_error("boom"))).what()),
        std::string("unexpected error: boom"));
}

void TestRequest::echoesIds_data()
{
    QTest::addColumn<QByteArray>("id");
    QTest::addColumn<QByteArray>("echo");
    auto row = [](const char* name, const char* id, const char* echo) {
        QTest::newRow(name) << QByteArray(id) << QByteArray(echo);
    };
    row("integer", "1", "1");
    row("negative", "-5", "-5");
    row("int64 max", "9223372036854775807", "9223372036854775807");
    row("int64 min", "-9223372036854775808", "-9223372036854775808");
    row("float", "1.5", "1.5");
    row("float that looks whole", "1.0", "1.0");
    // Numbers come back as their text, byte for byte: none is rounded through a double.
    row("exponent", "2e-3", "2e-3");
    row("uint64 max", "18446744073709551615", "18446744073709551615");
    row("30 digits", "123456789012345678901234567890", "123456789012345678901234567890");
    row("beyond float64", "1e400", "1e400");
    row("below float64", "-1e-400", "-1e-400");
    row("trailing zeros", "1.50", "1.50");
    row("capital exponent", "1E+5", "1E+5");
    row("minus zero", "-0", "-0");
    row("numbers in a list", "[18446744073709551616, 1e400, 0.10]",
        "[18446744073709551616,1e400,0.10]");
    row("string", "\"req-1\"", "\"req-1\"");
    row("unicode string", "\"\\u00e9\\n\"", "\"\xc3\xa9\\n\"");
    row("true", "true", "true");
    row("false", "false", "false");
    row("null", "null", "null");
    row("list", "[1, [2, \"x\"], {}]", "[1,[2,\"x\"],{}]");
    row("object", "{\"a\": {\"b\": [null]}}", "{\"a\":{\"b\":[null]}}");
}

void TestRequest::echoesIds()
{
    QFETCH(QByteArray, id);
    QFETCH(QByteArray, echo);
    const std::string good =
        R"({"op":"encode","attrs":{"expr":"x[1]"},"id":)" + id.toStdString() + "}";
    const std::string bad = R"({"id":)" + id.toStdString() + R"(,"op":"nope"})";
    for (const std::string& line : {good, bad}) {
        RequestHandler handler(testExecutor(), Limits::machineDefault());
        const std::string response = handler.handleLine(line);
        QVERIFY2(response.starts_with("{\"id\":" + echo.toStdString() + ",\"ok\":"),
                 response.c_str());
    }
}

void TestRequest::idIsNullWhenTheLineCannotBeRead_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::newRow("truncated") << QByteArray(R"({"id":5,"op":"encode")");
    QTest::newRow("garbage after") << QByteArray(R"({"id":5,"op":"encode"} x)");
    QTest::newRow("not an object") << QByteArray(R"([{"id":5}])");
    QTest::newRow("binary") << QByteArray("\x01\x02\xff");
}

void TestRequest::idIsNullWhenTheLineCannotBeRead()
{
    QFETCH(QByteArray, line);
    const Json r = respond(line.toStdString());
    QVERIFY(r.find("id")->isNull());
    QCOMPARE(errorCode(r), std::string("bad_request"));
}

void TestRequest::emitModes()
{
    const std::string attrs = R"({"expr":"x[::-1]"})";
    const Json data = respond(onArange("getitem", "[3]", attrs));
    QCOMPARE(compact(*data.find("outputs")),
             std::string(R"([{"dtype":"int32","shape":[3],"data":[2,1,0]}])"));
    const Json summary = respond(onArange("getitem", "[3]", attrs, R"(,"emit":"summary")"));
    // bits 2, 1, 0 weighted 1, 3, 5: 2 + 3 = 5
    QCOMPARE(
        compact(*summary.find("outputs")),
        std::string(R"([{"dtype":"int32","shape":[3],"size":3,"checksum":"0000000000000005"}])"));
    const Json none =
        respond(onArange("getitem", "[3]", attrs, R"(,"emit":"none","sources":true)"));
    QVERIFY(none.find("outputs") == nullptr);
    QCOMPARE(compact(*none.find("sources")), std::string("[[[0,2],[0,1],[0,0]]]"));
    const Json strings = respond(
        R"({"op":"getitem","inputs":{"input":{"value":["a","b"]}},"attrs":{"expr":"x[1:]"},"emit":"summary"})");
    QCOMPARE(compact(*strings.find("outputs")),
             std::string(R"([{"dtype":"string","shape":[1],"size":1}])"));
    const Json noOutputs = respond(R"({"op":"encode","attrs":{"expr":"x[1]"}})");
    QCOMPARE(compact(*noOutputs.find("outputs")), std::string("[]"));
}

void TestRequest::sourcesOfSlicingOps_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<qint64>("size");
    auto row = [](const char* name, const std::string& line, qint64 size) {
        QTest::newRow(name) << QByteArray::fromStdString(line) << size;
    };
    row("strided_slice reversed",
        onArange("strided_slice", "[3,4]",
                 R"({"begin":[1,0],"end":[0,0],"strides":[1,-2],"begin_mask":2,"end_mask":3})"),
        4);
    row("strided_slice new axis and shrink",
        onArange(
            "strided_slice", "[2,3,4]",
            R"({"begin":[0,0,0],"end":[0,0,1],"strides":[1,1,1],"ellipsis_mask":1,"new_axis_mask":2,"shrink_axis_mask":4})"),
        6);
    row("getitem seed spec",
        onArange("getitem", "[5,5,5,5,5,5]", R"({"expr":"x[1, 2:4, None, ..., :-3:-1, :]"})"),
        2 * 5 * 5 * 2 * 5);
    row("getitem clamped", onArange("getitem", "[5]", R"({"expr":"x[100:-100:-2]"})"), 3);
    row("getitem empty", onArange("getitem", "[5]", R"({"expr":"x[3:1]"})"), 0);
    row("getitem scalar", onArange("getitem", "[]", R"({"expr":"x[None, None]"})"), 1);
    row("slice", onArange("slice", "[3,4]", R"({"begin":[1,1],"size":[2,-1]})"), 6);
    row("paddle_strided_slice",
        onArange("paddle_strided_slice", "[3,4]",
                 R"({"axes":[0,1],"starts":[-1,0],"ends":[-100,4],"strides":[-1,2]})"),
        4);
}

// On arange input every element's value is its own flat index, so the sources of a pure
// slicing op must name exactly the values that came out.
void TestRequest::sourcesOfSlicingOps()
{
    QFETCH(QByteArray, line);
    QFETCH(qint64, size);
    const std::string text = line.toStdString();
    const Json r = respond(text.substr(0, text.size() - 1) + R"(,"sources":true})");
    QVERIFY2(r.find("ok")->toBool(), compact(r).c_str());
    const auto& data = r.find("outputs")->toArray()[0].find("data")->toArray();
    const auto& sources = r.find("sources")->toArray()[0].toArray();
    QCOMPARE(qint64(data.size()), size);
    QCOMPARE(sources.size(), data.size());
    for (std::size_t i = 0; i < data.size(); ++i)
        QCOMPARE(compact(sources[i]), "[0," + std::to_string(data[i].toInt64()) + "]");
}

void TestRequest::sourcesOfListInputsAndConstants()
{
    const Json concat = respond(
        R"({"op":"concat","inputs":{"values":[{"value":[1,2]},{"value":[3]}]},"attrs":{"axis":0},"sources":true})");
    QCOMPARE(compact(*concat.find("sources")), std::string("[[[0,0],[0,1],[1,0]]]"));
    const Json pad = respond(
        R"({"op":"pad","inputs":{"tensor":{"value":[1,2]}},"attrs":{"paddings":[[1,1]]},"sources":true})");
    QCOMPARE(compact(*pad.find("sources")), std::string("[[null,[0,0],[0,1],null]]"));
    const Json split = respond(
        R"({"op":"split","inputs":{"value":{"value":[1,2,3,4]}},"attrs":{"num_or_size_splits":2},"sources":true})");
    QCOMPARE(split.find("outputs")->toArray().size(), std::size_t(2));
    QCOMPARE(compact(*split.find("sources")), std::string("[[[0,0],[0,1]],[[0,2],[0,3]]]"));
}

// The request and response of engine/protocol/README.md, to the letter.
void TestRequest::seedExampleFromTheProtocol()
{
    const Json r = respond(R"({"id": 1, "op": "strided_slice",
 "inputs": {"input": {"dtype": "int32", "shape": [3, 2, 3], "data": [1,1,1,2,2,2,3,3,3,4,4,4,5,5,5,6,6,6]}},
 "attrs": {"begin": [1, -1, 0], "end": [2, -3, 3], "strides": [1, -1, 1]},
 "trace": true, "sources": true})");
    QCOMPARE(compact(*r.find("outputs")),
             std::string(R"([{"dtype":"int32","shape":[1,2,3],"data":[4,4,4,3,3,3]}])"));
    QCOMPARE(compact(*r.find("sources")), std::string("[[[0,9],[0,10],[0,11],[0,6],[0,7],[0,8]]]"));
    const Json* decode = r.find("trace")->find("decode");
    QVERIFY(decode);
    QCOMPARE(
        compact(*decode),
        std::string(
            R"({"spec":[{"kind":"slice","begin":1,"end":2,"stride":1},{"kind":"slice","begin":-1,"end":-3,"stride":-1},{"kind":"slice","begin":0,"end":3,"stride":1}],)"
            R"("sparse":{"begin":[1,-1,0],"end":[2,-3,3],"strides":[1,-1,1],"begin_mask":0,"end_mask":0,"ellipsis_mask":0,"new_axis_mask":0,"shrink_axis_mask":0},)"
            R"("dense":{"begin":[1,-1,0],"end":[2,-3,3],"strides":[1,-1,1],"begin_mask":0,"end_mask":0,"shrink_axis_mask":0},)"
            R"("dims":[{"dim":0,"size":3,"begin":1,"end":2,"stride":1,"length":1,"shrink":false,"notes":[]},)"
            R"({"dim":1,"size":2,"begin":1,"end":-1,"stride":-1,"length":2,"shrink":false,"notes":["begin -1 is negative: counts from the end, 2 + (-1) = 1","end -3 is negative: counts from the end, 2 + (-3) = -1"]},)"
            R"({"dim":2,"size":3,"begin":0,"end":3,"stride":1,"length":3,"shrink":false,"notes":[]}],)"
            R"("processing_shape":[1,2,3],"final_shape":[1,2,3],"is_identity":false,"is_simple_slice":false,"slice_dim0":false})"));
}

// The seed walk-through: foo[1, 2:4, None, ..., :-3:-1, :] on shape (5,5,5,5,5,5).
void TestRequest::getitemDecodeOfTheSeedSpec()
{
    const Json r = respond(
        R"({"op":"getitem","inputs":{"input":{"dtype":"int8","shape":[5,5,5,5,5,5],"fill":"zeros"}},"attrs":{"expr":"x[1, 2:4, None, ..., :-3:-1, :]"},"emit":"none","trace":true})");
    const Json* decode = r.find("trace")->find("decode");
    QVERIFY2(decode, compact(r).c_str());
    QCOMPARE(
        compact(*decode->find("spec")),
        std::string(
            R"([{"kind":"index","text":"1","begin":1,"end":2,"stride":1},{"kind":"slice","text":"2:4","begin":2,"end":4,"stride":1},)"
            R"({"kind":"new_axis","text":"None","begin":null,"end":null,"stride":null},{"kind":"ellipsis","text":"...","begin":null,"end":null,"stride":null},)"
            R"({"kind":"slice","text":":-3:-1","begin":null,"end":-3,"stride":-1},{"kind":"slice","text":":","begin":null,"end":null,"stride":1}])"));
    QCOMPARE(
        compact(*decode->find("sparse")),
        std::string(
            R"({"begin":[1,2,0,0,0,0],"end":[2,4,0,0,-3,0],"strides":[1,1,1,1,-1,1],"begin_mask":48,"end_mask":32,"ellipsis_mask":8,"new_axis_mask":4,"shrink_axis_mask":1})"));
    QCOMPARE(
        compact(*decode->find("dense")),
        std::string(
            R"({"begin":[1,2,0,0,0,0],"end":[2,4,0,0,-3,0],"strides":[1,1,1,1,-1,1],"begin_mask":60,"end_mask":44,"shrink_axis_mask":1})"));
    QCOMPARE(compact(*decode->find("processing_shape")), std::string("[1,2,5,5,2,5]"));
    QCOMPARE(compact(*decode->find("final_shape")), std::string("[2,1,5,5,2,5]"));
    const Json& dim4 = decode->find("dims")->toArray()[4];
    QCOMPARE(
        compact(dim4),
        std::string(
            R"j({"dim":4,"size":5,"begin":4,"end":2,"stride":-1,"length":2,"shrink":false,"notes":["begin_mask set: begin becomes 4 (the last index, because the stride is negative)","end -3 is negative: counts from the end, 5 + (-3) = 2"]})j"));
    QCOMPARE(decode->find("dims")->toArray()[0].find("shrink")->toBool(), true);
}

void TestRequest::extras()
{
    const Json encoded =
        respond(R"({"op":"encode","attrs":{"expr":"x[1, 2:4, None, ..., :-3:-1, :]"}})");
    QCOMPARE(
        compact(*encoded.find("encoding")),
        std::string(
            R"({"begin":[1,2,0,0,0,0],"end":[2,4,0,0,-3,0],"strides":[1,1,1,1,-1,1],"begin_mask":48,"end_mask":32,"ellipsis_mask":8,"new_axis_mask":4,"shrink_axis_mask":1})"));
    const Json expr = respond(
        R"({"op":"to_expr","attrs":{"begin":[1,0],"end":[0,0],"strides":[1,-2],"begin_mask":2,"end_mask":3}})");
    QCOMPARE(compact(*expr.find("expr")), std::string("\"x[1:, ::-2]\""));
}

void TestRequest::timing()
{
    const Json r = respond(onArange("getitem", "[200,300]", R"({"expr":"x[::-1, 1::2]"})",
                                    R"(,"timing":true,"emit":"summary")"));
    const Json* timing = r.find("timing");
    QVERIFY(timing);
    const double op = timing->find("op_ms")->number().value;
    const double total = timing->find("total_ms")->number().value;
    QVERIFY(op >= 0);
    QVERIFY(total >= op);
    QVERIFY(!timing->find("op_ms")->number().isInteger);
    QVERIFY(respond(onArange("getitem", "[2]", R"({"expr":"x[0]"})")).find("timing") == nullptr);
}

void TestRequest::traceSteps()
{
    for (const std::string& line :
         {onArange("slice", "[3,4]", R"({"begin":[1,1],"size":[2,-1]})", R"(,"trace":true)"),
          onArange("getitem", "[3,4]", R"({"expr":"x[1]"})", R"(,"trace":true)"),
          std::string(R"({"op":"encode","attrs":{"expr":"x[1]"},"trace":true})")}) {
        const Json r = respond(line);
        const Json* trace = r.find("trace");
        QVERIFY2(trace, compact(r).c_str());
        const auto& steps = trace->find("steps")->toArray();
        QVERIFY(!steps.empty());
        for (const Json& step : steps) {
            QCOMPARE(step.toObject().size(), std::size_t(2));
            QVERIFY(!step.find("title")->toString().empty());
            QVERIFY(!step.find("detail")->toString().empty());
        }
        QCOMPARE(trace->find("decode") != nullptr, line.find("getitem") != std::string::npos);
    }
}

// A plan's words (steps, the decode's notes) are made for a request that shows them: one read
// from JSON with `trace`, and any the caller builds itself (the GUI shows them in its decode
// panel). Without them a small slice plans several times faster; its result is the same.
void TestRequest::wordsOnlyWhereShown()
{
    const Limits limits = Limits::machineDefault();
    const std::string line = onArange("getitem", "[3,4]", R"({"expr":"x[1, ::-1]"})");
    Request asked = requestFromJson(parseJson(line), limits);
    const RequestResult bare = runRequest(asked, limits, testExecutor());
    QVERIFY(!asked.explain);
    QVERIFY(bare.plan.steps.empty());
    QVERIFY(bare.plan.decode->dims[1].notes.empty());
    const Request traced =
        requestFromJson(parseJson(line.substr(0, line.size() - 1) + R"(,"trace":true})"), limits);
    QVERIFY(traced.explain);
    const RequestResult full = runRequest(traced, limits, testExecutor());
    QVERIFY(!full.plan.steps.empty());
    QVERIFY(!full.plan.decode->dims[1].notes.empty()); // both ends masked
    asked.explain = Request().explain;                 // as the GUI builds its requests
    QVERIFY(!runRequest(asked, limits, testExecutor()).plan.steps.empty());
    QCOMPARE(bare.outputs[0].toInt64Vector(), full.outputs[0].toInt64Vector());
    QCOMPARE(bare.outputs[0].toInt64Vector(), (std::vector<std::int64_t>{7, 6, 5, 4}));
}

void TestRequest::writesRequestsThatReadBack()
{
    const Limits limits = Limits::machineDefault();
    const Json in = parseJson(
        R"({"id":"w","op":"pack","inputs":{"values":[{"value":[1.5,2]},{"dtype":"float32","shape":[2],"data":["nan",-0.0]}]},"attrs":{"axis":-1},"emit":"summary","trace":true,"timing":true})");
    const Request request = requestFromJson(in, limits);
    QCOMPARE(request.op->name, std::string("stack"));
    std::string text;
    JsonWriter w(text);
    writeRequest(w, request);
    QCOMPARE(
        text,
        std::string(
            R"({"id":"w","op":"stack","inputs":{"values":[{"dtype":"float32","shape":[2],"data":[1.5,2]},{"dtype":"float32","shape":[2],"data":["nan",-0]}]},"attrs":{"axis":-1},"emit":"summary","trace":true,"timing":true})"));
    const Request back = requestFromJson(parseJson(text), limits);
    QCOMPARE(back.op, request.op);
    QVERIFY(back.attrs == request.attrs);
    QCOMPARE(back.emitMode, request.emitMode);
    QCOMPARE(back.trace, request.trace);
    QCOMPARE(back.timing, request.timing);
    QCOMPARE(back.sources, request.sources);
    for (std::size_t k = 0; k < 2; ++k)
        QVERIFY(back.inputs[0][k].identical(request.inputs[0][k]));
}

void TestRequest::frameworkReadings_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("code");   // "" for a result
    QTest::addColumn<QString>("result"); // the output's shape and data, or the error message
    auto row = [](const char* name, const std::string& op, const std::string& shape,
                  const std::string& attrs, const std::string& framework, const char* code,
                  const char* result) {
        const std::string extra = framework.empty() ? "" : R"(,"framework":")" + framework + "\"";
        QTest::newRow(name) << QByteArray::fromStdString(onArange(op, shape, attrs, extra))
                            << QString(code) << QString(result);
    };
    const std::string rowsAndColumns = R"({"expr":"x[[0, 2], 1:]"})";
    row("numpy: rows and a slice", "getitem", "[3,4]", rowsAndColumns, "numpy", "",
        "[2,3] [1,2,3,9,10,11]");
    row("torch: rows and a slice", "getitem", "[3,4]", rowsAndColumns, "torch", "",
        "[2,3] [1,2,3,9,10,11]");
    row("jax: rows and a slice", "getitem", "[3,4]", rowsAndColumns, "jax", "",
        "[2,3] [1,2,3,9,10,11]");
    row("np alias", "getitem", "[3,4]", rowsAndColumns, "np", "", "[2,3] [1,2,3,9,10,11]");
    row("tensorflow refuses index arrays", "getitem", "[3,4]", rowsAndColumns, "tensorflow",
        "invalid_argument", "");
    row("no framework is tensorflow", "getitem", "[3,4]", rowsAndColumns, "", "invalid_argument",
        "");
    // The advanced axes go first when a slice separates them.
    row("numpy: separated index arrays", "getitem", "[2,3,4]", R"({"expr":"x[[1, 0], :, [3, 3]]"})",
        "numpy", "", "[2,3] [15,19,23,3,7,11]");
    row("numpy: boolean mask", "getitem", "[3]", R"({"expr":"x[[True, False, True]]"})", "numpy",
        "", "[2] [0,2]");
    row("numpy: out of bounds", "getitem", "[3,4]", R"({"expr":"x[[0, 5]]"})", "numpy",
        "invalid_argument",
        "NumPy 1.24 raises IndexError: index 5 is out of bounds for axis 0 with size 3");
    row("numpy: parse error", "getitem", "[3,4]", R"({"expr":"x[[0, 2"})", "numpy", "parse_error",
        "");
    row("numpy: strided_slice's arguments", "strided_slice", "[5]",
        R"({"begin":[4],"end":[-6],"strides":[-1]})", "numpy", "", "[5] [4,3,2,1,0]");
    // TFLite's offset: false is the plain arguments, true no framework's subscript reads.
    row("numpy: strided_slice, offset false", "strided_slice", "[5]",
        R"({"begin":[1],"end":[3],"strides":[1],"offset":false})", "numpy", "", "[2] [1,2]");
    row("torch: strided_slice, offset 0", "strided_slice", "[5]",
        R"({"begin":[1],"end":[3],"strides":[1],"offset":0})", "torch", "", "[2] [1,2]");
    row("numpy: strided_slice, offset true", "strided_slice", "[5]",
        R"({"begin":[1],"end":[3],"strides":[1],"offset":true})", "numpy", "bad_request",
        "op 'strided_slice' with offset true (TFLite: each end counts from its entry's begin) is "
        "read by TensorFlow alone: no NumPy, PyTorch or JAX subscript reads its arguments that "
        "way");
    row("jax: strided_slice, offset 2", "strided_slice", "[5]",
        R"({"begin":[1],"end":[3],"strides":[1],"offset":2})", "jax", "bad_request",
        "attribute 'offset' must be true or false");
    row("tensorflow: strided_slice, offset true", "strided_slice", "[5]",
        R"({"begin":[1],"end":[3],"strides":[1],"offset":true})", "tensorflow", "", "[3] [1,2,3]");
    row("torch: negative step", "getitem", "[5]", R"({"expr":"x[::-1]"})", "torch",
        "invalid_argument", "PyTorch 1.13 raises ValueError: step must be greater than zero");
    // A comparison of the tensor with a number is a mask of its values.
    row("numpy: x > 6", "getitem", "[3,4]", R"({"expr":"x[x > 6]"})", "numpy", "",
        "[5] [7,8,9,10,11]");
    row("torch: x >= 10 with a slice", "getitem", "[3,4]", R"({"expr":"x[x>=10]"})", "torch", "",
        "[2] [10,11]");
    row("jax: x == 2.0", "getitem", "[5]", R"({"expr":"x[x == 2.0]"})", "jax", "", "[1] [2]");
    row("numpy: x != 0 on the leading axes only", "getitem", "[2,2]", R"({"expr":"x[x != 0, 1]"})",
        "numpy", "invalid_argument",
        "NumPy 1.24 raises IndexError: too many indices for array: array is 2-dimensional, but 3 "
        "were indexed");
    row("tensorflow: x > 6", "getitem", "[3,4]", R"({"expr":"x[x > 6]"})", "", "invalid_argument",
        "x > 6 is a boolean tensor, and getitem reads TensorFlow's basic subscripts only "
        "(integers, slices, None, ...): read the expression as NumPy, PyTorch or JAX to use it "
        "as a mask, or use the boolean_mask op");
    row("numpy: another name", "getitem", "[3,4]", R"({"expr":"x[y > 6]"})", "numpy", "parse_error",
        "");
    row("numpy: no number", "getitem", "[3,4]", R"({"expr":"x[x > y]"})", "numpy", "parse_error",
        "expected a number to compare x with (at position 6)");
}

// The framework's reading replaces the op's: values, sources (every output element names the
// input element it was read from) and steps all come from that framework's plan.
void TestRequest::frameworkReadings()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, code);
    QFETCH(QString, result);
    const std::string text = line.toStdString();
    const Json r = respond(text.substr(0, text.size() - 1) + R"(,"sources":true,"trace":true})");
    QCOMPARE(QString::fromStdString(errorCode(r)), code);
    if (!code.isEmpty()) {
        if (!result.isEmpty()) QCOMPARE(QString::fromStdString(errorMessage(r)), result);
        return;
    }
    const Json& out = r.find("outputs")->toArray()[0];
    QCOMPARE(QString::fromStdString(compact(*out.find("shape")) + " " + compact(*out.find("data"))),
             result);
    const auto& data = out.find("data")->toArray();
    const auto& sources = r.find("sources")->toArray()[0].toArray();
    QCOMPARE(sources.size(), data.size());
    for (std::size_t i = 0; i < data.size(); ++i)
        QCOMPARE(compact(sources[i]), "[0," + std::to_string(data[i].toInt64()) + "]");
    QVERIFY(!r.find("trace")->find("steps")->toArray().empty());
}

void TestRequest::comparisonOfStringsIsNotModelled()
{
    const Json r = respond(
        R"({"op":"getitem","framework":"numpy","inputs":{"input":{"value":["a","b"]}},"attrs":{"expr":"x[x > 1]"}})");
    QCOMPARE(errorCode(r), std::string("unimplemented"));
    QCOMPARE(errorMessage(r), std::string("NumPy 1.24: not modelled: x > 1 on a string tensor is "
                                          "not modelled: the mask compares numbers"));
}

// What a hover explains an advanced result's elements from: the index arrays as read.
void TestRequest::frameworkIndexArrays()
{
    const Json r = respond(
        onArange("getitem", "[3,4]", R"({"expr":"x[[-1, 0], 1:]"})", R"(,"framework":"numpy")"));
    QVERIFY2(r.find("ok")->toBool(), compact(r).c_str());
    QCOMPARE(
        compact(*r.find("index_arrays")),
        std::string(
            R"({"broadcast":[2],"position":0,"rank":2,"arrays":[{"name":"idx0","dim":0,"shape":[2],"values":[2,0]}]})"));
    // TensorFlow's own result has none.
    const Json tf = respond(onArange("getitem", "[3,4]", R"({"expr":"x[1:]"})"));
    QVERIFY(!tf.find("index_arrays"));
}

void TestRequest::frameworkRequestsReadBack()
{
    const Limits limits = Limits::machineDefault();
    const Request request = requestFromJson(
        parseJson(onArange("getitem", "[3]", R"({"expr":"x[[2]]"})", R"(,"framework":"torch")")),
        limits);
    QCOMPARE(request.framework, Framework::PyTorch);
    std::string text;
    JsonWriter w(text);
    writeRequest(w, request);
    QVERIFY2(text.find(R"("framework":"torch")") != std::string::npos, text.c_str());
    QCOMPARE(requestFromJson(parseJson(text), limits).framework, Framework::PyTorch);
    // TensorFlow, the default, is not written: such a request is what it was before the field.
    const Request plain =
        requestFromJson(parseJson(onArange("getitem", "[3]", R"({"expr":"x[2]"})")), limits);
    QCOMPARE(plain.framework, Framework::TensorFlow);
    text.clear();
    JsonWriter w2(text);
    writeRequest(w2, plain);
    QVERIFY2(text.find("framework") == std::string::npos, text.c_str());
}

QTEST_APPLESS_MAIN(TestRequest)
#include "tst_request.moc"
