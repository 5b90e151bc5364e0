// SPDX-License-Identifier: GPL-3.0-or-later
// One spec, six frameworks through the protocol and the CLI: the compare op's response (each
// framework's outcome, the distinct results, which differ and why), `slicescope-cli compare` and
// `slicescope-cli code`, and their usage errors.
#include "cli_test.h"
#include "protocol/request.h"
#include "protocol_test.h"

#include <QTest>

using namespace ss;
using namespace ss::testing;

namespace {

CliRun cli(const std::vector<std::string>& args)
{
    return runCliCapturing(args, "", {.version = "test"});
}

std::string compareLine(const std::string& expr, int size = 5)
{
    return R"({"id": 1, "op": "compare", "inputs": {"input": {"dtype": "int32", "shape": [)" +
           std::to_string(size) + R"(], "fill": "arange"}}, "attrs": {"expr": ")" + expr + R"("}})";
}

const Json& framework(const Json& response, const std::string& key)
{
    for (const Json& f : response.find("frameworks")->toArray())
        if (f.find("framework")->toString() == key) return f;
    throw std::runtime_error("no framework " + key);
}

} // namespace

class TestCliFrameworks : public QObject
{
    Q_OBJECT

private slots:
    // The issue's table, row by row (x = arange(5)).
    void compareAnswersTheTable_data()
    {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QString>("differ");
        QTest::addColumn<int>("outputs");
        QTest::newRow("start 4, end -6, step -1") << "x[4:-6:-1]"
                                                  << "torch,paddle" << 2;
        QTest::newRow("start 4, end -1, step -1") << "x[4:-1:-1]"
                                                  << "torch,paddle" << 2;
        QTest::newRow("x[7]") << "x[7]"
                              << "jax,paddle" << 1;
        // NumPy and PyTorch read the list as an index array and share one result.
        QTest::newRow("x[[0, 1]]") << "x[[0, 1]]"
                                   << "numpy,torch,onnx,paddle" << 1;
        QTest::newRow("all agree") << "x[1:]"
                                   << "" << 1;
    }
    void compareAnswersTheTable()
    {
        QFETCH(QString, expr);
        QFETCH(QString, differ);
        QFETCH(int, outputs);
        const Json r = respond(compareLine(expr.toStdString()));
        QVERIFY2(r.find("ok")->toBool(), compact(r).c_str());
        QStringList listed;
        for (const Json& k : r.find("differ")->toArray())
            listed << QString::fromStdString(k.toString());
        QCOMPARE(listed.join(u','), differ);
        QCOMPARE(int(r.find("outputs")->toArray().size()), outputs);
        QCOMPARE(int(r.find("frameworks")->toArray().size()), 6);
        for (const Json& f : r.find("frameworks")->toArray()) {
            const bool differs = f.find("differs")->toBool();
            QCOMPARE(differs,
                     listed.contains(QString::fromStdString(f.find("framework")->toString())));
            QCOMPARE(f.find("reason") != nullptr, differs);
        }
    }

    void compareGivesEachFrameworksOwnWords()
    {
        const Json r = respond(compareLine("x[4:-6:-1]"));
        const Json& torch = framework(r, "torch");
        QCOMPARE(torch.find("outcome")->toString(), std::string("error"));
        QCOMPARE(torch.find("error")->find("type")->toString(), std::string("ValueError"));
        QCOMPARE(torch.find("error")->find("message")->toString(),
                 std::string("step must be greater than zero"));
        const Json& paddle = framework(r, "paddle");
        QCOMPARE(paddle.find("output")->toInt64(), std::int64_t(1));
        QCOMPARE(compact(r.find("outputs")->toArray()[1]),
                 std::string(R"({"dtype":"int32","shape":[4],"data":[4,3,2,1]})"));
        QCOMPARE(framework(r, "numpy").find("output")->toInt64(), std::int64_t(0));
        QCOMPARE(compact(r.find("outputs")->toArray()[0]),
                 std::string(R"({"dtype":"int32","shape":[5],"data":[4,3,2,1,0]})"));
        QVERIFY(contains(paddle.find("reason")->toString(), "reads 4 elements from 4 by -1"));

        const Json jax = framework(respond(compareLine("x[7]")), "jax");
        QCOMPARE(compact(*jax.find("shape")), std::string("[]"));
        const Json list = respond(compareLine("x[[0, 1]]"));
        QCOMPARE(framework(list, "numpy").find("outcome")->toString(), std::string("result"));
        QCOMPARE(compact(r.find("outputs")->toArray()[0]),
                 std::string(R"({"dtype":"int32","shape":[5],"data":[4,3,2,1,0]})"));
        QCOMPARE(compact(list.find("outputs")->toArray()[0]),
                 std::string(R"({"dtype":"int32","shape":[2],"data":[0,1]})"));
        QVERIFY(contains(framework(list, "jax").find("error")->find("message")->toString(),
                         "Using a non-tuple sequence"));
    }

    // Advanced indexing through the protocol: the readings with values, shapes and the source
    // of every element (so a front end lights the input in read order), and each framework's
    // error class where it refuses.
    void compareAnswersAdvancedIndexing()
    {
        const Json r = respond(
            R"({"id": 1, "op": "compare", "inputs": {"input": {"dtype": "int32", "shape": [3, 4],
                "fill": "arange"}}, "attrs": {"expr": "x[[2, 0], 1:]"}, "sources": true})");
        QVERIFY2(r.find("ok")->toBool(), compact(r).c_str());
        QCOMPARE(compact(*r.find("outputs")),
                 std::string(R"([{"dtype":"int32","shape":[2,3],"data":[9,10,11,1,2,3]}])"));
        QCOMPARE(compact(*r.find("sources")),
                 std::string("[[[0,9],[0,10],[0,11],[0,1],[0,2],[0,3]]]"));
        for (const char* key : {"numpy", "torch", "jax"})
            QCOMPARE(framework(r, key).find("output")->toInt64(), std::int64_t(0));
        QCOMPARE(framework(r, "tensorflow").find("outcome")->toString(), std::string("error"));

        const Json out = respond(compareLine("x[[5],]", 3));
        QCOMPARE(framework(out, "numpy").find("error")->find("type")->toString(),
                 std::string("IndexError"));
        QCOMPARE(framework(out, "numpy").find("error")->find("message")->toString(),
                 std::string("index 5 is out of bounds for axis 0 with size 3"));
        QCOMPARE(framework(out, "torch").find("error")->find("message")->toString(),
                 std::string("index 5 is out of bounds for dimension 0 with size 3"));
        // JAX clamps: x[[5],] reads element 2.
        QCOMPARE(compact(*framework(out, "jax").find("shape")), std::string("[1]"));
        QCOMPARE(compact(out.find("outputs")->toArray()[0]),
                 std::string(R"({"dtype":"int32","shape":[1],"data":[2]})"));

        const CliRun text = cli({"compare", "--shape", "2,3", "x[[True, False]]"});
        QCOMPARE(text.exit, 0);
        QVERIFY2(contains(text.out, "shape (1, 3) [[0 1 2]]"), text.out.c_str());
    }

    void compareTracesEveryFramework()
    {
        const Json r = respond(R"({"op": "compare", "inputs": {"input": {"value": [0, 1, 2, 3, 4]}},
            "attrs": {"expr": "x[4:-1:-1]"}, "trace": true, "sources": true})");
        std::string titles;
        for (const Json& s : r.find("trace")->find("steps")->toArray())
            titles += s.find("title")->toString() + "|";
        QVERIFY2(contains(titles, "ONNX opset 13: Slice, axis 0|"), titles.c_str());
        QVERIFY2(contains(titles, "PaddlePaddle (strided_slice): paddle.strided_slice|"),
                 titles.c_str());
        // Sources per distinct output: the paddle result reads 4, 3, 2, 1, 0.
        QCOMPARE(compact(r.find("sources")->toArray()[1]),
                 std::string("[[0,4],[0,3],[0,2],[0,1],[0,0]]"));
    }

    void compareTakesRawArguments()
    {
        const Json r = respond(R"({"op": "compare", "inputs": {"input": {"value": [0, 1, 2, 3, 4]}},
            "attrs": {"begin": [4], "end": [-6], "strides": [-1]}})");
        QVERIFY2(r.find("ok")->toBool(), compact(r).c_str());
        QCOMPARE(compact(*r.find("differ")), std::string(R"(["torch","paddle"])"));
        // A shrink with a negative stride has no subscript: only TensorFlow can read it.
        const Json raw = respond(R"({"op": "compare", "inputs": {"input": {"value": [0, 1, 2]}},
            "attrs": {"begin": [1], "end": [2], "strides": [-1], "shrink_axis_mask": 1}})");
        QCOMPARE(framework(raw, "numpy").find("outcome")->toString(), std::string("not_modelled"));
    }

    // A result over the engine's rank cap is said to be outside the model, never refused as if
    // the framework refused it (NumPy goes to rank 32).
    void compareSaysWhatIsOverTheRankCap()
    {
        std::string expr = "x[";
        for (int k = 0; k < kMaxRank; ++k)
            expr += "None, ";
        const Json r = respond(compareLine(expr + "...]", 1));
        QVERIFY2(r.find("ok")->toBool(), compact(r).c_str());
        QCOMPARE(framework(r, "numpy").find("outcome")->toString(), std::string("not_modelled"));
        QVERIFY(contains(framework(r, "numpy").find("message")->toString(), "rank"));
        QCOMPARE(framework(r, "tensorflow").find("outcome")->toString(), std::string("error"));
    }

    void compareRefusesBadRequests_data()
    {
        QTest::addColumn<QString>("attrs");
        QTest::addColumn<QString>("code");
        QTest::newRow("neither") << "{}"
                                 << "bad_request";
        QTest::newRow("both") << R"({"expr": "x[0]", "begin": [0], "end": [1]})"
                              << "bad_request";
        QTest::newRow("not a string") << R"({"expr": 3})"
                                      << "bad_request";
        QTest::newRow("parse error") << R"({"expr": "x[1:2:3:4]"})"
                                     << "parse_error";
    }
    void compareRefusesBadRequests()
    {
        QFETCH(QString, attrs);
        QFETCH(QString, code);
        const Json r =
            respond(R"({"op": "compare", "inputs": {"input": {"value": [1, 2]}}, "attrs": )" +
                    attrs.toStdString() + "}");
        QCOMPARE(errorCode(r), code.toStdString());
    }

    void compareCommandPrintsTheTable()
    {
        const CliRun run = cli({"compare", "--shape", "5", "x[4:-6:-1]"});
        QCOMPARE(run.exit, 0);
        QVERIFY2(contains(run.out, "PyTorch 1.13"), run.out.c_str());
        QVERIFY2(contains(run.out, "ValueError: step must be greater than zero"), run.out.c_str());
        QVERIFY2(contains(run.out, "shape (4,) [4 3 2 1]"), run.out.c_str());
        QVERIFY2(contains(run.out, "- PaddlePaddle (strided_slice) reads 4 elements"),
                 run.out.c_str());
        const CliRun same = cli({"compare", "--shape", "5", "x[1:3]"});
        QVERIFY2(contains(same.out, "Every framework agrees with TensorFlow."), same.out.c_str());
        const CliRun json = cli({"compare", "--shape", "5", "--json", "x[7]"});
        QCOMPARE(json.exit, 0);
        QVERIFY2(contains(json.out, R"("differ":["jax","paddle"])"), json.out.c_str());
    }

    void codeCommandWritesEachFramework_data()
    {
        QTest::addColumn<QString>("framework");
        QTest::addColumn<QString>("part");
        QTest::newRow("numpy") << "numpy"
                               << "\nx[4:-6:-1]\n";
        QTest::newRow("tensorflow") << "tensorflow"
                                    << "tf.strided_slice(x, begin=[4], end=[-6], strides=[-1],";
        QTest::newRow("torch") << "torch"
                               << "torch.flip(x, dims=[0])[-5:5]\n";
        QTest::newRow("jax") << "jax"
                             << "y_lax = lax.rev(lax.slice(x, (0,), (5,), (1,)), (0,))\n";
        QTest::newRow("onnx") << "onnx"
                              << "constant(\"ends\", [-6], [1])";
        QTest::newRow("paddle")
            << "paddle"
            << "paddle.strided_slice(x, axes=[0], starts=[4], ends=[-6], strides=[-1])";
        QTest::newRow("request") << "request"
                                 << R"("op":"getitem")";
    }
    void codeCommandWritesEachFramework()
    {
        QFETCH(QString, framework);
        QFETCH(QString, part);
        const CliRun run =
            cli({"code", "--framework", framework.toStdString(), "--shape", "5", "x[4:-6:-1]"});
        QCOMPARE(run.exit, 0);
        QVERIFY2(contains(run.out, part.toStdString()), run.out.c_str());
    }

    void codeRequestRunsAsWritten()
    {
        const CliRun run = cli({"code", "--framework", "request", "--shape", "2,3", "x[:, ::-1]"});
        QCOMPARE(run.exit, 0);
        const Json r = respond(run.out.substr(0, run.out.size() - 1));
        QCOMPARE(compact(r.find("outputs")->toArray()[0]),
                 std::string(R"({"dtype":"int32","shape":[2,3],"data":[2,1,0,5,4,3]})"));
    }

    void codeForOtherOps()
    {
        const CliRun pad = cli({"code", "--framework", "torch", "--op", "pad", "--attrs",
                                R"({"paddings": [[1, 2], [3, 4]], "constant_values": 7})"});
        QCOMPARE(pad.exit, 0);
        QVERIFY2(contains(pad.out, "torch.nn.functional.pad(tensor, [3, 4, 1, 2], value=7)"),
                 pad.out.c_str());
        const CliRun numpy =
            cli({"code", "--framework", "numpy", "--op", "gather", "--attrs", R"({"axis": 1})"});
        QVERIFY2(contains(numpy.out, "np.take(params, indices, axis=1)"), numpy.out.c_str());
        const CliRun none = cli({"code", "--framework", "torch", "--op", "pad", "--attrs",
                                 R"({"paddings": [[1, 1]], "mode": "symmetric"})"});
        QCOMPARE(none.exit, 1);
        QVERIFY2(contains(none.err, "no direct equivalent in PyTorch 1.13 for pad"),
                 none.err.c_str());
        const CliRun tf = cli({"code", "--framework", "tensorflow", "--op", "split", "--attrs",
                               R"({"num_or_size_splits": 2})"});
        QVERIFY2(contains(tf.out, "tf.split(value, num_or_size_splits=2)"), tf.out.c_str());
        // getitem and strided_slice are written by the framework models, raw arguments read as
        // strided_slice reads them.
        const CliRun raw = cli({"code", "--framework", "torch", "--op", "strided_slice", "--attrs",
                                R"({"begin": [4], "end": [-6], "strides": [-1]})"});
        QVERIFY2(contains(raw.out, "torch.flip(x, dims=[0])[-5:5]"), raw.out.c_str());
        const CliRun badMask =
            cli({"code", "--framework", "numpy", "--op", "strided_slice", "--attrs",
                 R"({"begin": [0], "end": [1], "end_mask": 4294967296})"});
        QCOMPARE(badMask.exit, 1);
        QVERIFY2(contains(badMask.err, "out of range for an int32"), badMask.err.c_str());
        const CliRun item = cli({"code", "--framework", "jax", "--op", "getitem", "--attrs",
                                 R"({"expr": "x[1, None]"})"});
        QVERIFY2(contains(item.out, "\nx[1, None]\n"), item.out.c_str());
        const CliRun compareOp = cli({"code", "--framework", "tensorflow", "--op", "compare"});
        QCOMPARE(compareOp.exit, 1);
    }

    // An attribute the op does not have is refused as a request refuses it: a misspelt optional
    // one ("axsi") was left out, and the code silently took its default (np.take(params,
    // indices, axis=0)); one given twice under an alias, the same.
    void codeRefusesAttributesARequestRefuses_data()
    {
        QTest::addColumn<QString>("framework");
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("attrs");
        QTest::addColumn<QString>("message");
        QTest::newRow("misspelt optional") << "numpy"
                                           << "gather" << R"({"axsi": 1})"
                                           << "bad_request: op 'gather' has no attribute 'axsi'";
        QTest::newRow("an index spec's op") << "torch"
                                            << "strided_slice" << R"({"begin": [1], "strieds": [2]})"
                                            << "op 'strided_slice' has no attribute 'strieds'";
        QTest::newRow("alias and name") << "tensorflow"
                                        << "split"
                                        << R"({"num_split": 2, "num_or_size_splits": 2})"
                                        << "attribute 'num_or_size_splits' of op 'split' is "
                                           "given more than once (under an alias)";
        // Values of the wrong kind, which printed code the framework then refused (np.take(params,
        // indices, axis='params')), are refused in the words a request gets.
        QTest::newRow("axis a string") << "numpy"
                                       << "gather"
                                       << R"({"axis": "x"})"
                                       << "bad_request: attribute 'axis' must be an integer or a "
                                          "rectangular list of integers";
        QTest::newRow("axis a float") << "numpy"
                                      << "stack"
                                      << R"({"axis": 1.5})"
                                      << "bad_request: attribute 'axis' must be an integer";
        QTest::newRow("under an alias")
            << "tensorflow"
            << "split"
            << R"({"num_split": 2, "split_dim": [0.5]})"
            << "attribute 'split_dim' must be an integer or a rectangular "
               "list of integers";
        QTest::newRow("mode a number") << "torch"
                                       << "pad"
                                       << R"({"paddings": [[1, 1]], "mode": 3})"
                                       << "attribute 'mode' must be a string";
        QTest::newRow("starts an integer") << "onnx"
                                           << "onnx_slice"
                                           << R"({"starts": 1, "ends": [2]})"
                                           << "attribute 'starts' must be a list of integers";
        QTest::newRow("masks an index spec's op")
            << "numpy"
            << "strided_slice"
            << R"({"begin": [1], "end": [2], "end_mask": true})"
            << "attribute 'end_mask' must be an integer";
    }
    void codeRefusesAttributesARequestRefuses()
    {
        QFETCH(QString, framework);
        QFETCH(QString, op);
        QFETCH(QString, attrs);
        QFETCH(QString, message);
        const CliRun run = cli({"code", "--framework", framework.toStdString(), "--op",
                                op.toStdString(), "--attrs", attrs.toStdString()});
        QCOMPARE(run.exit, 1);
        QCOMPARE(run.out, std::string());
        QVERIFY2(contains(run.err, message.toStdString()), run.err.c_str());
    }

    // Issue 21: these answered "no direct equivalent" although the framework has the op.
    void codeForOpsWithAnEquivalent_data()
    {
        QTest::addColumn<QString>("framework");
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("attrs");
        QTest::addColumn<QString>("call");
        QTest::newRow("onnx Split") << "onnx"
                                    << "split"
                                    << R"({"num_or_size_splits": [1, 2]})"
                                    << "make_node(\"Split\"";
        QTest::newRow("onnx ReverseSequence") << "onnx"
                                              << "reverse_sequence"
                                              << R"({"seq_axis": 1})"
                                              << "make_node(\"ReverseSequence\"";
        QTest::newRow("onnx GatherND") << "onnx"
                                       << "gather_nd"
                                       << "{}"
                                       << "make_node(\"GatherND\"";
        QTest::newRow("onnx Unique") << "onnx"
                                     << "unique_with_counts"
                                     << "{}"
                                     << "make_node(\"Unique\"";
        QTest::newRow("onnx Slice") << "onnx"
                                    << "slice"
                                    << R"({"begin": [0], "size": [2]})"
                                    << "make_node(\"Slice\"";
        QTest::newRow("torch.split") << "torch"
                                     << "split"
                                     << R"({"num_or_size_splits": [1, 2]})"
                                     << "torch.split(value, [1, 2], dim=0)";
        QTest::newRow("torch.unbind") << "torch"
                                      << "unstack"
                                      << "{}"
                                      << "torch.unbind(value, dim=0)";
        // A null is the default, as the op reads it: np.take's axis=None would flatten.
        QTest::newRow("np.take of axis null") << "numpy"
                                              << "gather" << R"({"axis": null})"
                                              << "np.take(params, indices, axis=0)";
        QTest::newRow("np.split") << "numpy"
                                  << "split"
                                  << R"({"num_or_size_splits": 2})"
                                  << "np.split(value, 2, axis=0)";
    }
    void codeForOpsWithAnEquivalent()
    {
        QFETCH(QString, framework);
        QFETCH(QString, op);
        QFETCH(QString, attrs);
        QFETCH(QString, call);
        const CliRun run = cli({"code", "--framework", framework.toStdString(), "--op",
                                op.toStdString(), "--attrs", attrs.toStdString()});
        QCOMPARE(run.exit, 0);
        QVERIFY2(contains(run.out, call.toStdString()), (run.out + run.err).c_str());
    }

    void codeUsageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no framework") << QStringList{"code", "x[0]"} << "needs --framework";
        QTest::newRow("unknown framework")
            << QStringList{"code", "--framework", "mxnet", "x[0]"} << "--framework takes numpy";
        QTest::newRow("request without shape")
            << QStringList{"code", "--framework", "request", "x[0]"} << "needs --shape";
        QTest::newRow("unknown op")
            << QStringList{"code", "--framework", "numpy", "--op", "nosuch"} << "unknown op";
        QTest::newRow("attrs without op")
            << QStringList{"code", "--framework", "numpy", "--attrs", "{}", "x[0]"}
            << "--attrs goes with --op";
        QTest::newRow("compare without shape") << QStringList{"compare", "x[0]"} << "needs --shape";
    }
    void codeUsageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        std::vector<std::string> a;
        for (const QString& s : args)
            a.push_back(s.toStdString());
        const CliRun run = cli(a);
        QCOMPARE(run.exit, 2);
        QVERIFY2(contains(run.err, message.toStdString()), run.err.c_str());
    }

    void codeNeedsTheRankForAxesAfterAnEllipsis()
    {
        const CliRun run = cli({"code", "--framework", "onnx", "x[..., 0]"});
        QCOMPARE(run.exit, 1);
        QVERIFY2(contains(run.err, "give the shape (--shape)"), run.err.c_str());
        QCOMPARE(cli({"code", "--framework", "onnx", "--shape", "2,3", "x[..., 0]"}).exit, 0);
    }
};

QTEST_APPLESS_MAIN(TestCliFrameworks)
#include "tst_cli_frameworks.moc"
