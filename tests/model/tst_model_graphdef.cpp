// SPDX-License-Identifier: GPL-3.0-or-later
// The TensorFlow graph reader: graphs written by make_graphdef_files.py (protobuf code generated
// from our message definitions) read back as .pb, .pbtxt and a SavedModel; stored shapes from
// _output_shapes against what the engine computes; hostile bytes get an OpError.
#include "model/graphdef_reader.h"
#include "model/model_graph.h"
#include "op_runner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <fstream>
#include <iterator>

using namespace ss;
using namespace ss::model;
using namespace ss::testing;

namespace {

QString filesDir()
{
    return qEnvironmentVariable("SLICESCOPE_GRAPHDEF_FILES");
}

std::string fileBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

Shape shapeOf(const QJsonValue& v)
{
    Shape s;
    for (const QJsonValue& d : v.toArray())
        s.push_back(d.toInteger());
    return s;
}

// A stored shape (-1 unknown) contradicts a computed one.
bool contradicts(const Shape& stored, const Shape& computed)
{
    if (stored.size() != computed.size()) return true;
    for (std::size_t k = 0; k < stored.size(); ++k)
        if (stored[k] >= 0 && stored[k] != computed[k]) return true;
    return false;
}

} // namespace

class TestModelGraphDef : public QObject
{
    Q_OBJECT

    QJsonArray m_manifest;

    std::string path(const QString& name, const char* ext = ".pb") const
    {
        return (filesDir() + "/" + name + ext).toStdString();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(!filesDir().isEmpty(), "SLICESCOPE_GRAPHDEF_FILES is not set (run under ctest)");
        QFile f(filesDir() + "/manifest.json");
        QVERIFY2(f.open(QIODevice::ReadOnly), "no manifest.json: graphdef_make_files did not run");
        m_manifest = QJsonDocument::fromJson(f.readAll()).array();
        QVERIFY(!m_manifest.isEmpty());
    }

    // Every graph reads back, binary and text alike: its family nodes, their ops, the shapes the
    // engine computes, and a disagreement exactly where the stored shape contradicts them.
    void readBack_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("ext");
        for (const QJsonValue& v : m_manifest)
            for (const char* ext : {".pb", ".pbtxt"}) {
                const QString name = v.toObject()["name"].toString();
                QTest::newRow(qPrintable(name + ext)) << name << QString(ext);
            }
    }
    void readBack()
    {
        QFETCH(QString, name);
        QFETCH(QString, ext);
        QJsonObject c;
        for (const QJsonValue& v : m_manifest)
            if (v.toObject()["name"].toString() == name) c = v.toObject();
        const ModelFile file = readModelFile(path(name, qPrintable(ext)));
        QCOMPARE(file.format, ModelFormat::GraphDef);
        QCOMPARE(file.version, std::string("producer 1205"));
        QCOMPARE(file.totalNodes, std::int64_t(c["nodes"].toInt()));
        QCOMPARE(file.nodes.size(), std::size_t(c["family"].toInt()));
        const ModelNode& node = file.nodes[0];
        QCOMPARE(node.op, c["op"].toString().toStdString());
        const QJsonArray computed = c["computed"].toArray();
        const QJsonArray stored = c["stored"].toArray();
        QCOMPARE(node.outputs.size(), std::size_t(stored.size()));
        for (int k = 0; k < stored.size(); ++k)
            QCOMPARE(node.outputs[std::size_t(k)].storedFrom, std::string("_output_shapes"));
        if (computed.isEmpty()) {
            QVERIFY(!node.request);
            QVERIFY(!node.reason.empty());
            return;
        }
        QVERIFY2(node.request, node.reason.c_str());
        const NodeCheck check = checkNode(node, Limits::machineDefault());
        QVERIFY2(check.error.empty(), check.error.c_str());
        bool contradiction = false;
        for (int k = 0; k < computed.size(); ++k) {
            QVERIFY(check.computed[std::size_t(k)]);
            QCOMPARE(*check.computed[std::size_t(k)], shapeOf(computed[k]));
            contradiction = contradiction || contradicts(shapeOf(stored[k]), shapeOf(computed[k]));
        }
        QCOMPARE(check.disagrees, contradiction);
    }

    // The request computes TensorFlow's values: x[1:3, ::-1] on arange (3, 4).
    void tensorFlowValues()
    {
        const ModelFile file = readModelFile(path("strided_slice"));
        const ModelNode& node = file.nodes[0];
        QCOMPARE(node.name, std::string("model/strided_slice"));
        QCOMPARE(node.inputs.size(), std::size_t(4)); // the control input is not data
        const auto sub =
            std::find_if(node.attributes.begin(), node.attributes.end(),
                         [](const ModelAttribute& a) { return a.name == "subscript"; });
        QVERIFY(sub != node.attributes.end());
        QCOMPARE(sub->text, std::string("x[1:3, ::-1]"));
        const OpRun run =
            runOp(node.request->op, makeRequestInputs(*node.request, Limits::machineDefault()),
                  node.request->attrs);
        QCOMPARE(values(run.outputs[0]), (std::vector<std::int64_t>{7, 6, 5, 4, 11, 10, 9, 8}));
        // end was written as int_val, begin as tensor_content: both read.
        QCOMPARE(node.inputs[2].constant->toInt64Vector(), (std::vector<std::int64_t>{3, 0}));
        QCOMPARE(node.inputs[1].constant->toInt64Vector(), (std::vector<std::int64_t>{1, 0}));
    }

    void savedModel()
    {
        const ModelFile file = readModelFile((filesDir() + "/saved/saved_model.pb").toStdString());
        QCOMPARE(file.version, std::string("SavedModel schema 1"));
        QCOMPARE(file.nodes.size(), std::size_t(1));
        QCOMPARE(file.nodes[0].op, std::string("StridedSlice"));
        QVERIFY(file.nodes[0].request);
    }

    // An argument computed at run time (Slice's begin from a Shape node) leaves the node
    // without a request, saying which input.
    void runTimeArgument()
    {
        const ModelFile file = readModelFile(path("several_nodes"));
        QCOMPARE(file.nodes.size(), std::size_t(2));
        QCOMPARE(file.nodes[1].op, std::string("Slice"));
        QCOMPARE(file.nodes[1].index, std::int64_t(5));
        QVERIFY(!file.nodes[1].request);
        QVERIFY2(file.nodes[1].reason.find("model/size") != std::string::npos,
                 file.nodes[1].reason.c_str());
        // Recorded as data too: input 1 (begin, from model/size), not the data (model/add).
        QCOMPARE(file.nodes[1].blockedBy, std::vector<std::size_t>{1});
    }

    // Damaged or foreign files: a clear invalid_argument, never a crash.
    void hostileBytes()
    {
        const std::string good = fileBytes(path("gather_v2"));
        QVERIFY(good.size() > 100);
        const ModelReader reader = graphDefReader();
        int refused = 0;
        auto attempt = [&](const std::string& bytes, const char* name) {
            try {
                const ModelFile f = reader.read(name, bytes, ReadLimits{});
                for (const ModelNode& n : f.nodes)
                    (void)checkNode(n, Limits::machineDefault());
            } catch (const OpError& e) {
                QCOMPARE(e.code(), ErrorCode::InvalidArgument);
                ++refused;
            }
        };
        for (std::size_t n = 0; n < good.size(); ++n)
            attempt(good.substr(0, n), "g.pb");
        QVERIFY(refused > int(good.size()) / 2);
        for (std::size_t at = 0; at < good.size(); ++at)
            for (unsigned char v : {0x00, 0x7f, 0x80, 0xff}) {
                std::string bad = good;
                bad[at] = char(v);
                attempt(bad, "g.pb");
            }
        const std::string text = fileBytes(path("gather_v2", ".pbtxt"));
        for (std::size_t n = 0; n < text.size(); n += 7)
            attempt(text.substr(0, n), "g.pbtxt");
        SS_EXPECT_ERROR(reader.read("g.pbtxt", "node { name: \"x\" op: }", ReadLimits{}),
                        ErrorCode::InvalidArgument, "");
        // Bytes that parse as a protobuf with no node at all (a lone unknown field).
        SS_EXPECT_ERROR(reader.read("g.pb", std::string("\x18\x01", 2), ReadLimits{}),
                        ErrorCode::InvalidArgument,
                        "the file holds no graph node (is it a TensorFlow graph?)");
    }

    // A damaged graph's error says where, in TensorFlow's words: the node a bad shape belongs to,
    // and TensorFlow's name for a message the text misspells a field of (our copy of the messages
    // lives in a package of its own).
    void errorsNameTheNodeAndTensorFlowsMessages()
    {
        const ModelReader reader = graphDefReader();
        const std::string placeholder = R"(node { name: "x" op: "Placeholder"
            attr { key: "dtype" value { type: DT_FLOAT } }
            attr { key: "shape" value { shape { dim { size: 4 } dim { size: -5 } } } } }
            node { name: "s" op: "StridedSlice" input: "x" input: "b" input: "e" input: "st"
            attr { key: "T" value { type: DT_FLOAT } } })";
        SS_EXPECT_ERROR(reader.read("g.pbtxt", placeholder, ReadLimits{}),
                        ErrorCode::InvalidArgument,
                        "node 'x': its shape has dimension -5 (a size is 0 or more, or -1 if "
                        "unknown)");
        const std::string misspelt =
            R"(node { name: "a" op: "Identity" attr { key: "T" value { typo: 1 } } })";
        SS_EXPECT_ERROR(reader.read("g.pbtxt", misspelt, ReadLimits{}), ErrorCode::InvalidArgument,
                        "not a TensorFlow GraphDef in text form: line 1, column 61: Message type "
                        "\"tensorflow.AttrValue\" has no field named \"typo\".");
        // A file cut short: where it ends and what is missing, then protobuf's "Expected ...".
        const std::string cut = "node { name: \"x\" op: \"Placeholder\"\n"
                                "  attr { key: \"dtype\" value { type: DT_FLOAT } }\n";
        SS_EXPECT_ERROR(reader.read("g.pbtxt", cut, ReadLimits{}), ErrorCode::InvalidArgument,
                        "not a TensorFlow GraphDef in text form: the text ends at line 3, column "
                        "1 before what it opened is closed (cut short? a '}' or a value is "
                        "missing); protobuf: Expected identifier, got: ");
    }
};

QTEST_APPLESS_MAIN(TestModelGraphDef)
#include "tst_model_graphdef.moc"
