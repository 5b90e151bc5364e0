// SPDX-License-Identifier: GPL-3.0-or-later
// slicescope-cli equivalent and diagnose, and the protocol's "equivalent" request: text, JSON,
// exit statuses and errors, in process (runCli).
#include "cli_test.h"
#include "protocol/npy.h"
#include "protocol_test.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sstream>

using namespace ss;
using namespace ss::testing;

namespace {

CliRun cli(const std::vector<std::string>& args, const std::string& input = "")
{
    return runCliCapturing(args, input, {.width = 200});
}

const std::string kUnsqueeze23 =
    "{\"op\": \"strided_slice\", \"attrs\": {\"begin\": [0, 0, 0, 0], \"end\": [0, 0, 0, 0],\n     "
    "   \"begin_mask\": 3, \"end_mask\": 3, \"new_axis_mask\": 12}}";
const std::string kUnsqueeze12 =
    "[{\"op\": \"strided_slice\", \"attrs\": {\"begin\": [0, 0, 0, 0], \"end\": [0, 0, 0, 0],\n    "
    "    \"begin_mask\": 9, \"end_mask\": 9, \"new_axis_mask\": 6}}]";
const std::string kSubscript =
    "{\"op\": \"getitem\", \"attrs\": {\"expr\": \"x[..., None, None]\"}}";

// JSON Lines: the constants above are written over several lines for reading.
std::string oneLine(std::string text)
{
    for (std::size_t k = 0; k + 1 < text.size(); ++k)
        if (text[k] == '\n' && text[k + 1] == ' ') text[k] = ' ';
    return text;
}

std::string request10(const std::string& expr)
{
    return "{\"op\": \"getitem\", \"inputs\": {\"input\": {\"dtype\": \"int32\", \"shape\": "
           "[10],\n               \"fill\": \"arange\"}}, \"attrs\": {\"expr\": \"" +
           expr + "\"}}";
}

} // namespace

class TestCliDiagnosis : public QObject
{
    Q_OBJECT

private slots:
    void equivalentText();
    void equivalentJsonAndFiles();
    void equivalentProtocolRequest();
    void equivalentErrors_data();
    void equivalentErrors();
    void diagnoseText();
    void diagnoseReversedEndOffByOne();
    void diagnoseJsonAndShapes();
    void diagnoseErrors();
    void diagnoseSubscript();
    void diagnoseProtocolRequest();
    void diagnoseResponseIsBudgeted();
};

void TestCliDiagnosis::equivalentText()
{
    const CliRun same = cli({"equivalent", kSubscript, kUnsqueeze23, "--shape", "2,3"});
    QCOMPARE(same.exit, 0);
    QCOMPARE(same.out, std::string("A: getitem -> (2, 3, 1, 1)\nB: strided_slice -> (2, 3, 1, 1)\n"
                                   "equivalent for x of shape (2, 3): both read the same 6 "
                                   "elements in the same order, output shape (2, 3, 1, 1)\n"));
    const CliRun differ = cli({"equivalent", kSubscript, kUnsqueeze12, "--shape", "2,3"});
    QCOMPARE(differ.exit, 1);
    QVERIFY(differ.out.find("not equivalent for x of shape (2, 3): the outputs differ in "
                            "shape: A gives (2, 3, 1, 1), B gives (2, 1, 1, 3)") !=
            std::string::npos);
}

void TestCliDiagnosis::equivalentJsonAndFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("b.json");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"op\": \"onnx_slice\", \"attrs\": {\"starts\": [8], \"ends\": [-100], \"steps\": "
            "[-1]}}");
    f.close();
    const CliRun run =
        cli({"equivalent", request10("x[9:0:-1]"), path.toStdString(), "--shape", "10", "--json"});
    QCOMPARE(run.exit, 1);
    QCOMPARE(
        run.out,
        std::string("{\"id\":null,\"ok\":true,\"equivalent\":false,\"shape_a\":[9],\"shape_b\":[9],"
                    "\"explanation\":\"at output [0] A reads x[9] and B reads x[8]\","
                    "\"position\":[0],\"source_a\":[9],\"source_b\":[8]}"
                    "\n"));
}

void TestCliDiagnosis::equivalentProtocolRequest()
{
    const std::string line =
        "{\"id\": 7, \"op\": \"equivalent\", \"shape\": [2, 3], \"a\": " + kSubscript +
        ", \"b\": " + kUnsqueeze23 + "}\n" +
        "{\"id\": 8, \"op\": \"equivalent\", \"shape\": [2, 3], \"a\": " + kSubscript + "}\n";
    const CliRun run = cli({"run"}, oneLine(line));
    QCOMPARE(run.exit, 0);
    QCOMPARE(run.out,
             std::string("{\"id\":7,\"ok\":true,\"equivalent\":true,\"shape_a\":[2,3,1,1],"
                         "\"shape_b\":[2,3,1,1],\"explanation\":\"both read the same 6 "
                         "elements in the same order, output shape (2, 3, 1, 1)\"}"
                         "\n"
                         "{\"id\":8,\"ok\":false,\"error\":{\"code\":\"bad_request\","
                         "\"message\":\"an equivalent request needs \\\"a\\\" and \\\"b\\\"\"}}"
                         "\n"));
}

void TestCliDiagnosis::equivalentErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exit");
    QTest::addColumn<QString>("err");
    QTest::newRow("no shape") << QStringList{"equivalent", "{}", "{}"} << 2
                              << "slicescope-cli: 'equivalent' needs --shape, e.g. --shape 5,6";
    QTest::newRow("one program") << QStringList{"equivalent", "{}", "--shape", "3"} << 2
                                 << "slicescope-cli: 'equivalent' needs two slice programs A and B";
    QTest::newRow("unknown op")
        << QStringList{"equivalent", "{\"op\": \"nope\"}", "{\"op\": \"nope\"}", "--shape", "3"}
        << 1 << "slicescope-cli: bad_request: A: unknown op 'nope' (slicescope-cli ops lists them)";
    QTest::newRow("two inputs")
        << QStringList{"equivalent", "[{\"op\": \"gather\"}]", "{\"op\": \"reverse\"}", "--shape",
                       "3"}
        << 1
        << "slicescope-cli: bad_request: a: step 1: gather takes more than one input tensor; "
           "a chain's steps take one";
    QTest::newRow("missing file")
        << QStringList{"equivalent", "/nonexistent/a.json", "{}", "--shape", "3"} << 1
        << "slicescope-cli: bad_request: A: cannot read '/nonexistent/a.json': No such file or "
           "directory";
    QTest::newRow("a directory") << QStringList{"equivalent", "/", "{}", "--shape", "3"} << 1
                                 << "slicescope-cli: bad_request: A: cannot read '/': it is a "
                                    "directory";
    QTest::newRow("a number") << QStringList{"equivalent", "[1]", "{}", "--shape", "3"} << 1
                              << "slicescope-cli: bad_request: A step 1 must be an object "
                                 "{\"op\", \"attrs\"}, got a number";
}

void TestCliDiagnosis::equivalentErrors()
{
    QFETCH(QStringList, args);
    QFETCH(int, exit);
    QFETCH(QString, err);
    std::vector<std::string> a;
    for (const QString& s : args)
        a.push_back(s.toStdString());
    const CliRun run = cli(a);
    QCOMPARE(run.exit, exit);
    QCOMPARE(QString::fromStdString(run.err).split('\n').first(), err);
    QCOMPARE(run.out, std::string());
}

void TestCliDiagnosis::diagnoseText()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("actual.npy").toStdString();
    writeNpyFile(path, Tensor::fromInts(DType::Int32, {9}, {8, 7, 6, 5, 4, 3, 2, 1, 0}));
    const CliRun run = cli({"diagnose", request10("x[9:0:-1]"), "--actual", path});
    QCOMPARE(run.exit, 1);
    QCOMPARE(run.out, "expected: getitem x[9:0:-1] on x int32 (10,) -> (9,)\n"
                      "actual:   " +
                          path +
                          " int32 (9,)\n"
                          "0 elements match, 9 differ\n"
                          "first differences:\n"
                          "  [0]: expected 9 (from x[9]), actual 8 (from x[8])\n"
                          "  [1]: expected 8 (from x[8]), actual 7 (from x[7])\n"
                          "  [2]: expected 7 (from x[7]), actual 6 (from x[6])\n"
                          "  [3]: expected 6 (from x[6]), actual 5 (from x[5])\n"
                          "  [4]: expected 5 (from x[5]), actual 4 (from x[4])\n"
                          "expected reads: x[:0:-1]\n"
                          "actual reads:   x[8::-1]\n"
                          "diagnosis (begin_off_by_one): the runtime read x[8::-1]; you asked for "
                          "x[9:0:-1]: its begin is one lower\n");

    // A right answer exits 0.
    writeNpyFile(path, Tensor::fromInts(DType::Int32, {9}, {9, 8, 7, 6, 5, 4, 3, 2, 1}));
    const CliRun right = cli({"diagnose", request10("x[9:0:-1]"), "--actual", path});
    QCOMPARE(right.exit, 0);
    QVERIFY(right.out.find("diagnosis (equivalent): the actual output is the expected one") !=
            std::string::npos);
}

// A reversed axis that stops at index 0 instead of running past it: the class names the end
// that is off by one (it said other_spec), and with the shapes (3, 4) and (3, 3) the elements
// are compared at the positions both have (by flat index, [0, 3] was paired with [1, 0]).
void TestCliDiagnosis::diagnoseReversedEndOffByOne()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("actual.npy").toStdString();
    writeNpyFile(path, Tensor::fromInts(DType::Int32, {3, 3}, {3, 2, 1, 7, 6, 5, 11, 10, 9}));
    const std::string request =
        "{\"op\": \"getitem\", \"inputs\": {\"input\": {\"dtype\": \"int32\", \"shape\": "
        "[3, 4], \"fill\": \"arange\"}}, \"attrs\": {\"expr\": \"x[:, ::-1]\"}}";
    const CliRun run = cli({"diagnose", request, "--actual", path});
    QCOMPARE(run.exit, 1);
    QVERIFY2(run.out.find("first differences") == std::string::npos, run.out.c_str());
    QVERIFY2(run.out.find("no element differs at the positions both shapes have.\n") !=
                 std::string::npos,
             run.out.c_str());
    QVERIFY2(run.out.find("diagnosis (end_off_by_one): the runtime read x[:, :0:-1]; you asked "
                          "for x[:, ::-1]: its end on axis 1 is one higher, so it reads one "
                          "element fewer\n") != std::string::npos,
             run.out.c_str());
    // Shifted by one row as well, the pairs that differ are listed at their common positions.
    writeNpyFile(path, Tensor::fromInts(DType::Int32, {3, 3}, {7, 6, 5, 11, 10, 9, 3, 2, 1}));
    const CliRun shifted = cli({"diagnose", request, "--actual", path});
    QVERIFY2(shifted.out.find("first differences (at the positions both shapes have):\n"
                              "  [0, 0]: expected 3 (from x[0, 3]), actual 7 (from x[1, 3])\n") !=
                 std::string::npos,
             shifted.out.c_str());
    // Of another rank, they cannot be paired, and it says so.
    writeNpyFile(path, Tensor::fromInts(DType::Int32, {9}, {3, 2, 1, 7, 6, 5, 11, 10, 9}));
    const CliRun flat = cli({"diagnose", request, "--actual", path});
    QVERIFY2(flat.out.find("the elements cannot be paired by position: the outputs have ranks 2 "
                           "and 1.\n") != std::string::npos,
             flat.out.c_str());
}

void TestCliDiagnosis::diagnoseJsonAndShapes()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("actual.npy").toStdString();
    // x[2:, None] on (10,) is (8, 1); the runtime put the axis first.
    writeNpyFile(path, Tensor::fromInts(DType::Int32, {1, 8}, {2, 3, 4, 5, 6, 7, 8, 9}));
    const CliRun run = cli({"diagnose", request10("x[2:, None]"), "--actual", path, "--json"});
    QCOMPARE(run.exit, 1);
    QCOMPARE(run.out,
             std::string(
                 "{\"class\":\"new_axis_moved\",\"sentence\":\"the new axis landed at position 0, "
                 "not 1\","
                 "\"shape_note\":\"the actual output has its axis of size 1 at position 0, not 1\","
                 "\"expected_shape\":[8,1],\"actual_shape\":[1,8],\"matching\":0,\"differing\":8,"
                 "\"differences\":[],\"pairing\":\"by position with the size-1 axes left out\","
                 "\"sources_recovered\":true,"
                 "\"expected_spec\":\"x[2:, None]\",\"actual_spec\":\"x[None, 2:]\"}"
                 "\n"));
    // INT_MAX read as the last index, from a strided_slice request.
    writeNpyFile(path, Tensor::fromInts(DType::Int32, {6}, {3, 4, 5, 6, 7, 8}));
    const std::string ss = "{\"op\": \"strided_slice\", \"inputs\": {\"input\": {\"dtype\": "
                           "\"int32\", \"shape\": [10],\n            \"fill\": \"arange\"}}, "
                           "\"attrs\": {\"begin\": [3], \"end\": [2147483647]}}";
    const CliRun last = cli({"diagnose", ss, "--actual", path, "--json"});
    QCOMPARE(last.exit, 1);
    QVERIFY2(last.out.find("\"class\":\"end_read_as_last\",\"sentence\":\"the end INT_MAX was read "
                           "as the last element\"") != std::string::npos,
             last.out.c_str());
    QVERIFY(last.out.find("\"shape_note\":\"the actual output has shape (6,) (6 elements), not "
                          "(7,) (7)\"") != std::string::npos);
}

void TestCliDiagnosis::diagnoseErrors()
{
    const CliRun noActual = cli({"diagnose", request10("x[1:]")});
    QCOMPARE(noActual.exit, 2);
    QVERIFY(noActual.err.find("'diagnose' needs --actual FILE.npy") != std::string::npos);
    const CliRun missing = cli({"diagnose", request10("x[1:]"), "--actual", "/nonexistent/a.npy"});
    QCOMPARE(missing.exit, 1);
    QVERIFY2(missing.err.find("/nonexistent/a.npy") != std::string::npos, missing.err.c_str());
    QCOMPARE(missing.out, std::string());
    const CliRun badRequest = cli({"diagnose", "{\"op\": \"getitem\"}", "--actual", "a.npy"});
    QCOMPARE(badRequest.exit, 1);
    QVERIFY2(badRequest.err.find("bad_request") != std::string::npos, badRequest.err.c_str());
}

// A subscript with --shape is diagnosed as eval reads it (x an arange of that shape): the same
// answer as its request. It was refused ("--shape does not apply to 'diagnose'"), and without
// --shape the subscript was taken for a file name ("cannot read 'x[9:0:-1]'").
void TestCliDiagnosis::diagnoseSubscript()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("actual.npy").toStdString();
    writeNpyFile(path, Tensor::fromInts(DType::Int32, {9}, {8, 7, 6, 5, 4, 3, 2, 1, 0}));
    const CliRun asRequest = cli({"diagnose", request10("x[9:0:-1]"), "--actual", path});
    const CliRun asSubscript =
        cli({"diagnose", "x[9:0:-1]", "--shape", "10", "--actual", path});
    QCOMPARE(asSubscript.exit, 1);
    QVERIFY2(asSubscript.err.empty(), asSubscript.err.c_str());
    QCOMPARE(asSubscript.out, asRequest.out);
    // --dtype goes with it; the input is still an arange.
    const CliRun int64 =
        cli({"diagnose", "x[9:0:-1]", "--shape", "10", "--dtype", "int64", "--actual", path});
    QVERIFY2(int64.out.starts_with("expected: getitem x[9:0:-1] on x int64 (10,) -> (9,)\n"),
             int64.out.c_str());
    const CliRun noShape = cli({"diagnose", "x[9:0:-1]", "--actual", path});
    QCOMPARE(noShape.exit, 2);
    QVERIFY2(noShape.err.find("'diagnose' needs --shape, e.g. --shape 5,6") != std::string::npos,
             noShape.err.c_str());
    const CliRun requestAndShape =
        cli({"diagnose", request10("x[1:]"), "--shape", "10", "--actual", path});
    QCOMPARE(requestAndShape.exit, 2);
    QVERIFY2(requestAndShape.err.find("the request gives its input") != std::string::npos,
             requestAndShape.err.c_str());
}

// The protocol's diagnose request: the diagnosis object, every differing position and the
// input element each actual value was read from; errors name the member that is wrong.
void TestCliDiagnosis::diagnoseProtocolRequest()
{
    const std::string actual = "{\"dtype\": \"int32\", \"shape\": [4], \"data\": [1, 3, 5, 99]}";
    const std::string line =
        "{\"id\": 3, \"op\": \"diagnose\", \"request\": " + request10("x[1:8:2]") +
        ", \"actual\": " + actual + "}\n" +
        "{\"id\": 4, \"op\": \"diagnose\", \"request\": " + request10("x[1:5]") +
        ", \"actual\": {\"dtype\": \"int32\", \"shape\": [2], \"data\": [1, 2, 3]}}\n" +
        "{\"id\": 5, \"op\": \"diagnose\", \"request\": " + request10("x[1:5]") + "}\n" +
        "{\"id\": 6, \"op\": \"diagnose\", \"request\": " + request10("x[1:") +
        ", \"actual\": " + actual + "}\n";
    const CliRun run = cli({"run"}, oneLine(line));
    QCOMPARE(run.exit, 0);
    std::istringstream lines(run.out);
    std::string first, second, third, fourth;
    std::getline(lines, first);
    std::getline(lines, second);
    std::getline(lines, third);
    std::getline(lines, fourth);
    QCOMPARE(first,
             std::string(
                 "{\"id\":3,\"ok\":true,\"diagnosis\":{\"class\":\"no_simple_spec\",\"sentence\":"
                 "\"no simple spec reads what the actual output holds; it holds, in order: x[1], "
                 "x[3], x[5], not in x\",\"shape_note\":\"\",\"expected_shape\":[4],"
                 "\"actual_shape\":[4],\"matching\":3,\"differing\":1,\"differences\":["
                 "{\"position\":[3],\"expected\":\"7\",\"actual\":\"99\",\"expected_source\":[7],"
                 "\"actual_source\":null}],\"pairing\":\"\",\"sources_recovered\":true,"
                 "\"expected_spec\":"
                 "\"x[1:8:2]\",\"actual_spec\":null},\"differing_positions\":[3],"
                 "\"actual_sources\":[1,3,5,null]}"));
    QVERIFY2(second.find("{\"id\":4,\"ok\":false,\"error\":{\"code\":\"bad_request\","
                         "\"message\":\"actual: ") == 0,
             second.c_str());
    QCOMPARE(third, std::string("{\"id\":5,\"ok\":false,\"error\":{\"code\":\"bad_request\","
                                "\"message\":\"a diagnose request needs \\\"actual\\\", the "
                                "output to explain\"}}"));
    QVERIFY2(fourth.find("\"message\":\"request: ") != std::string::npos, fourth.c_str());
}

// The diagnose response's per-element lists count against the request's memory limit: a
// large actual output is refused with resource_exhausted, not written out past the limit.
void TestCliDiagnosis::diagnoseResponseIsBudgeted()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("zeros.npy").toStdString();
    const std::int64_t n = 200000;
    writeNpyFile(path, Tensor::zeros(DType::Int32, {n}, Limits::machineDefault()));
    const std::string line =
        "{\"id\": 1, \"op\": \"diagnose\", \"request\": {\"op\": \"getitem\", \"inputs\": "
        "{\"input\": {\"dtype\": \"int32\", \"shape\": [200000], \"fill\": \"arange\"}}, "
        "\"attrs\": {\"expr\": \"x[:]\"}}, \"actual\": {\"dtype\": \"int32\", \"shape\": "
        "[200000], \"npy\": \"" +
        path + "\"}}\n";
    const CliRun small = cli({"--max-bytes", "12000000", "run"}, line);
    QVERIFY2(small.out.find("\"code\":\"resource_exhausted\"") != std::string::npos,
             small.out.substr(0, 300).c_str());
    QVERIFY2(small.out.find("the diagnosis's lists of 200000 elements") != std::string::npos,
             small.out.substr(0, 300).c_str());
    // With room, the same request is answered.
    const CliRun roomy = cli({"--max-bytes", "400000000", "run"}, line);
    QVERIFY2(roomy.out.find("{\"id\":1,\"ok\":true,\"diagnosis\":{\"class\":") == 0,
             roomy.out.substr(0, 300).c_str());
}

QTEST_APPLESS_MAIN(TestCliDiagnosis)
#include "tst_cli_diagnosis.moc"
