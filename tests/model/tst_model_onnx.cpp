// SPDX-License-Identifier: GPL-3.0-or-later
// The ONNX reader and `slicescope-cli model`: small models built here with onnx's own protobuf
// classes (one node each, the stored shapes chosen per row), bad and hostile files, and the
// command's table, --json and --check. ONNX's own test models are swept by
// onnx_testdata_sweep.py.
#include "app/cli.h"
#include "core/error.h"
#include "core/executor.h"
#include "core/op.h"
#include "model/model_graph.h"
#include "protocol/json.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <dirent.h>
#include <fstream>
#include <onnx/onnx_pb.h>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace ss;
using namespace ss::model;

namespace {

namespace ox = ONNX_NAMESPACE;
using Ints = std::vector<std::int64_t>;
constexpr std::int64_t kUnknown = -1; // a dimension stored as dim_param "N"

// A one-graph model, written field by field.
class Builder
{
public:
    explicit Builder(std::int64_t opset = 13)
    {
        m_model.set_ir_version(8);
        m_model.set_producer_name("tst_model_onnx");
        auto* o = m_model.add_opset_import();
        o->set_domain("");
        o->set_version(opset);
        m_model.mutable_graph()->set_name("g");
    }
    Builder& input(const std::string& name, const Ints& dims, int type = ox::TensorProto::FLOAT)
    {
        describe(m_model.mutable_graph()->add_input(), name, dims, type);
        return *this;
    }
    Builder& output(const std::string& name, const Ints& dims, int type = ox::TensorProto::FLOAT)
    {
        describe(m_model.mutable_graph()->add_output(), name, dims, type);
        return *this;
    }
    Builder& ints(const std::string& name, const Ints& values, const Ints& dims)
    {
        auto* t = m_model.mutable_graph()->add_initializer();
        t->set_name(name);
        t->set_data_type(ox::TensorProto::INT64);
        for (auto d : dims)
            t->add_dims(d);
        for (auto v : values)
            t->add_int64_data(v);
        return *this;
    }
    ox::NodeProto& node(const std::string& op, const std::vector<std::string>& inputs,
                        const std::vector<std::string>& outputs)
    {
        auto* n = m_model.mutable_graph()->add_node();
        n->set_op_type(op);
        n->set_name(op + "_node");
        for (const auto& i : inputs)
            n->add_input(i);
        for (const auto& o : outputs)
            n->add_output(o);
        return *n;
    }
    static void attr(ox::NodeProto& n, const std::string& name, std::int64_t v)
    {
        auto* a = n.add_attribute();
        a->set_name(name);
        a->set_type(ox::AttributeProto::INT);
        a->set_i(v);
    }
    static void attr(ox::NodeProto& n, const std::string& name, const std::string& v)
    {
        auto* a = n.add_attribute();
        a->set_name(name);
        a->set_type(ox::AttributeProto::STRING);
        a->set_s(v);
    }
    std::string bytes() const { return m_model.SerializeAsString(); }

private:
    static void describe(ox::ValueInfoProto* v, const std::string& name, const Ints& dims, int type)
    {
        v->set_name(name);
        auto* tt = v->mutable_type()->mutable_tensor_type();
        tt->set_elem_type(type);
        auto* shape = tt->mutable_shape();
        for (auto d : dims) {
            auto* dim = shape->add_dim();
            if (d == kUnknown)
                dim->set_dim_param("N");
            else
                dim->set_dim_value(d);
        }
    }
    ox::ModelProto m_model;
};

QString writeFile(const QTemporaryDir& dir, const QString& name, const std::string& bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    f.write(bytes.data(), qint64(bytes.size()));
    return path;
}

struct CliRun
{
    int status;
    std::string out, err;
};

CliRun cli(const std::vector<std::string>& args, const std::string& input = {})
{
    std::istringstream in(input);
    std::ostringstream out, err;
    CliEnvironment env;
    env.width = 200;
    const int status = runCli(args, in, out, err, env);
    return {status, out.str(), err.str()};
}

// A TensorProto file as ONNX's node tests ship their data (test_data_set_0/input_0.pb).
std::string tensorProto(const std::string& name, int type, const Ints& dims,
                        const std::vector<double>& values)
{
    ox::TensorProto t;
    t.set_name(name);
    t.set_data_type(type);
    for (auto d : dims)
        t.add_dims(d);
    for (double v : values) {
        if (type == ox::TensorProto::FLOAT)
            t.add_float_data(float(v));
        else if (type == ox::TensorProto::INT64)
            t.add_int64_data(std::int64_t(v));
        else
            t.add_int32_data(std::int32_t(v)); // int32, int16, float16 bits, ...
    }
    return t.SerializeAsString();
}

Builder sliceModel(const Ints& storedOut)
{
    Builder b;
    b.input("x", {2, 3, 4}).output("y", storedOut);
    b.ints("starts", {0}, {1}).ints("ends", {1}, {1}).ints("axes", {2}, {1});
    b.node("Slice", {"x", "starts", "ends", "axes"}, {"y"});
    return b;
}

} // namespace

Q_DECLARE_METATYPE(Ints)

class TestModelOnnx : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void nodes_data();
    void nodes();
    void padModesReadTheirSources_data();
    void padModesReadTheirSources();
    void shapeComputationsAreFolded();
    void nodesAfterAFoldedSliceKnowTheirInputs();
    void foldingAHugeValueAllocatesNothing();
    void runTimeValue();
    void blockingInputIsRecorded();
    void badFiles_data();
    void badFiles();
    void hugeFile();
    void inferenceCrashes_data();
    void inferenceCrashes();
    void cancelStopsTheChecker();
    void checkerMessagesAreWhole_data();
    void checkerMessagesAreWhole();
    void nodesThatNeverRunSayWhy();
    void cliTable();
    void cliJsonRuns();
    void cliCheck();
    void cliCheckCountsUncheckedNodes();
    void valueSizedOutputsAreNotCompared_data();
    void valueSizedOutputsAreNotCompared();
    void cliNamesTheOpsOfAFileWithoutSlicing();
    void cliRunsANodeTestsData();
    void cliInputFromTensorProto();

private:
    QTemporaryDir m_dir;
};

void TestModelOnnx::nodes_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("engineOp"); // "" for no request
    QTest::addColumn<QString>("computed"); // the first output's computed shape
    QTest::addColumn<bool>("disagrees");
    QTest::addColumn<QString>("reason"); // a phrase of node.reason ("" for none)

    auto row = [](const char* name, const Builder& b, const char* op, const char* computed,
                  bool disagrees, const char* reason) {
        const std::string bytes = b.bytes();
        QTest::newRow(name) << QByteArray(bytes.data(), qsizetype(bytes.size())) << QString(op)
                            << QString(computed) << disagrees << QString(reason);
    };
    row("Slice, stored shape right", sliceModel({2, 3, 1}), "onnx_slice", "(2, 3, 1)", false, "");
    // A converter bug as it looks: the file says 2 elements where the slice reads 1.
    row("Slice, stored shape wrong", sliceModel({2, 3, 2}), "onnx_slice", "(2, 3, 1)", true, "");
    row("Slice, stored dimension unknown", sliceModel({2, kUnknown, 1}), "onnx_slice", "(2, 3, 1)",
        false, "");
    {
        Builder b;
        b.input("x", {5}).input("starts", {1}, ox::TensorProto::INT64).output("y", {kUnknown});
        b.ints("ends", {5}, {1});
        b.node("Slice", {"x", "starts", "ends"}, {"y"});
        row("Slice, starts computed at run time", b, "", "", false,
            "'starts' is computed at run time");
    }
    {
        Builder b;
        b.input("x", {5, 3}).output("y", {2, 3}).ints("i", {-1, 0}, {2});
        b.node("Gather", {"x", "i"}, {"y"});
        row("Gather, negative index", b, "gather", "(2, 3)", false,
            "negative indices have the axis size added");
    }
    {
        Builder b;
        b.input("x", {2, 2}).output("y", {2, 2}).ints("i", {0, 0, 1, 0}, {2, 2});
        Builder::attr(b.node("GatherElements", {"x", "i"}, {"y"}), "axis", 1);
        row("GatherElements", b, "gather_nd", "(2, 2)", false, "full coordinates");
    }
    {
        Builder b;
        b.input("x", {2, 3}).output("y", {3}).ints("axes", {0}, {1});
        b.node("Squeeze", {"x", "axes"}, {"y"});
        row("Squeeze of an axis of size 2", b, "", "", false, "has size 2, not 1");
    }
    {
        Builder b;
        b.input("x", {1, 3}).output("y", {3}).ints("axes", {-2}, {1});
        b.node("Squeeze", {"x", "axes"}, {"y"});
        row("Squeeze, negative axis", b, "strided_slice", "(3,)", false, "shrink_axis_mask 1");
    }
    {
        // tensorflow-onnx #1849: x[..., None, None] on rank 2 is Unsqueeze [2, 3]; a file
        // that stores the shape of axes [1, 2] disagrees.
        Builder b;
        b.input("x", {2, 3}).output("y", {2, 1, 1, 3}).ints("axes", {2, 3}, {2});
        b.node("Unsqueeze", {"x", "axes"}, {"y"});
        row("Unsqueeze, stored as axes [1, 2]", b, "strided_slice", "(2, 3, 1, 1)", true,
            "new_axis_mask 12");
    }
    {
        Builder b;
        b.input("x", {1, 8, 2, 2}).output("y", {1, 2, 4, 4});
        Builder::attr(b.node("DepthToSpace", {"x"}, {"y"}), "blocksize", 2);
        row("DepthToSpace: another layout", b, "", "", false, "NCHW");
    }
    {
        // TensorFlow's pad has no edge mode: each output element reads its source by gather_nd.
        Builder b;
        b.input("x", {2, 2}).output("y", {4, 4}).ints("pads", {1, 1, 1, 1}, {4});
        Builder::attr(b.node("Pad", {"x", "pads"}, {"y"}), "mode", std::string("edge"));
        row("Pad, mode edge", b, "gather_nd", "(4, 4)", false, "mode 'edge' as gather_nd");
    }
    {
        // Negative pads crop (TensorFlow's pad refuses them).
        Builder b;
        b.input("x", {3, 4}).output("y", {2, 2}).ints("pads", {0, -1, -1, -1}, {4});
        b.node("Pad", {"x", "pads"}, {"y"});
        row("Pad, negative pads", b, "gather_nd", "(2, 2)", false, "negative pads");
    }
    {
        // Cropping one side and filling another with the constant is no engine op's.
        Builder b;
        b.input("x", {3, 4}).output("y", {3, 4}).ints("pads", {0, -1, 0, 1}, {4});
        b.node("Pad", {"x", "pads"}, {"y"});
        row("Pad, crop and fill", b, "", "", false, "crop one side and fill another");
    }
    {
        Builder b;
        b.input("x", {3, 1}).output("y", {2, 3, 4}).ints("shape", {2, 1, 4}, {3});
        b.node("Expand", {"x", "shape"}, {"y"});
        row("Expand", b, "gather_nd", "(2, 3, 4)", false, "a dimension of 1 repeats");
    }
    {
        // What torch.onnx.export writes for x[1] = 7.0: a scalar expanded to the row's shape
        // (gather_nd refused the scalar: "params must be at least a vector").
        Builder b;
        b.input("x", {}).output("y", {3, 4}).ints("shape", {3, 4}, {2});
        b.node("Expand", {"x", "shape"}, {"y"});
        row("Expand of a scalar", b, "gather_nd", "(3, 4)", false, "");
    }
    {
        // The input comes from an op ONNX does not know, so nothing says its type: it read
        // "has element type unknown, which SliceScope does not have".
        Builder b;
        b.input("x", {2, 3}).output("y", {3, 2});
        b.node("Mystery", {"x"}, {"t"}).set_domain("com.example");
        b.node("Transpose", {"t"}, {"y"});
        row("Transpose of an input of unknown type", b, "", "", false,
            "element type of input 'data' (t) is neither stored in the file nor inferred");
    }
    {
        Builder b;
        b.input("x", {2, 2}).output("y", {4, 4}).ints("pads", {1, 1, 1, 1}, {4});
        Builder::attr(b.node("Pad", {"x", "pads"}, {"y"}), "mode", std::string("wrap"));
        row("Pad, mode wrap", b, "gather_nd", "(4, 4)", false, "mode 'wrap' as gather_nd");
    }
    {
        Builder b;
        b.input("x", {2, 2}).output("y", {4, 4}).ints("pads", {1, 1, 1, 1}, {4});
        Builder::attr(b.node("Pad", {"x", "pads"}, {"y"}), "mode", std::string("symmetric"));
        row("Pad, a mode ONNX lacks", b, "", "", false, "none of ONNX's modes");
    }
    {
        Builder b;
        b.input("x", {2, 2}).output("y", {4, 4}).ints("pads", {1, 1, 1, 1}, {4});
        b.node("Pad", {"x", "pads"}, {"y"});
        row("Pad, constant", b, "pad", "(4, 4)", false, "");
    }
    {
        Builder b;
        b.input("x", {6}).output("y", {kUnknown}).output("idx", {kUnknown}, ox::TensorProto::INT64);
        b.output("inverse", {6}, ox::TensorProto::INT64)
            .output("counts", {kUnknown}, ox::TensorProto::INT64);
        Builder::attr(b.node("Unique", {"x"}, {"y", "idx", "inverse", "counts"}), "sorted", 0);
        row("Unique, not sorted", b, "unique_with_counts", "(6,)", false, "no counterpart");
    }
    {
        Builder b;
        b.input("x", {6}).output("y", {kUnknown});
        b.node("Unique", {"x"}, {"y"});
        row("Unique, sorted", b, "", "", false, "sorted=1");
    }
}

void TestModelOnnx::nodes()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, engineOp);
    QFETCH(QString, computed);
    QFETCH(bool, disagrees);
    QFETCH(QString, reason);
    const QString path =
        writeFile(m_dir, "node.onnx", std::string(bytes.constData(), std::size_t(bytes.size())));
    const ModelFile file = readModelFile(path.toStdString());
    QCOMPARE(file.format, ModelFormat::Onnx);
    QCOMPARE(file.version, std::string("opset 13, IR version 8"));
    QCOMPARE(file.nodes.size(), std::size_t(1));
    const ModelNode& node = file.nodes.front();
    QVERIFY2(reason.isEmpty() || QString::fromStdString(node.reason).contains(reason),
             node.reason.c_str());
    if (engineOp.isEmpty()) {
        QVERIFY(!node.request);
        QVERIFY(!node.reason.empty());
        return;
    }
    QVERIFY2(node.request, node.reason.c_str());
    QCOMPARE(QString::fromStdString(node.request->op), engineOp);
    const NodeCheck check = checkNode(node, Limits::machineDefault());
    QVERIFY2(check.error.empty(), check.error.c_str());
    QVERIFY(check.computed.at(0));
    QCOMPARE(QString::fromStdString(shapeTuple(*check.computed.at(0))), computed);
    QCOMPARE(check.disagrees, disagrees);
}

// Pad's modes without a TensorFlow counterpart read what ONNX says: edge repeats the border,
// wrap the opposite side, negative pads crop.
void TestModelOnnx::padModesReadTheirSources_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<Ints>("pads");
    QTest::addColumn<Ints>("shape");
    QTest::addColumn<Ints>("values"); // of x = [[0, 1, 2], [3, 4, 5]]
    QTest::newRow("edge") << "edge" << Ints{1, 1, 0, 1} << Ints{3, 5}
                          << Ints{0, 0, 1, 2, 2, 0, 0, 1, 2, 2, 3, 3, 4, 5, 5};
    QTest::newRow("wrap") << "wrap" << Ints{0, 2, 1, 0} << Ints{3, 5}
                          << Ints{1, 2, 0, 1, 2, 4, 5, 3, 4, 5, 1, 2, 0, 1, 2};
    QTest::newRow("reflect, cropped")
        << "reflect" << Ints{0, -1, 0, 2} << Ints{2, 4} << Ints{1, 2, 1, 0, 4, 5, 4, 3};
    QTest::newRow("constant, cropped") << "constant" << Ints{-1, 0, 0, -2} << Ints{1, 1} << Ints{3};
}

void TestModelOnnx::padModesReadTheirSources()
{
    QFETCH(QString, mode);
    QFETCH(Ints, pads);
    QFETCH(Ints, shape);
    QFETCH(Ints, values);
    Builder b;
    b.input("x", {2, 3}, ox::TensorProto::INT64).output("y", shape, ox::TensorProto::INT64);
    b.ints("pads", pads, {4});
    Builder::attr(b.node("Pad", {"x", "pads"}, {"y"}), "mode", mode.toStdString());
    ModelFile file = readModelFile(writeFile(m_dir, "pad.onnx", b.bytes()).toStdString());
    QCOMPARE(setInputValue(file, "x", Tensor::fromInts(DType::Int64, {2, 3}, {0, 1, 2, 3, 4, 5})),
             1);
    const ModelNode& node = file.nodes.at(0);
    QVERIFY2(node.request, node.reason.c_str());
    Executor executor(1);
    const std::vector<Tensor> out = computeRequest(*node.request, Limits{}, executor);
    QCOMPARE(out.at(0).shape(), shape);
    QCOMPARE(out.at(0).toInt64Vector(), values);
}

// What torch.onnx.export writes for chunk even for a static input: the Slice's ends computed
// from the input's shape (Shape -> Gather -> Div -> Unsqueeze). The reader folds it where the
// file stores the shape in full, and names the node that computes the value; where a dimension
// is unknown, the ends stay computed at run time.
void TestModelOnnx::shapeComputationsAreFolded()
{
    for (const bool fixed : {true, false}) {
        Builder b;
        b.input("x", {2, 3, fixed ? 4 : kUnknown}).output("y", {2, 3, kUnknown});
        b.ints("two", {2}, {}).ints("zero", {0}, {1}).ints("axis", {2}, {1});
        b.node("Shape", {"x"}, {"shape"});
        b.node("Gather", {"shape", "two"}, {"size"});
        b.node("Div", {"size", "two"}, {"half"}).set_name("half_node");
        b.node("Unsqueeze", {"half", "zero"}, {"ends"});
        b.node("Slice", {"x", "zero", "ends", "axis"}, {"y"});
        const ModelFile file =
            readModelFile(writeFile(m_dir, "chunk.onnx", b.bytes()).toStdString());
        QCOMPARE(file.nodes.size(), std::size_t(3)); // Gather, Unsqueeze, Slice
        const ModelNode& slice = file.nodes.at(2);
        if (!fixed) {
            QVERIFY(!slice.request);
            QVERIFY2(slice.reason.find("computed at run time") != std::string::npos,
                     slice.reason.c_str());
            continue;
        }
        QVERIFY2(slice.request, slice.reason.c_str());
        QCOMPARE(slice.request->attrs.at("ends"), Attr::ints({2}));
        const auto ends = std::find_if(slice.attributes.begin(), slice.attributes.end(),
                                       [](const ModelAttribute& a) { return a.name == "ends"; });
        QVERIFY(ends != slice.attributes.end());
        QCOMPARE(ends->text, std::string("[2] (computed by Unsqueeze_node from the file's shapes "
                                         "and constants)"));
        QCOMPARE(*checkNode(slice, Limits{}).computed.at(0), (Shape{2, 3, 2}));
        // The shape's Gather reads the shape itself, not an arange in its place.
        QCOMPARE(file.nodes.at(0).inputs.at(0).constant->toInt64Vector(), (Ints{2, 3, 4}));
    }
    // A computation no tensor can hold (rank 40) is left to the runtime; the file still reads
    // (the engine's refusal ended the whole read).
    Builder b;
    b.input("x", {2, 3}).output("y", {3, 2}).ints("shape", Ints(40, 1), {40});
    b.node("ConstantOfShape", {"shape"}, {"c"});
    b.node("Transpose", {"x"}, {"y"});
    const ModelFile file = readModelFile(writeFile(m_dir, "rank40.onnx", b.bytes()).toStdString());
    QCOMPARE(file.nodes.size(), std::size_t(1));
}

// The node after a Slice whose ends only folding knows learns its input's type and shape: shape
// inference runs again with the folded values (it had given up on the Slice, whose output the
// file does not store), so a Pad reading it is not left "computed at run time".
void TestModelOnnx::nodesAfterAFoldedSliceKnowTheirInputs()
{
    Builder b;
    b.input("x", {2, 6}).output("y", {kUnknown, kUnknown});
    b.ints("one", {1}, {})
        .ints("two", {2}, {})
        .ints("zero", {0}, {1})
        .ints("axis", {1}, {1})
        .ints("pads", {0, 1, 0, 1}, {4});
    b.node("Shape", {"x"}, {"shape"});
    b.node("Gather", {"shape", "one"}, {"size"});
    b.node("Div", {"size", "two"}, {"half"});
    b.node("Unsqueeze", {"half", "zero"}, {"ends"});
    b.node("Slice", {"x", "zero", "ends", "axis"}, {"s"}); // s: neither stored nor inferred
    Builder::attr(b.node("Pad", {"s", "pads"}, {"y"}), "mode", std::string("edge"));
    const ModelFile file = readModelFile(writeFile(m_dir, "after.onnx", b.bytes()).toStdString());
    const auto pad = std::find_if(file.nodes.begin(), file.nodes.end(),
                                  [](const ModelNode& n) { return n.op == "Pad"; });
    QVERIFY(pad != file.nodes.end());
    QVERIFY2(pad->request, pad->reason.c_str());
    QVERIFY2(pad->inputs.at(0).stored.shape() == (Shape{2, 3}),
             pad->inputs.at(0).stored.text().c_str());
    QCOMPARE(*checkNode(*pad, Limits{}).computed.at(0), (Shape{2, 5}));
}

// A hostile file's Tile of a one-element constant by 2^27 (a 1 GB value) feeding a Slice's ends
// is not made while the file is read: too large to fold, the engine refuses it before it
// allocates, and the Slice's ends are left to the runtime.
void TestModelOnnx::foldingAHugeValueAllocatesNothing()
{
    Builder b;
    b.input("x", {4}).output("y", {kUnknown});
    b.ints("seven", {7}, {1}).ints("repeats", {std::int64_t(1) << 27}, {1}).ints("zero", {0}, {1});
    b.node("Tile", {"seven", "repeats"}, {"big"});
    b.node("Gather", {"big", "zero"}, {"ends"}); // its values, not only its shape
    b.node("Slice", {"x", "zero", "ends"}, {"y"});
    const std::string path = writeFile(m_dir, "tile.onnx", b.bytes()).toStdString();
    rusage before{}, after{};
    getrusage(RUSAGE_SELF, &before);
    const ModelFile file = readModelFile(path);
    getrusage(RUSAGE_SELF, &after);
    const long grownMB = (after.ru_maxrss - before.ru_maxrss) / 1024;
    QVERIFY2(grownMB < 256, qPrintable(QStringLiteral("reading the file took %1 MB").arg(grownMB)));
    const auto slice = std::find_if(file.nodes.begin(), file.nodes.end(),
                                    [](const ModelNode& n) { return n.op == "Slice"; });
    QVERIFY(slice != file.nodes.end());
    QVERIFY(!slice->request);
    QVERIFY2(slice->reason.find("'ends' is computed at run time") != std::string::npos,
             slice->reason.c_str());
}

// A value given for an input computed at run time makes the node computable, and a value of
// the wrong shape is refused.
void TestModelOnnx::runTimeValue()
{
    Builder b;
    b.input("x", {5}).input("starts", {1}, ox::TensorProto::INT64).output("y", {2});
    b.ints("ends", {5}, {1});
    b.node("Slice", {"x", "starts", "ends"}, {"y"});
    const QString path = writeFile(m_dir, "runtime.onnx", b.bytes());
    ModelFile file = readModelFile(path.toStdString());
    QVERIFY(!file.nodes.at(0).request);
    QVERIFY_THROWS_EXCEPTION(
        OpError, setInputValue(file, "starts", Tensor::fromInts(DType::Int64, {2}, {1, 2})));
    QCOMPARE(setInputValue(file, "starts", Tensor::fromInts(DType::Int64, {1}, {-2})), 1);
    QVERIFY2(file.nodes.at(0).request, file.nodes.at(0).reason.c_str());
    const NodeCheck check = checkNode(file.nodes.at(0), Limits::machineDefault());
    QCOMPARE(*check.computed.at(0), (Shape{2}));
    QVERIFY(!check.disagrees);
}

// The input that keeps a node from a request is recorded (ModelNode::blockedBy): not the data,
// which an arange fills, but the argument computed at run time; once it has a value, the next.
void TestModelOnnx::blockingInputIsRecorded()
{
    Builder b;
    b.input("x", {5}).input("starts", {1}, ox::TensorProto::INT64);
    b.input("ends", {1}, ox::TensorProto::INT64).output("y", {kUnknown});
    b.node("Slice", {"x", "starts", "ends"}, {"y"});
    // An input whose type nothing says blocks too: a value given for it removes the reason.
    b.node("Mystery", {"x"}, {"t"}).set_domain("com.example");
    b.node("Transpose", {"t"}, {"u"});
    const QString path = writeFile(m_dir, "blocking.onnx", b.bytes());
    ModelFile file = readModelFile(path.toStdString());
    QCOMPARE(file.nodes.size(), std::size_t(2));
    QCOMPARE(file.nodes[0].blockedBy, std::vector<std::size_t>{1});
    QCOMPARE(setInputValue(file, "starts", Tensor::fromInts(DType::Int64, {1}, {1})), 1);
    QCOMPARE(file.nodes[0].blockedBy, std::vector<std::size_t>{2});
    QCOMPARE(setInputValue(file, "ends", Tensor::fromInts(DType::Int64, {1}, {3})), 1);
    QVERIFY2(file.nodes[0].request, file.nodes[0].reason.c_str());
    QVERIFY(file.nodes[0].blockedBy.empty());
    QCOMPARE(file.nodes[1].blockedBy, std::vector<std::size_t>{0});
    // A reason that no value removes blocks nothing.
    Builder other;
    other.input("x", {2, 2}).output("y", {4, 4}).ints("pads", {1, 1, 1, 1}, {4});
    Builder::attr(other.node("Pad", {"x", "pads"}, {"y"}), "mode", std::string("symmetric"));
    const ModelFile pad =
        readModelFile(writeFile(m_dir, "symmetric.onnx", other.bytes()).toStdString());
    QVERIFY(!pad.nodes.at(0).request);
    QVERIFY(pad.nodes.at(0).blockedBy.empty());
}

void TestModelOnnx::badFiles_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    const std::string good = sliceModel({2, 3, 1}).bytes();
    QTest::newRow("empty") << "empty.onnx" << QByteArray() << "the file is empty";
    QTest::newRow("truncated") << "truncated.onnx"
                               << QByteArray(good.data(), qsizetype(good.size() / 2))
                               << "not a valid ONNX model";
    QTest::newRow("text") << "text.onnx" << QByteArray("this is not a model\n") << "ONNX model";
    QTest::newRow("unknown format")
        << "text.bin" << QByteArray("this is not a model\n") << "not a model file SliceScope reads";
    // A protobuf that parses (an unknown varint field) but holds no graph.
    QTest::newRow("no graph") << "nograph.onnx" << QByteArray("\x08\x07", 2) << "it holds no graph";
    // A hostile initializer: 2^40 elements declared, none stored, and a negative dimension.
    Builder b;
    b.input("x", {4}).output("y", {kUnknown});
    {
        ox::ModelProto m;
        m.ParseFromString(b.bytes());
        auto* t = m.mutable_graph()->add_initializer();
        t->set_name("starts");
        t->set_data_type(ox::TensorProto::INT64);
        t->add_dims(std::int64_t(1) << 40);
        auto* u = m.mutable_graph()->add_initializer();
        u->set_name("ends");
        u->set_data_type(ox::TensorProto::INT64);
        u->add_dims(-3);
        auto* n = m.mutable_graph()->add_node();
        n->set_op_type("Slice");
        n->add_input("x");
        n->add_input("starts");
        n->add_input("ends");
        n->add_output("y");
        const std::string bytes = m.SerializeAsString();
        QTest::newRow("hostile initializers")
            << "hostile.onnx" << QByteArray(bytes.data(), qsizetype(bytes.size())) << "";
    }
}

void TestModelOnnx::badFiles()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    const QString path =
        writeFile(m_dir, name, std::string(bytes.constData(), std::size_t(bytes.size())));
    if (message.isEmpty()) {
        // Read, with the node kept and the constants it cannot take named.
        const ModelFile file = readModelFile(path.toStdString());
        QCOMPARE(file.nodes.size(), std::size_t(1));
        QVERIFY(!file.nodes[0].request);
        QVERIFY2(QString::fromStdString(file.nodes[0].reason).contains("it is a constant, but"),
                 file.nodes[0].reason.c_str());
        return;
    }
    try {
        readModelFile(path.toStdString());
        QFAIL("no error");
    } catch (const OpError& e) {
        QCOMPARE(e.code(), ErrorCode::InvalidArgument);
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.startsWith(path + ": "), e.what());
        QVERIFY2(what.contains(message), e.what());
    }
    // The CLI says the same on stderr, exit status 1.
    const CliRun r = cli({"model", path.toStdString()});
    QCOMPARE(r.status, 1);
    QVERIFY(r.out.empty());
    QVERIFY2(QString::fromStdString(r.err).contains(message), r.err.c_str());
}

// A file over the limit is refused before it is read: a sparse file of 1 GiB + 1 byte costs
// no disk and would take seconds to read.
void TestModelOnnx::hugeFile()
{
    const QString path = m_dir.filePath("huge.onnx");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QVERIFY(f.resize((qint64(1) << 30) + 1));
    f.close();
    try {
        readModelFile(path.toStdString());
        QFAIL("no error");
    } catch (const OpError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains("1073741825 bytes is more than the "
                                                      "1073741824 bytes"),
                 e.what());
    }
    QFile::remove(path);
}

// libonnx 1.12's shape inference crashes on these nodes (found by fuzz_model_onnx; the files
// are in its corpus). The file is still read, with the file's own shapes and a warning.
void TestModelOnnx::inferenceCrashes_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("op");
    {
        Builder b;
        b.input("data", {2, 2, 2}).input("indices", {2, 1}, ox::TensorProto::INT64);
        b.output("y", {2, 2, 2});
        Builder::attr(b.node("GatherND", {"data", "indices"}, {"y"}), "batch_dims", -7);
        const std::string bytes = b.bytes();
        QTest::newRow("GatherND, batch_dims -7: SIGSEGV")
            << QByteArray(bytes.data(), qsizetype(bytes.size())) << "GatherND";
    }
    {
        Builder b;
        b.input("x", {1, 8, 2, 3}).output("y", {1, 2, 4, 6});
        Builder::attr(b.node("DepthToSpace", {"x"}, {"y"}), "blocksize", std::int64_t(1) << 40);
        const std::string bytes = b.bytes();
        QTest::newRow("DepthToSpace, blocksize 2^40: SIGFPE")
            << QByteArray(bytes.data(), qsizetype(bytes.size())) << "DepthToSpace";
    }
}

void TestModelOnnx::inferenceCrashes()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, op);
    const QString path =
        writeFile(m_dir, "crash.onnx", std::string(bytes.constData(), std::size_t(bytes.size())));
    const ModelFile file = readModelFile(path.toStdString());
    QCOMPARE(file.nodes.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(file.nodes[0].op), op);
    bool warned = false;
    for (const std::string& w : file.warnings)
        warned = warned || w.find("crashed on this file") != std::string::npos;
    QVERIFY(warned);
    // The stored shape is the file's own.
    QCOMPARE(file.nodes[0].outputs.at(0).storedFrom, std::string("graph output"));
}

void TestModelOnnx::checkerMessagesAreWhole_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QStringList>("parts");
    {
        // Two nodes reading each other: onnx's sentence breaks its line at the node's name.
        Builder b;
        b.input("x", {4, 6}).output("a", {6, 4});
        b.node("Transpose", {"b"}, {"a"});
        b.node("Transpose", {"a"}, {"b"}).set_name("back");
        const std::string bytes = b.bytes();
        QTest::newRow("a cycle") << QByteArray(bytes.data(), qsizetype(bytes.size()))
                                 << QStringList{"topologically sorted, however input 'b' of node: "
                                                "name: Transpose_node OpType: Transpose is not "
                                                "output of any previous nodes."};
    }
    {
        // The node is named only in the checker's context block.
        Builder b;
        b.input("x", {4, 6}).output("y", {6, 4});
        Builder::attr(b.node("Transpose", {"x"}, {"y"}), "colour", std::int64_t(3));
        const std::string bytes = b.bytes();
        QTest::newRow("an unknown attribute")
            << QByteArray(bytes.data(), qsizetype(bytes.size()))
            << QStringList{"Unrecognized attribute: colour for operator Transpose (",
                           "Name: Transpose_node OpType: Transpose)"};
    }
}

// onnx's checker messages reach the user whole, on one line: the first line alone stopped at
// "however input 'b' of node:" and dropped the name of the node the checker complained of.
void TestModelOnnx::checkerMessagesAreWhole()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QStringList, parts);
    const QString path =
        writeFile(m_dir, "checked.onnx", std::string(bytes.constData(), std::size_t(bytes.size())));
    const ModelFile file = readModelFile(path.toStdString());
    QString checker;
    for (const std::string& w : file.warnings)
        if (w.starts_with("onnx.checker: ")) checker = QString::fromStdString(w);
    QVERIFY2(!checker.isEmpty(), "no warning of onnx.checker");
    QVERIFY2(!checker.contains(u'\n'), qPrintable(checker));
    for (const QString& part : parts)
        QVERIFY2(checker.contains(part), qPrintable(checker));
}

// A node on a cycle, one reading a value nothing makes, and one after them never run: each
// says why in our words (they read "not computed" for a missing type, and only onnx's checker
// said the graph was not sorted), in the file's warnings and in `model`'s notes too.
void TestModelOnnx::nodesThatNeverRunSayWhy()
{
    Builder b;
    b.input("x", {4, 6}).output("a", {6, 4}).output("d", {4, 6});
    b.node("Transpose", {"b"}, {"a"}).set_name("there");
    b.node("Transpose", {"a"}, {"b"}).set_name("back");
    b.node("Transpose", {"a"}, {"c"}).set_name("after");
    b.node("Transpose", {"q"}, {"d"}).set_name("orphan");
    b.node("Transpose", {"x"}, {"e"}).set_name("fine");
    const QString path = writeFile(m_dir, "cycle.onnx", b.bytes());
    const ModelFile file = readModelFile(path.toStdString());
    const std::string cycle = "the graph has a cycle through nodes there, back: each needs an "
                              "output of the next, so none of them ever runs";
    const std::map<std::string, std::string> reasons = {
        {"there", cycle},
        {"back", cycle},
        {"after", "its input 'a' comes from node there, which never runs"},
        {"orphan", "its input 'q' is never made: no node, initializer or graph input has that "
                   "name"}};
    QCOMPARE(file.nodes.size(), std::size_t(5));
    for (const ModelNode& node : file.nodes) {
        const auto it = reasons.find(node.name);
        if (it == reasons.end()) {
            QVERIFY2(node.request.has_value(), node.reason.c_str()); // "fine" runs
            continue;
        }
        QVERIFY2(!node.request, node.name.c_str());
        QCOMPARE(node.reason, it->second);
    }
    for (const std::string& warning :
         {cycle, std::string("node orphan reads 'q', which nothing in the graph makes")})
        QVERIFY2(std::find(file.warnings.begin(), file.warnings.end(), warning) !=
                     file.warnings.end(),
                 warning.c_str());
    const CliRun r = cli({"model", path.toStdString()});
    QVERIFY2(r.out.find("there: not computed: " + cycle) != std::string::npos, r.out.c_str());
    QVERIFY2(r.out.find("orphan: not computed: its input 'q' is never made") != std::string::npos,
             r.out.c_str());
}

void TestModelOnnx::cliTable()
{
    const QString path = writeFile(m_dir, "bug.onnx", sliceModel({2, 3, 2}).bytes());
    const CliRun r = cli({"model", path.toStdString()});
    QCOMPARE(r.status, 0);
    const QString out = QString::fromStdString(r.out);
    QVERIFY2(out.contains("ONNX, opset 13"), r.out.c_str());
    QVERIFY2(out.contains("1 slicing node of 1."), r.out.c_str()); // not "1 ... nodes"
    QVERIFY2(out.contains("Slice_node"), r.out.c_str());
    QVERIFY2(out.contains("(2, 3, 2)") && out.contains("(2, 3, 1)"), r.out.c_str());
    QVERIFY2(out.contains("starts=[0]") && out.contains("axes=[2]"), r.out.c_str());
    // Missing files and directories are errors on stderr.
    QCOMPARE(cli({"model", m_dir.filePath("missing.onnx").toStdString()}).status, 1);
    QCOMPARE(cli({"model", m_dir.path().toStdString()}).status, 1);
    QCOMPARE(cli({"model"}).status, 2);
    QCOMPARE(cli({"model", path.toStdString(), "--json", "--check"}).status, 2);
}

// `model --json | run`: every line is a request that run answers, its id the node's name.
void TestModelOnnx::cliJsonRuns()
{
    Builder b;
    b.input("x", {2, 3, 4}).output("y", {2, 3, 1}).output("z", {3, 2, 4});
    b.ints("starts", {-1}, {1}).ints("ends", {-9223372036854775807LL - 1}, {1});
    b.ints("axes", {2}, {1}).ints("steps", {-4}, {1});
    b.node("Slice", {"x", "starts", "ends", "axes", "steps"}, {"y"});
    auto& t = b.node("Transpose", {"x"}, {"z"});
    t.set_name("");
    auto* perm = t.add_attribute();
    perm->set_name("perm");
    perm->set_type(ox::AttributeProto::INTS);
    for (int p : {1, 0, 2})
        perm->add_ints(p);
    const QString path = writeFile(m_dir, "two.onnx", b.bytes());
    const CliRun listed = cli({"model", path.toStdString(), "--json"});
    QCOMPARE(listed.status, 0);
    QVERIFY2(listed.err.empty(), listed.err.c_str());
    const CliRun ran = cli({"run"}, listed.out);
    QCOMPARE(ran.status, 0);
    std::istringstream lines(ran.out);
    std::string line;
    std::vector<Json> responses;
    while (std::getline(lines, line))
        responses.push_back(parseJson(line));
    QCOMPARE(responses.size(), std::size_t(2));
    auto member = [](const Json& j, const char* key) -> const Json& {
        const Json* m = j.find(key);
        if (!m) qFatal("no member %s", key);
        return *m;
    };
    QCOMPARE(member(responses[0], "id").toString(), std::string("Slice_node"));
    QVERIFY(member(responses[0], "ok").toBool());
    // x[:, :, -1::-4] on arange(24).reshape(2, 3, 4): index 3 of each row.
    const Json& out = member(responses[0], "outputs").toArray().at(0);
    const auto& data = member(out, "data").toArray();
    QCOMPARE(data.size(), std::size_t(6));
    QCOMPARE(data[0].toInt64(), std::int64_t(3));
    QCOMPARE(data[1].toInt64(), std::int64_t(7));
    QCOMPARE(member(responses[1], "id").toString(), std::string("Transpose#1"));
    QVERIFY(member(responses[1], "ok").toBool());
}

void TestModelOnnx::cliCheck()
{
    const QString good = writeFile(m_dir, "good.onnx", sliceModel({2, 3, 1}).bytes());
    const QString bad = writeFile(m_dir, "bad.onnx", sliceModel({2, 3, 2}).bytes());
    const CliRun ok = cli({"model", good.toStdString(), "--check"});
    QCOMPARE(ok.status, 0);
    QVERIFY2(QString::fromStdString(ok.out).contains("No node"), ok.out.c_str());
    QVERIFY2(QString::fromStdString(ok.out).contains("(1 node checked)"), ok.out.c_str());
    const CliRun wrong = cli({"model", bad.toStdString(), "--check"});
    QCOMPARE(wrong.status, 1);
    QVERIFY2(QString::fromStdString(wrong.out).contains("! Slice_node") ||
                 QString::fromStdString(wrong.out).contains("!  Slice_node"),
             wrong.out.c_str());
}

// `--check` with nothing disagreeing says how many nodes that rests on: a node whose argument is
// computed at run time was not checked, and it says why.
void TestModelOnnx::cliCheckCountsUncheckedNodes()
{
    Builder b;
    b.input("x", {2, 3, 4}).input("starts", {1}, ox::TensorProto::INT64).output("y", {2, 3, 1});
    b.ints("ends", {1}, {1}).ints("axes", {2}, {1});
    b.node("Slice", {"x", "starts", "ends", "axes"}, {"y"}).set_name("runtime_slice");
    b.node("Slice", {"x", "ends", "ends", "axes"}, {"z"}).set_name("checked_slice");
    b.output("z", {2, 3, 0});
    const QString path = writeFile(m_dir, "unchecked.onnx", b.bytes());
    const CliRun r = cli({"model", path.toStdString(), "--check"});
    QCOMPARE(r.status, 0);
    const QString out = QString::fromStdString(r.out);
    QVERIFY2(out.contains("2 slicing nodes of 2."), r.out.c_str());
    QVERIFY2(out.contains("(1 node checked, 1 not)"), r.out.c_str());
    QVERIFY2(out.contains("runtime_slice: 'starts' is computed at run time"), r.out.c_str());
}

// Unique's Y and counts are as long as X has distinct values, which only the run knows: the
// stand-in arange (all distinct) says nothing of them, so a stored (4,) is no disagreement (onnx's
// own node test test_unique_not_sorted_without_axis failed `model --check`). The other outputs
// are still compared.
void TestModelOnnx::valueSizedOutputsAreNotCompared_data()
{
    QTest::addColumn<qint64>("inverse");
    QTest::addColumn<bool>("disagrees");
    QTest::newRow("as the file stores them") << qint64(6) << false;
    QTest::newRow("a wrong inverse_indices") << qint64(5) << true;
}

void TestModelOnnx::valueSizedOutputsAreNotCompared()
{
    QFETCH(qint64, inverse);
    QFETCH(bool, disagrees);
    Builder b;
    b.input("X", {6}).output("Y", {4}).output("indices", {4}, ox::TensorProto::INT64);
    b.output("inverse_indices", {inverse}, ox::TensorProto::INT64);
    b.output("counts", {4}, ox::TensorProto::INT64);
    Builder::attr(b.node("Unique", {"X"}, {"Y", "indices", "inverse_indices", "counts"}), "sorted",
                  std::int64_t(0));
    const QString path = writeFile(m_dir, "unique.onnx", b.bytes());
    const ModelFile file = readModelFile(path.toStdString());
    QCOMPARE(file.nodes.size(), std::size_t(1));
    const NodeCheck check = checkNode(file.nodes[0], Limits{});
    QCOMPARE(check.disagrees, disagrees);
    // What the stand-in arange gives is shown, but not compared.
    QCOMPARE(check.computed.at(0), std::optional<Shape>(Shape{6})); // Y
    QCOMPARE(check.computed.at(2), std::optional<Shape>(Shape{6}));
    if (!disagrees)
        QCOMPARE(check.unchecked, std::string("the sizes of 'Y' and 'counts' depend on the values "
                                              "its inputs hold at run time"));
    QCOMPARE(cli({"model", path.toStdString(), "--check"}).status, disagrees ? 1 : 0);
}

// A file without a node of the slicing family names the ops it has, the most frequent first.
void TestModelOnnx::cliNamesTheOpsOfAFileWithoutSlicing()
{
    Builder b;
    b.input("x", {2, 3}).output("y", {2, 3});
    b.node("Relu", {"x"}, {"a"}).set_name("r1");
    b.node("Add", {"a", "a"}, {"b"}).set_name("add");
    b.node("Relu", {"b"}, {"y"}).set_name("r2");
    const QString path = writeFile(m_dir, "noslice.onnx", b.bytes());
    const CliRun r = cli({"model", path.toStdString()});
    QCOMPARE(r.status, 0);
    const QString out = QString::fromStdString(r.out);
    QVERIFY2(out.contains("no slicing node of 3; its ops: Relu (2), Add (1)."), r.out.c_str());
    QVERIFY2(!out.contains("stored output"), r.out.c_str()); // no empty table
}

namespace {

// The processes this one started that have not been reaped (ONNX's checker child).
int childCount()
{
    int count = 0;
    DIR* proc = ::opendir("/proc");
    if (!proc) return 0;
    while (const dirent* e = ::readdir(proc)) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        std::ifstream stat(std::string("/proc/") + e->d_name + "/stat");
        std::string line;
        std::getline(stat, line);
        // pid (comm) state ppid ...: comm may hold spaces, so count from its closing bracket.
        const auto close = line.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(line.substr(close + 1));
        char state = 0;
        long ppid = 0;
        rest >> state >> ppid;
        if (ppid == long(::getpid())) ++count;
    }
    ::closedir(proc);
    return count;
}

} // namespace

// The GUI reads a model in a job: cancelling the job while onnx's checker runs in its child kills
// the child at once (it may run a minute on a hostile file) and the read ends as cancelled.
// An ONNX node test's directory: model.onnx, and test_data_set_0 with the graph's run-time inputs
// (input_K.pb) and outputs (output_K.pb). Its arguments are run-time inputs, so without the data
// nothing is computed; with it the nodes run, a chain through two of the family's nodes too, and
// each output is compared with its file.
void TestModelOnnx::cliRunsANodeTestsData()
{
    Builder b;
    b.input("x", {2, 3}).input("starts", {1}, ox::TensorProto::INT64);
    b.input("ends", {1}, ox::TensorProto::INT64);
    b.output("y", {2, 2}).output("z", {2, 2});
    b.ints("axes", {1}, {1});
    b.node("Slice", {"x", "starts", "ends", "axes"}, {"y"}).set_name("slice");
    auto& t = b.node("Transpose", {"y"}, {"z"});
    t.set_name("transpose");
    const QString dir = m_dir.filePath("test_slice_then_transpose");
    QVERIFY(QDir().mkpath(dir + "/test_data_set_0"));
    const QString data = "test_slice_then_transpose/test_data_set_0/";
    writeFile(m_dir, "test_slice_then_transpose/model.onnx", b.bytes());
    writeFile(m_dir, data + "input_0.pb",
              tensorProto("x", ox::TensorProto::FLOAT, {2, 3}, {0.5, 1.5, 2.5, 3.5, 4.5, 5.5}));
    writeFile(m_dir, data + "input_1.pb", tensorProto("starts", ox::TensorProto::INT64, {1}, {1}));
    writeFile(m_dir, data + "input_2.pb", tensorProto("ends", ox::TensorProto::INT64, {1}, {3}));
    // x[:, 1:3] = [[1.5, 2.5], [4.5, 5.5]], and its transpose.
    writeFile(m_dir, data + "output_0.pb",
              tensorProto("y", ox::TensorProto::FLOAT, {2, 2}, {1.5, 2.5, 4.5, 5.5}));
    writeFile(m_dir, data + "output_1.pb",
              tensorProto("z", ox::TensorProto::FLOAT, {2, 2}, {1.5, 4.5, 2.5, 5.5}));
    const CliRun r = cli({"model", dir.toStdString(), "--check"});
    QVERIFY2(r.status == 0, (r.out + r.err).c_str());
    QVERIFY2(
        QString::fromStdString(r.out).contains("3 inputs given; 2 of 2 outputs computed agree."),
        r.out.c_str());
    QVERIFY2(QString::fromStdString(r.out).contains("'z' (output_1.pb): agrees"), r.out.c_str());
    // z, which no node reads, is given to none: no node "did not run".
    QVERIFY2(!QString::fromStdString(r.out).contains("did not run"), r.out.c_str());

    // A wrong expected value is named, with where and what, and --check fails.
    writeFile(m_dir, data + "output_1.pb",
              tensorProto("z", ox::TensorProto::FLOAT, {2, 2}, {1.5, 4.5, 2.5, 6.5}));
    const CliRun wrong = cli({"model", dir.toStdString(), "--check"});
    QCOMPARE(wrong.status, 1);
    QVERIFY2(QString::fromStdString(wrong.out).contains(
                 "'z' (output_1.pb): differs: 1 of 4 elements differ, the first at "
                 "[1, 1]: 5.5, expected 6.5"),
             wrong.out.c_str());

    // --test-data names another data set; an input the graph does not take is an error.
    writeFile(m_dir, data + "input_3.pb", tensorProto("w", ox::TensorProto::INT64, {1}, {1}));
    const CliRun extra = cli({"model", (dir + "/model.onnx").toStdString(), "--test-data",
                              (dir + "/test_data_set_0").toStdString()});
    QCOMPARE(extra.status, 1);
    QVERIFY2(QString::fromStdString(extra.err).contains("has 4 inputs, but"), extra.err.c_str());
    // Test data sets are ONNX's: another format's file says so.
    const QString graph =
        writeFile(m_dir, "graph.pbtxt", "node { name: \"x\" op: \"Placeholder\" }\n");
    const CliRun other = cli(
        {"model", graph.toStdString(), "--test-data", (dir + "/test_data_set_0").toStdString()});
    QCOMPARE(other.status, 1);
    QVERIFY2(QString::fromStdString(other.err).contains("is a TensorFlow GraphDef file: test data"),
             other.err.c_str());
    // A directory without model.onnx or saved_model.pb says so.
    const CliRun none = cli({"model", (dir + "/test_data_set_0").toStdString()});
    QCOMPARE(none.status, 1);
    QVERIFY2(QString::fromStdString(none.err).contains("without model.onnx (an ONNX node test "
                                                       "holds one) or saved_model.pb"),
             none.err.c_str());
    // A TensorFlow SavedModel's directory, as tf.saved_model.save writes it, is its
    // saved_model.pb (it was refused as a directory without model.onnx).
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("saved")));
    writeFile(m_dir, "saved/saved_model.pbtxt",
              "saved_model_schema_version: 1\n"
              "meta_graphs { graph_def { node { name: \"x\" op: \"Placeholder\" } } }\n");
    const CliRun saved = cli({"model", m_dir.filePath(QStringLiteral("saved")).toStdString()});
    QVERIFY2(saved.status == 0, saved.err.c_str());
    QVERIFY2(QString::fromStdString(saved.out).contains("TensorFlow GraphDef, SavedModel schema 1"),
             saved.out.c_str());
}

// `--input NAME=FILE.pb` reads an ONNX TensorProto as the reader reads initializers; a file that
// is not one is refused by name.
void TestModelOnnx::cliInputFromTensorProto()
{
    Builder b;
    b.input("x", {2, 3, 4}).input("starts", {1}, ox::TensorProto::INT64).output("y", {2, 3, 1});
    b.ints("ends", {3}, {1}).ints("axes", {2}, {1});
    b.node("Slice", {"x", "starts", "ends", "axes"}, {"y"}).set_name("runtime_slice");
    const QString path = writeFile(m_dir, "pbinput.onnx", b.bytes());
    const QString starts =
        writeFile(m_dir, "starts.pb", tensorProto("starts", ox::TensorProto::INT64, {1}, {2}));
    const CliRun r =
        cli({"model", path.toStdString(), "--check", "--input", "starts=" + starts.toStdString()});
    QVERIFY2(r.status == 0, (r.out + r.err).c_str());
    QVERIFY2(QString::fromStdString(r.out).contains("(1 node checked)"), r.out.c_str());
    // A name the graph does not have is a usage error naming those it has (it was a warning,
    // status 0), as the Model dock refuses it.
    const CliRun misspelt =
        cli({"model", path.toStdString(), "--input", "strats=" + starts.toStdString()});
    QCOMPARE(misspelt.status, 2);
    QVERIFY2(misspelt.err.starts_with("slicescope-cli: --input strats: the graph has no value "
                                      "'strats' to give: it leaves 'x', 'starts' to run time\n"
                                      "Try 'slicescope-cli --help'."),
             misspelt.err.c_str());
    QVERIFY2(misspelt.out.empty(), misspelt.out.c_str());
    const QString garbage = writeFile(m_dir, "garbage.pb", "\xff\xff\xff");
    const CliRun bad =
        cli({"model", path.toStdString(), "--input", "starts=" + garbage.toStdString()});
    QCOMPARE(bad.status, 1);
    QVERIFY2(QString::fromStdString(bad.err).contains("garbage.pb: not an ONNX TensorProto"),
             bad.err.c_str());
    // A file of a few bytes that claims 2^28 strings is refused before they are made (it took
    // 8.4 GB and more than a minute).
    const QString claims = writeFile(m_dir, "claims.pb",
                                     tensorProto("starts", ox::TensorProto::STRING, {1 << 28}, {}));
    const CliRun hostile =
        cli({"model", path.toStdString(), "--input", "starts=" + claims.toStdString()});
    QCOMPARE(hostile.status, 1);
    QVERIFY2(
        QString::fromStdString(hostile.err).contains("it holds 0 values for shape (268435456,)"),
        hostile.err.c_str());
}

void TestModelOnnx::cancelStopsTheChecker()
{
    // Enough nodes that the child takes a while to start, check and infer.
    Builder b;
    b.input("x", {2, 3}).output("y20000", {2, 3});
    for (int i = 0; i < 20000; ++i)
        b.node("Identity", {i ? "y" + std::to_string(i) : std::string("x")},
               {"y" + std::to_string(i + 1)});
    const QString path = writeFile(m_dir, "long.onnx", b.bytes());
    QCOMPARE(childCount(), 0);

    JobContext job;
    ReadLimits limits;
    limits.job = &job;
    std::atomic<bool> ended{false};
    std::optional<ErrorCode> code;
    std::thread reader([&] {
        try {
            readModelFile(path.toStdString(), limits);
        } catch (const OpError& e) {
            code = e.code();
        }
        ended = true;
    });
    // Cancelled while the checker child runs.
    const auto start = std::chrono::steady_clock::now();
    while (childCount() == 0 && !ended &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(60))
        std::this_thread::yield();
    const bool sawChild = !ended;
    job.cancel();
    reader.join();
    QVERIFY2(sawChild, "the read ended before the checker child was seen");
    QVERIFY2(code.has_value(), "the read was not cancelled");
    QCOMPARE(*code, ErrorCode::Cancelled);
    // The child is gone and reaped.
    QCOMPARE(childCount(), 0);
    errno = 0;
    QCOMPARE(::waitpid(-1, nullptr, WNOHANG), -1);
    QCOMPARE(errno, ECHILD);

    // A job that is not cancelled does not stop a read.
    JobContext running;
    limits.job = &running;
    const QString small = writeFile(m_dir, "small.onnx", sliceModel({2, 3, 1}).bytes());
    QCOMPARE(readModelFile(small.toStdString(), limits).nodes.size(), std::size_t(1));
}

QTEST_APPLESS_MAIN(TestModelOnnx)
#include "tst_model_onnx.moc"
