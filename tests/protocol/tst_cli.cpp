// SPDX-License-Identifier: GPL-3.0-or-later
// slicescope-cli: every command in process (runCli), usage errors, and the real executable's
// `run` loop through QProcess (one flushed response per line, bad lines never stop it).
#include "cli_test.h"
#include "core/op.h"
#include "core/tensorflow_version.h"
#include "model/model_graph.h"
#include "npy_testing.h"
#include "protocol/npy.h"
#include "protocol/text_format.h"
#include "protocol_test.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace ss;
using namespace ss::testing;

namespace {

CliRun cli(const std::vector<std::string>& args, const std::string& input = "")
{
    return runCliCapturing(args, input, {.version = "1.2.3"});
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> result;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        result.push_back(line);
    return result;
}

const char* kSeedExpr = "x[1, 2:4, None, ..., :-3:-1, :]";

// The process's peak resident memory (VmHWM) in bytes, or -1.
std::int64_t peakResident()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly)) return -1;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').front().toLongLong() * 1024;
    return -1;
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void versionAndHelp();
    void usageNamesEveryModelFormat();
    void usageErrors_data();
    void usageErrors();
    void explainShowsEveryStage();
    void explainShowsHowFarTheDecodeGot();
    void encodePrintsMasksInDecimalAndBinary();
    void evalPrintsInputResultAndDecode();
    void evalJsonIsTheResponseObject();
    void evalSavesTheResult();
    void evalErrors();
    void evalReadsAPastedCall_data();
    void evalReadsAPastedCall();
    void evalIsSizedBeforeItsInputIsMade();
    void evalSlicesAFileBiggerThanTheLimitWhereItLies();
    void evalShowsAViewOfAFileOverTheLimits_data();
    void evalShowsAViewOfAFileOverTheLimits();
    void opsListsEveryOp();
    void opsExamplesAreAnsweredByRun();
    void runAnswersEveryLineInOrder();
    void runReportsWriteFailures();
    void runReadsFiles();
    void executableRunsInteractively();
    void executableAnswersMixedInput();
    void executableReusesItsMemoryRequestAfterRequest();
    void anInterruptedSaveLeavesNoFileBehind_data();
    void anInterruptedSaveLeavesNoFileBehind();
    void emptyTensorsWithHugeAxesPrintAtOnce_data();
    void emptyTensorsWithHugeAxesPrintAtOnce();
};

void TestCli::versionAndHelp()
{
    const CliRun version = cli({"--version"});
    QCOMPARE(version.exit, 0);
    QCOMPARE(version.out, "slicescope-cli (TensorFlow " + std::string(kTensorFlowVersion) +
                              " CPU kernels) 1.2.3\n");
    // The READMEs name the same release as the engine's one constant.
    for (const char* readme : {"/README.md", "/engine/protocol/README.md"}) {
        QFile file(qEnvironmentVariable("SLICESCOPE_SOURCE_DIR") + readme);
        QVERIFY2(file.open(QIODevice::ReadOnly), readme);
        const QByteArray text = file.readAll();
        QVERIFY2(text.contains("TensorFlow " + QByteArray(kTensorFlowVersion.data(),
                                                          qsizetype(kTensorFlowVersion.size()))),
                 readme);
    }
    for (const char* flag : {"--help", "-h"}) {
        const CliRun help = cli({flag});
        QCOMPARE(help.exit, 0);
        QCOMPARE(help.out, cliUsage());
    }
    QVERIFY(contains(cliUsage(), "explain --shape S EXPR"));
}

// `model` reads every format of model::modelReaders(): its help, man page and the protocol
// README's row name each one's extensions (they said ".onnx" only, to a user holding a .tflite
// file).
void TestCli::usageNamesEveryModelFormat()
{
    auto source = [](const char* path) {
        QFile file(qEnvironmentVariable("SLICESCOPE_SOURCE_DIR") + '/' + QLatin1String(path));
        return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString() : std::string();
    };
    // `length` characters from `start` on, "" if `text` lacks it.
    auto from = [](const std::string& text, const char* start, std::size_t length) {
        const std::size_t at = text.find(start);
        return at == std::string::npos ? std::string() : text.substr(at, length);
    };
    const std::string places[] = {
        from(cliUsage(), "  model FILE", 200),
        from(source("packaging/man/slicescope-cli.1.in"), ".BI \"model \" FILE", 400),
        from(source("engine/protocol/README.md"), "| `slicescope-cli model FILE` |", 300),
    };
    for (const std::string& place : places) {
        QVERIFY(place.size() > 100);
        for (const model::ModelReader& reader : model::modelReaders())
            for (const std::string& extension : reader.extensions)
                QVERIFY2(contains(place, extension), (extension + " in:\n" + place).c_str());
    }
}

void TestCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("no command") << QStringList{} << "no command given";
    QTest::newRow("unknown command") << QStringList{"frobnicate"} << "unknown command 'frobnicate'";
    QTest::newRow("unknown option") << QStringList{"ops", "--bogus"} << "unknown option '--bogus'";
    QTest::newRow("eval without shape")
        << QStringList{"eval", "x[1]"} << "'eval' needs --shape, e.g. --shape 5,6";
    QTest::newRow("eval without expression")
        << QStringList{"eval", "--shape", "5"} << "'eval' needs an expression";
    QTest::newRow("bad shape")
        << QStringList{"eval", "--shape", "5,a", "x[1]"}
        << "--shape: '5,a' is not a shape: sizes are whole numbers"
           " (give sizes such as 5,6 or 5 6 or (5, 6); '' or () for a scalar)";
    QTest::newRow("negative shape")
        << QStringList{"explain", "--shape", "5,-1", "x[1]"}
        << "--shape: '5,-1' is not a shape: a size cannot be negative"
           " (give sizes such as 5,6 or 5 6 or (5, 6); '' or () for a scalar)";
    QTest::newRow("rank 33 shape")
        << QStringList{"explain", "--shape", QStringList(33, "1").join(','), "x[1]"}
        << "--shape: '" + QStringList(33, "1").join(',') +
               "' is not a shape: tensors have rank 0 to 32 (give sizes such as 5,6 or 5 6 or "
               "(5, 6); '' or () for a scalar)";
    QTest::newRow("bad dtype") << QStringList{"eval", "--shape", "5", "--dtype", "float8", "x[0]"}
                               << "--dtype takes bool, int8, uint8, int16, uint16, int32, uint32, "
                                  "int64, uint64, float16, bfloat16, float32, float64, complex64, "
                                  "complex128 and string, not 'float8'";
    QTest::newRow("bad fill") << QStringList{"eval", "--shape", "5", "--fill", "linspace", "x[0]"}
                              << "--fill takes arange, zeros, ones or random, not 'linspace'";
    QTest::newRow("negative threads") << QStringList{"--threads", "-1", "ops"}
                                      << "--threads takes an integer from 0 to 1024, not '-1'";
    QTest::newRow("zero max elements") << QStringList{"--max-elements=0", "ops"}
                                       << "--max-elements takes an integer of at least 1, not '0'";
    QTest::newRow("option of another command")
        << QStringList{"explain", "--dtype", "int8", "--shape", "3", "x[1]"}
        << "--dtype does not apply to 'explain'";
    QTest::newRow("seed without random")
        << QStringList{"eval", "--shape", "5", "--seed", "3", "x[1]"}
        << "--seed goes with --fill random";
    QTest::newRow("two expressions") << QStringList{"encode", "x[1]", "x[2]"}
                                     << "'encode' takes only an expression; 'x[2]' is one too many";
    QTest::newRow("arguments for ops")
        << QStringList{"ops", "x"} << "'ops' takes no arguments; 'x' is one too many";
    QTest::newRow("flag with a value")
        << QStringList{"--version=3"} << "option --version takes no value";
    QTest::newRow("option without its value")
        << QStringList{"eval", "--shape"} << "option --shape needs a value";
    QTest::newRow("empty save path")
        << QStringList{"eval", "--shape", "3", "--save", "", "x[1]"} << "--save needs a file name";
}

void TestCli::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    std::vector<std::string> argv;
    for (const QString& a : args)
        argv.push_back(a.toStdString());
    const CliRun run = cli(argv);
    QCOMPARE(run.exit, 2);
    QCOMPARE(run.out, std::string());
    QCOMPARE(run.err,
             "slicescope-cli: " + message.toStdString() + "\nTry 'slicescope-cli --help'.\n");
}

// The acceptance example: every stage, begin/end/strides, the masks and the final shape.
void TestCli::explainShowsEveryStage()
{
    const CliRun run = cli({"explain", "--shape", "5,5,5,5,5,5", kSeedExpr});
    QCOMPARE(run.exit, 0);
    QCOMPARE(run.err, std::string());
    for (const char* part : {"1. Parse the subscript: 6 entries",
                             "2. Encode it as tf.Tensor.__getitem__ does",
                             "3. Check the arguments",
                             "4. Ellipsis",
                             "5. Sparse to dense",
                             "6. Canonicalise each dimension",
                             "7. Shapes",
                             "begin    [1,2,0,0,0,0]",
                             "end      [2,4,0,0,-3,0]",
                             "strides  [1,1,1,1,-1,1]",
                             "begin_mask             48  0b110000",
                             "end_mask               32  0b100000",
                             "ellipsis_mask           8  0b001000",
                             "new_axis_mask           4  0b000100",
                             "shrink_axis_mask        1  0b000001",
                             "processing shape  (1,2,5,5,2,5)",
                             "final shape       (2,1,5,5,2,5)",
                             "is_identity false, is_simple_slice false, slice_dim0 false",
                             "begin_mask set: begin becomes 4 (the last",
                             "index 1 selects one element; the"})
        QVERIFY2(contains(run.out, part), part);
    // Every line fits the terminal width the environment gives (100 by default).
    for (const std::string& line : lines(run.out))
        QVERIFY2(displayWidth(line) <= 100, line.c_str());
}

void TestCli::explainShowsHowFarTheDecodeGot()
{
    const CliRun run = cli({"explain", "--shape", "3", "x[5]"});
    QCOMPARE(run.exit, 1);
    QVERIFY(contains(run.out, "6. Dimension 0"));
    QVERIFY(contains(run.out, "Size 3, stride 1: slice index 5 of dimension 0 out of bounds."));
    QCOMPARE(
        run.err,
        std::string("slicescope-cli: out_of_range: slice index 5 of dimension 0 out of bounds.\n"));
}

void TestCli::encodePrintsMasksInDecimalAndBinary()
{
    const CliRun run = cli({"encode", kSeedExpr});
    QCOMPARE(run.exit, 0);
    for (const char* part :
         {"begin    [1,2,0,0,0,0]", "begin_mask             48  0b110000  entries 4, 5",
          "shrink_axis_mask        1  0b000001  entry 0",
          "4  :-3:-1  slice         -   -3      -1"})
        QVERIFY2(contains(run.out, part), part);
    const CliRun list = cli({"encode", "x[[1, 2]]"});
    QCOMPARE(list.exit, 0);
    QVERIFY2(contains(list.out, "Note: "),
             list.out.c_str()); // TensorFlow reads the list as a tuple
}

void TestCli::evalPrintsInputResultAndDecode()
{
    const CliRun run = cli({"eval", "--shape", "5,6", "x[2, ::-1]"});
    QCOMPARE(run.exit, 0);
    for (const char* part :
         {"x: int32 (5,6), arange\n[[ 0  1  2  3  4  5]\n [ 6  7  8  9 10 11]",
          "x[2, ::-1]: int32 (6,)\n[17 16 15 14 13 12]",
          "6 of 30 input elements are read.\nRead in this order: x[2,5], x[2,4], x[2,3], x[2,2], "
          "x[2,1], x[2,0].",
          "dim  size  spec     begin  end  stride  length",
          "processing shape (1,6), final shape (6,)"})
        QVERIFY2(contains(run.out, part), run.out.c_str());
    const CliRun floats = cli({"eval", "--shape", "4", "--dtype", "float64", "--fill", "random",
                               "--seed", "9", "x[None, ::2]"});
    QCOMPARE(floats.exit, 0);
    QVERIFY2(contains(floats.out, "x: float64 (4,), random (seed 9)"), floats.out.c_str());
    QVERIFY2(contains(floats.out, "new axes from entry 0"), floats.out.c_str());
}

void TestCli::evalJsonIsTheResponseObject()
{
    const CliRun run = cli({"eval", "--json", "--shape", "3,4", "x[1:, ::-2]"});
    QCOMPARE(run.exit, 0);
    QCOMPARE(lines(run.out).size(), std::size_t(1));
    const Json r = parseJson(run.out);
    QVERIFY(r.find("id")->isNull());
    QVERIFY(r.find("ok")->toBool());
    QCOMPARE(compact(*r.find("outputs")),
             std::string(R"([{"dtype":"int32","shape":[2,2],"data":[7,5,11,9]}])"));
    QCOMPARE(compact(*r.find("trace")->find("decode")->find("final_shape")), std::string("[2,2]"));
}

void TestCli::evalSavesTheResult()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("r.npy").toStdString();
    const CliRun run =
        cli({"eval", "--shape", "3,4", "--dtype", "int16", "--save", path, "x[::-1, 1]"});
    QCOMPARE(run.exit, 0);
    QVERIFY(contains(run.out, "saved the result to " + path));
    const Tensor saved = readNpyFile(path, Limits::machineDefault());
    QCOMPARE(saved.dtype(), DType::Int16);
    QCOMPARE(saved.toInt64Vector(), std::vector<std::int64_t>({9, 5, 1}));

    const CliRun bad = cli(
        {"eval", "--shape", "3", "--save", dir.filePath("no/dir/r.npy").toStdString(), "x[1:]"});
    QCOMPARE(bad.exit, 1);
    QVERIFY2(contains(bad.err, "slicescope-cli: bad_request: cannot write"), bad.err.c_str());

    // A FIFO (or a device) is not replaced by the result, nor written into: refused.
    const std::string fifo = dir.filePath("pipe.npy").toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    const CliRun special = cli({"eval", "--shape", "3", "--save", fifo, "x[1:]"});
    QCOMPARE(special.exit, 1);
    QCOMPARE(special.err, "slicescope-cli: bad_request: cannot write '" + fifo +
                              "': not a regular file (it is a FIFO)\n");
    struct stat st
    {
    };
    QCOMPARE(::stat(fifo.c_str(), &st), 0);
    QVERIFY(S_ISFIFO(st.st_mode));
}

void TestCli::evalErrors()
{
    const CliRun outOfBounds = cli({"eval", "--shape", "5", "x[7]"});
    QCOMPARE(outOfBounds.exit, 1);
    QCOMPARE(
        outOfBounds.err,
        std::string("slicescope-cli: out_of_range: slice index 7 of dimension 0 out of bounds.\n"));
    const CliRun parse = cli({"eval", "--shape", "5", "x[1, 2:"});
    QCOMPARE(parse.exit, 1);
    QVERIFY2(contains(parse.err, "slicescope-cli: parse_error: "), parse.err.c_str());
    QVERIFY2(contains(parse.err, "\n  x[1, 2:\n         ^\n"), parse.err.c_str());
    const CliRun big = cli({"--max-elements", "10", "eval", "--shape", "5,5", "x[0]"});
    QCOMPARE(big.exit, 1);
    QVERIFY2(contains(big.err, "slicescope-cli: resource_exhausted: "), big.err.c_str());
}

void TestCli::evalReadsAPastedCall_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exit");
    QTest::addColumn<QStringList>("parts"); // in stdout, or in stderr when it fails
    QTest::newRow("strided_slice")
        << QStringList{"eval", "--shape", "3,4",
                       "tf.strided_slice(x, [0, 1], [0, -1], [1, 2], begin_mask=1, end_mask=1)"}
        << 0
        << QStringList{"tf.strided_slice reads as the op strided_slice",
                       "begin=[0,1], begin_mask=1, end=[0,-1], end_mask=1, strides=[1,2]",
                       "int32 (3,1)\n[[1]\n [5]\n [9]]", "processing shape (3,1)"};
    QTest::newRow("gather") << QStringList{"eval", "--shape", "3,4",
                                           "tf.gather(params, [3, 1], axis=1)"}
                            << 0
                            << QStringList{"reads as the op gather", "indices = [3 1]",
                                           "[[ 3  1]\n [ 7  5]\n [11  9]]",
                                           "6 of 12 input elements are read."};
    QTest::newRow("narrow, negative start")
        << QStringList{"eval", "--shape", "3,4", "x.narrow(1, -2, 2)"} << 0
        << QStringList{"reads as the op slice", "begin=[0,2], size=[-1,2]",
                       "Note: start -2 counts from the end: 2"};
    QTest::newRow("chained") << QStringList{"eval", "--shape", "3,4", "x[0][1:]"} << 0
                             << QStringList{"x[0][1:] reads as the op getitem",
                                            "x[0][1:]: int32 (3,)\n[1 2 3]"};
    QTest::newRow("node text")
        << QStringList{"eval", "--shape", "5",
                       "node { name: \"b\" op: \"Const\" attr { key: \"value\" value { tensor "
                       "{ dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: 3 } } } }\n"
                       "node { name: \"s\" op: \"Slice\" input: \"x\" input: \"b\" input: "
                       "\"b\" attr { key: \"T\" value { type: DT_INT32 } } }"}
        << 1 << QStringList{"invalid_argument", "Expected size[0] in [0, 2], but got 3"};
    QTest::newRow("refused call") << QStringList{"eval", "--shape", "3,4", "np.take(x, [1, 2])"}
                                  << 1
                                  << QStringList{
                                         "slicescope-cli: parse_error: np.take without axis=",
                                         "(at position 17: ')')",
                                         "\n  np.take(x, [1, 2])\n                   ^\n"};
}

void TestCli::evalReadsAPastedCall()
{
    QFETCH(QStringList, args);
    QFETCH(int, exit);
    QFETCH(QStringList, parts);
    std::vector<std::string> argv;
    for (const QString& a : args)
        argv.push_back(a.toStdString());
    const CliRun run = cli(argv);
    QCOMPARE(run.exit, exit);
    const std::string& text = exit == 0 ? run.out : run.err;
    for (const QString& part : parts)
        QVERIFY2(contains(text, part.toStdString()), text.c_str());
}

void TestCli::opsListsEveryOp()
{
    const CliRun run = cli({"ops"});
    QCOMPARE(run.exit, 0);
    for (const OpDef& op : allOps())
        QVERIFY2(contains(run.out, "\n" + op.name) || run.out.starts_with(op.name),
                 op.name.c_str());
    QVERIFY(contains(run.out, "stack [pack](values[]) -> output"));
    QVERIFY(contains(run.out, "attrs: begin (required), end (required), strides = all 1"));
}

void TestCli::opsExamplesAreAnsweredByRun()
{
    // `ops --examples` writes one request per op, in `ops` order, that `run` answers as is.
    const CliRun examples = cli({"ops", "--examples"});
    QCOMPARE(examples.exit, 0);
    const std::vector<std::string> requests = lines(examples.out);
    QCOMPARE(requests.size(), allOps().size());
    const CliRun run = cli({"run"}, examples.out);
    QCOMPARE(run.exit, 0);
    const std::vector<std::string> responses = lines(run.out);
    QCOMPARE(responses.size(), allOps().size());
    for (std::size_t k = 0; k < responses.size(); ++k) {
        const std::string& name = allOps()[k].name;
        const Json request = parseJson(requests[k]);
        QCOMPARE(request.find("op")->toString(), name);
        const Json response = parseJson(responses[k]);
        QVERIFY2(response.find("ok")->toBool(), (name + ": " + responses[k]).c_str());
        QCOMPARE(response.find("id")->toString(), name);
    }
    // Generated tensors keep their fill, written-out ones their nested value.
    QVERIFY(contains(
        examples.out,
        R"("op":"tile","inputs":{"input":{"dtype":"int32","shape":[2,3],"fill":"arange"}},"attrs":{"multiples":[2,3]}})"));
    QVERIFY(contains(examples.out, R"("mask":{"dtype":"bool","value":[true,false,true,true]})"));
    const CliRun extra = cli({"ops", "--examples", "x"});
    QCOMPARE(extra.exit, 2);
    QVERIFY(contains(cli({"eval", "--examples", "--shape", "3", "x[0]"}).err,
                     "--examples does not apply to 'eval'"));
}

void TestCli::runAnswersEveryLineInOrder()
{
    const std::string input =
        "not json\n"
        "\n"
        "   \r\n"
        R"({"id":2,"op":"getitem","inputs":{"input":{"value":[1,2,3]}},"attrs":{"expr":"x[::-1]"}})"
        "\n"
        R"({"id":3,"op":"getitem","inputs":{"input":{"value":[1,2,3]}},"attrs":{"expr":"x[9]"}})"
        "\r\n"
        R"({"id":4,"op":"encode","attrs":{"expr":"x[0]"}})"; // no final newline
    const CliRun run = cli({"run"}, input);
    QCOMPARE(run.exit, 0);
    QCOMPARE(run.err, std::string());
    const auto responses = lines(run.out);
    QCOMPARE(responses.size(), std::size_t(4));
    QCOMPARE(errorCode(parseJson(responses[0])), std::string("bad_request"));
    QVERIFY(parseJson(responses[0]).find("id")->isNull());
    QCOMPARE(responses[1],
             std::string(
                 R"({"id":2,"ok":true,"outputs":[{"dtype":"int32","shape":[3],"data":[3,2,1]}]})"));
    QCOMPARE(errorCode(parseJson(responses[2])), std::string("out_of_range"));
    QCOMPARE(parseJson(responses[3]).find("id")->toInt64(), 4);
}

void TestCli::runReportsWriteFailures()
{
    std::istringstream in(R"({"op":"encode","attrs":{"expr":"x[0]"}})"
                          "\n");
    std::ostringstream out, err;
    out.setstate(std::ios::badbit);
    QCOMPARE(runCli({"run"}, in, out, err, CliEnvironment{}), 1);
    QCOMPARE(err.str(), std::string("slicescope-cli: writing the responses failed\n"));
}

void TestCli::runReadsFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("requests.jsonl");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    // Saved by Windows Notepad: a UTF-8 byte-order mark before the first request, which is read.
    file.write("\xef\xbb\xbf"
               R"({"id":"a","op":"encode","attrs":{"expr":"x[0]"}})"
               "\n"
               "[]\n");
    file.close();
    const CliRun run = cli({"run", path.toStdString()});
    QCOMPARE(run.exit, 0);
    QCOMPARE(lines(run.out).size(), std::size_t(2));
    QVERIFY2(lines(run.out)[0].starts_with(R"({"id":"a","ok":true)"), run.out.c_str());
    // What cannot be read says why, as the GUI does for the files it reads.
    const std::string nope = dir.filePath("nope.jsonl").toStdString();
    const CliRun missing = cli({"run", nope});
    QCOMPARE(missing.exit, 1);
    QCOMPARE(missing.err,
             "slicescope-cli: cannot read '" + nope + "': No such file or directory\n");
    // A directory opens, and only its first read failed: "reading the requests failed".
    const CliRun folder = cli({"run", dir.path().toStdString()});
    QCOMPARE(folder.exit, 1);
    QCOMPARE(folder.err, "slicescope-cli: cannot read '" + dir.path().toStdString() +
                             "': it is a directory\n");
    QVERIFY(folder.out.empty());
}

// Each response arrives before the next request is written: the loop flushes every line.
void TestCli::executableRunsInteractively()
{
    QProcess process;
    process.start(SLICESCOPE_CLI_PATH, {"--threads", "2", "run"});
    QVERIFY(process.waitForStarted(10000));
    const QList<QByteArray> requests = {
        R"({"id":1,"op":"getitem","inputs":{"input":{"dtype":"int32","shape":[4],"fill":"arange"}},"attrs":{"expr":"x[::2]"}})",
        "{\"id\": 2, \"op\": ",
        R"({"id":3,"op":"getitem","inputs":{"input":{"dtype":"int32","shape":[4],"fill":"arange"}},"attrs":{"expr":"x[1]"}})"};
    QList<QByteArray> responses;
    for (const QByteArray& request : requests) {
        process.write(request + "\n");
        while (!process.canReadLine())
            QVERIFY2(process.waitForReadyRead(10000), "no response to a request");
        responses.append(process.readLine().trimmed());
    }
    process.closeWriteChannel();
    QVERIFY(process.waitForFinished(10000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 0);
    QCOMPARE(
        responses[0],
        QByteArray(R"({"id":1,"ok":true,"outputs":[{"dtype":"int32","shape":[2],"data":[0,2]}]})"));
    QCOMPARE(errorCode(parseJson(responses[1].toStdString())), std::string("bad_request"));
    QCOMPARE(
        responses[2],
        QByteArray(R"({"id":3,"ok":true,"outputs":[{"dtype":"int32","shape":[],"data":[1]}]})"));
}

namespace {

// Runs slicescope-cli with `args`, its output to `outPath`; returns its minor page faults.
long runCountingFaults(const std::vector<std::string>& args, const std::string& outPath)
{
    std::vector<std::string> argv{SLICESCOPE_CLI_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> pointers;
    for (std::string& a : argv)
        pointers.push_back(a.data());
    pointers.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    pid_t pid = 0;
    const int spawned =
        posix_spawn(&pid, SLICESCOPE_CLI_PATH, &actions, nullptr, pointers.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) return -1;
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return usage.ru_minflt;
}

} // namespace

// `run` answers request after request in one process; each one's working memory (here unique's
// table of 10^6 distinct values, doubling to 24 MB, and its lists) is the previous one's again,
// not memory mapped afresh and faulted in page by page: glibc unmapped such blocks when freed
// and trimmed the heap, and each request of unique_with_counts on 10^6 distinct float32 values
// faulted in about 2,000 pages (8 MB), 40% of its time. Under AddressSanitizer the allocator is
// its own: only the answers are checked there.
void TestCli::executableReusesItsMemoryRequestAfterRequest()
{
    QTemporaryDir dir;
    const std::int64_t n = 1000000;
    Tensor x = Tensor::empty(DType::Float32, {n});
    for (std::int64_t i = 0; i < n; ++i)
        x.data<float>()[i] = float((i * 6700417 + 12345) % n);
    const std::string npy = dir.filePath("u.npy").toStdString();
    writeNpyFile(npy, x);
    auto requests = [&](int count) {
        const std::string path = dir.filePath(QString("r%1.jsonl").arg(count)).toStdString();
        std::ofstream file(path);
        for (int k = 0; k < count; ++k)
            file << R"({"id":)" << k << R"(,"op":"unique_with_counts","inputs":{"x":{"npy":")"
                 << npy << R"("}},"emit":"summary"})"
                 << "\n";
        return path;
    };
    const std::string out1 = dir.filePath("o1").toStdString();
    const std::string out6 = dir.filePath("o6").toStdString();
    const long one = runCountingFaults({"run", requests(1)}, out1);
    const long six = runCountingFaults({"run", requests(6)}, out6);
    QVERIFY(one > 0 && six > 0);
    std::ifstream responses(out6);
    std::string line;
    int answered = 0;
    while (std::getline(responses, line)) {
        QVERIFY2(line.find(R"("ok":true)") != std::string::npos, line.c_str());
        QVERIFY2(line.find(R"("shape":[1000000])") != std::string::npos, line.c_str());
        ++answered;
    }
    QCOMPARE(answered, 6);
#if defined(__GLIBC__) && !defined(SLICESCOPE_ASAN)
    // About 400 a request with the heap kept (the table's doublings land in new places), 2,000
    // without.
    const long perRequest = (six - one) / 5;
    QVERIFY2(perRequest < 1000, qPrintable(QString("%1 page faults a request").arg(perRequest)));
#endif
}

void TestCli::executableAnswersMixedInput()
{
    QByteArray input;
    int expected = 0;
    for (int k = 0; k < 200; ++k) {
        switch (k % 4) {
        case 0:
            input += "{\"id\":" + QByteArray::number(k) +
                     ",\"op\":\"encode\",\"attrs\":{\"expr\":\"x[1:]\"}}\n";
            break;
        case 1: input += "\x01\x02\xff garbage " + QByteArray::number(k) + "\n"; break;
        case 2:
            input += "\n";
            --expected;
            break;
        case 3: input += "{\"id\":" + QByteArray::number(k) + ",\"op\":\"getitem\"}\n"; break;
        }
        ++expected;
    }
    QProcess process;
    process.start(SLICESCOPE_CLI_PATH, {"run"});
    QVERIFY(process.waitForStarted(10000));
    process.write(input);
    process.closeWriteChannel();
    QVERIFY(process.waitForFinished(30000));
    QCOMPARE(process.exitCode(), 0);
    const QList<QByteArray> out = process.readAllStandardOutput().trimmed().split('\n');
    QCOMPARE(out.size(), qsizetype(expected));
    for (qsizetype i = 0; i < out.size(); ++i) {
        const Json r = parseJson(out[i].toStdString());
        const int k = int(i / 3 * 4 + (i % 3 == 0 ? 0 : i % 3 == 1 ? 1 : 3));
        QCOMPARE(r.find("ok")->toBool(), k % 4 == 0);
        if (k % 4 != 1) QCOMPARE(r.find("id")->toInt64(), std::int64_t(k));
    }
    QProcess version;
    version.start(SLICESCOPE_CLI_PATH, {"--version"});
    QVERIFY(version.waitForFinished(10000));
    QVERIFY(version.readAllStandardOutput().startsWith("slicescope-cli "));
}

// eval sizes the whole request from the shapes (the input, the result of the subscript, its
// sources) before making the input: it used to build the input, then refuse on the output. A
// result of more than 2^20 elements is listed from its plan, without sources.
void TestCli::evalIsSizedBeforeItsInputIsMade()
{
    const CliRun r = cli(
        {"--max-bytes", "150000000", "eval", "--shape", "100000000", "--dtype", "int8", "x[::-1]"});
    QCOMPARE(r.exit, 1);
    QVERIFY2(contains(r.err,
                      "the input of shape [100000000] int8 with the result of x[::-1] (shape "
                      "[100000000]) needs 200.0 MB (200000000 bytes); 150.0 MB is available (the "
                      "--max-bytes limit of 150.0 MB)"),
             r.err.c_str());
    QCOMPARE(r.out, "");
    const CliRun listed =
        cli({"--max-bytes", "9000000", "eval", "--shape", "1000000", "--dtype", "int8", "x[::-1]"});
    QCOMPARE(listed.exit, 1);
    QVERIFY2(contains(listed.err,
                      "the input of shape [1000000] int8 with the result of x[::-1] (shape "
                      "[1000000]) and its sources (8 bytes an element) needs 10.0 MB "
                      "(10000000 bytes); 9.0 MB is available (the --max-bytes limit of 9.0 MB)"),
             listed.err.c_str());
    QCOMPARE(listed.out, "");
    // What fits runs.
    QCOMPARE(
        cli({"--max-bytes", "150000000", "eval", "--shape", "1000", "--dtype", "int8", "x[::-1]"})
            .exit,
        0);
}

// eval maps its --input file (as run does): a file over --max-bytes is sliced where it lies, and
// only the result is charged. 2 GiB of float32 in a sparse file with one row written, under a
// limit of 8 MB, which a copy of the file is refused by. What eval keeps beside the result is per
// output element, not per input element (a flag per element read was 64 MiB here, and 500 MB and
// a minute for 4 x 10^9 elements).
void TestCli::evalSlicesAFileBiggerThanTheLimitWhereItLies()
{
    constexpr qint64 rows = 32768, cols = 16384;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.npy"));
    Tensor row = makeFilled(DType::Float32, {cols}, Fill::Random, 3, Limits{});
    {
        // A version 1.0 header padded to 128 bytes, as NumPy writes it; the data is a hole but
        // one row.
        QVERIFY(ss::testing::writeSparseNpy(path, "<f4", "(32768, 16384)", rows * cols * 4));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.seek(128 + 3000 * cols * 4));
        QCOMPARE(f.write(static_cast<const char*>(row.raw()), cols * 4), cols * 4);
    }
    const std::string saved = dir.filePath(QStringLiteral("row.npy")).toStdString();
    // The peak resident size (VmHWM) from here on: what eval frees before it returns counts.
    QFile clearRefs(QStringLiteral("/proc/self/clear_refs"));
    QVERIFY(clearRefs.open(QIODevice::WriteOnly) && clearRefs.write("5") == 1);
    clearRefs.close();
    const std::int64_t before = peakResident();
    const CliRun r = cli({"--max-bytes", "8000000", "eval", "--input", "x=" + path.toStdString(),
                          "x[3000]", "--save", saved});
    QVERIFY2(r.exit == 0, r.err.c_str());
    QVERIFY(contains(r.out, "16384 of 536870912 input elements are read."));
    QVERIFY(readNpyFile(saved, Limits{}).identical(row));
    QVERIFY2(peakResident() - before < 32 << 20,
             qPrintable(QString::number(peakResident() - before)));
}

void TestCli::evalShowsAViewOfAFileOverTheLimits_data()
{
    QTest::addColumn<QString>("expr");
    QTest::addColumn<QString>("printed"); // empty: refused, with `refusal`
    QTest::addColumn<QString>("refusal");
    QTest::addColumn<std::int64_t>("first"); // the result's first element, of the input
    QTest::newRow("the file") << "x[...]"
                              << "2097152 of 2097152 input elements are read.\nRead in this "
                                 "order: x[0,0], x[0,1], x[0,2],"
                              << "" << std::int64_t(0);
    QTest::newRow("rows") << "x[512:]"
                          << "1572864 of 2097152 input elements are read.\nRead in this "
                             "order: x[512,0], x[512,1], x[512,2],"
                          << "" << std::int64_t(512 * 1024);
    QTest::newRow("reversed: a copy")
        << "x[::-1]"
        << ""
        << "slicescope-cli: resource_exhausted: the output of shape [2048,1024] has 2097152 "
           "elements, over the limit of 1000000 elements\n"
        << std::int64_t(-1);
}

// A result that shares a mapped file's pages is not held to --max-elements (nor charged as an
// allocation), and eval's text prints it as it prints any result, without 8 bytes an element of
// sources for what it lists; --save writes it. 2^21 float32 elements (arange) under a limit of
// 10^6.
void TestCli::evalShowsAViewOfAFileOverTheLimits()
{
    QFETCH(QString, expr);
    QFETCH(QString, printed);
    QFETCH(QString, refusal);
    QFETCH(std::int64_t, first);
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("x.npy")).toStdString();
    const Tensor x = makeFilled(DType::Float32, {2048, 1024}, Fill::Arange, 0, Limits{});
    writeNpyFile(path, x);
    const std::string saved = dir.filePath(QStringLiteral("r.npy")).toStdString();
    QFile clearRefs(QStringLiteral("/proc/self/clear_refs"));
    QVERIFY(clearRefs.open(QIODevice::WriteOnly) && clearRefs.write("5") == 1);
    clearRefs.close();
    const std::int64_t before = peakResident();
    const CliRun r = cli({"--max-elements", "1000000", "eval", "--input", "x=" + path,
                          expr.toStdString(), "--save", saved});
    if (!refusal.isEmpty()) {
        QCOMPARE(r.exit, 1);
        QCOMPARE(QString::fromStdString(r.err), refusal);
        return;
    }
    QVERIFY2(r.exit == 0, r.err.c_str());
    QVERIFY2(contains(r.out, printed.toStdString()), r.out.c_str());
    // The file's pages it printed, not 16 MiB of sources and as much again to sort them.
    QVERIFY2(peakResident() - before < 12 << 20,
             qPrintable(QString::number(peakResident() - before)));
    const Tensor result = readNpyFile(saved, Limits{});
    QCOMPARE(result.shape(), (Shape{2048 - first / 1024, 1024}));
    QVERIFY(result.identical(x.view(first, result.shape())));
}

// Ctrl-C (or a kill) while `eval --save` writes: the old file keeps its contents, the temporary
// file beside it is removed (it was left behind, as large as the write had got, and nothing
// said why the command stopped), a line says what happened, and the process ends by the signal.
void TestCli::anInterruptedSaveLeavesNoFileBehind_data()
{
    QTest::addColumn<int>("sig");
    QTest::addColumn<QString>("name");
    QTest::newRow("SIGINT") << int(SIGINT) << "SIGINT";
    QTest::newRow("SIGTERM") << int(SIGTERM) << "SIGTERM";
}

void TestCli::anInterruptedSaveLeavesNoFileBehind()
{
    QFETCH(int, sig);
    QFETCH(QString, name);
    QTemporaryDir dir;
    // 16 GiB of int8 as a hole: `x[...]` of it is the file's own pages, so only the save takes
    // time, seconds of it, and the signal comes while it writes.
    const qint64 n = qint64(1) << 34;
    QVERIFY(writeSparseNpy(dir.filePath(QStringLiteral("big.npy")), "|i1",
                           "(" + QByteArray::number(n) + ",)", n));
    const QByteArray old = "the old contents";
    {
        QFile f(dir.filePath(QStringLiteral("out.npy")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(old), old.size());
    }
    auto temporaryFiles = [&] {
        return QDir(dir.path()).entryList({QStringLiteral(".out.npy.*.tmp")},
                                          QDir::Files | QDir::Hidden);
    };
    QProcess process;
    process.setWorkingDirectory(dir.path());
    process.start(SLICESCOPE_CLI_PATH, {"eval", "--input", "x=big.npy", "x[...]", "--save",
                                        "out.npy"});
    QVERIFY(process.waitForStarted(10000));
    QTRY_VERIFY_WITH_TIMEOUT(!temporaryFiles().isEmpty() ||
                                 process.state() == QProcess::NotRunning,
                             60000);
    QCOMPARE(process.state(), QProcess::Running);
    QCOMPARE(::kill(pid_t(process.processId()), sig), 0);
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitStatus(), QProcess::CrashExit);
    QCOMPARE(process.readAllStandardError(),
             "slicescope-cli: interrupted by " + name.toUtf8() +
                 "; 'out.npy' was not written, the file there keeps its old contents\n");
    QCOMPARE(temporaryFiles(), QStringList());
    QFile f(dir.filePath(QStringLiteral("out.npy")));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), old);
}

void TestCli::emptyTensorsWithHugeAxesPrintAtOnce_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("printed");
    QTest::newRow("eval, reversed")
        << QStringList{"eval", "--shape", "100000000,0", "x[::-1]"} << "[]";
    QTest::newRow("eval, largest axis")
        << QStringList{"eval", "--shape", "9223372036854775807,0", "x[1:]"} << "[]";
    QTest::newRow("compare, largest axis")
        << QStringList{"compare", "--shape", "9223372036854775807,0", "x[::-1]"} << "[]";
    QTest::newRow("eval, empty inner axes")
        << QStringList{"eval", "--shape", "0,100000000,100000000", "x[:, 1]"} << "[]";
}

// The text printer walked the outer axes of a 0-element tensor: 10^8 rows of nothing took
// minutes and gigabytes. A separate process, so that a regression fails instead of hanging.
void TestCli::emptyTensorsWithHugeAxesPrintAtOnce()
{
    QFETCH(QStringList, args);
    QFETCH(QString, printed);
    QProcess process;
    process.start(SLICESCOPE_CLI_PATH, args);
    QVERIFY(process.waitForStarted(10000));
    const bool finished = process.waitForFinished(20000);
    if (!finished) {
        process.kill();
        process.waitForFinished(10000);
    }
    QVERIFY2(finished, "slicescope-cli did not finish within 20 s");
    const QByteArray out = process.readAllStandardOutput();
    QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
    QVERIFY2(out.contains(printed.toUtf8()), out.constData());
}

QTEST_APPLESS_MAIN(TestCli)
#include "tst_cli.moc"
