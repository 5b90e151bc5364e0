// SPDX-License-Identifier: GPL-3.0-or-later
// The TFLite reader: files written by make_tflite_files.py (FlatBuffers code generated from our
// schema) read back, their requests run by the engine and compared with what LiteRT, TFLite's
// own runtime, computed for the same files (tflite_litert_run); hostile bytes get an OpError.
#include "model/model_graph.h"
#include "model/tflite_reader.h"
#include "op_runner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>
#include <iterator>

using namespace ss;
using namespace ss::model;
using namespace ss::testing;

namespace {

QString filesDir()
{
    return qEnvironmentVariable("SLICESCOPE_TFLITE_FILES");
}

QJsonDocument readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll());
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

std::vector<double> valuesOf(const Tensor& t)
{
    std::vector<double> v;
    for (std::int64_t i = 0; i < t.size(); ++i)
        v.push_back(t.doubleAt(i));
    return v;
}

// The manifest entry for a case name.
QJsonObject entry(const QJsonArray& manifest, const QString& name)
{
    for (const QJsonValue& v : manifest)
        if (v.toObject()["name"].toString() == name) return v.toObject();
    return {};
}

Limits limits()
{
    return Limits::machineDefault();
}

} // namespace

class TestModelTFLite : public QObject
{
    Q_OBJECT

    QJsonArray m_manifest;
    QJsonObject m_litert;

    std::string path(const QString& name) const
    {
        return entry(m_manifest, name)["file"].toString().toStdString();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(!filesDir().isEmpty(), "SLICESCOPE_TFLITE_FILES is not set (run under ctest)");
        m_manifest = readJson(filesDir() + "/manifest.json").array();
        QVERIFY2(!m_manifest.isEmpty(), "no manifest.json: tflite_make_files did not run");
        m_litert = readJson(filesDir() + "/litert.json").object();
        QVERIFY2(!m_litert.isEmpty(), "no litert.json: tflite_litert_run did not run");
    }

    // Every file reads back: one node of its op, the shapes SliceScope computes are the ones the
    // case expects, and a stored shape that differs is flagged.
    void readBack_data()
    {
        QTest::addColumn<QString>("name");
        for (const QJsonValue& v : m_manifest) {
            const QString name = v.toObject()["name"].toString();
            QTest::newRow(qPrintable(name)) << name;
        }
    }
    void readBack()
    {
        QFETCH(QString, name);
        const QJsonObject c = entry(m_manifest, name);
        const ModelFile file = readModelFile(path(name));
        QCOMPARE(file.format, ModelFormat::TFLite);
        QCOMPARE(file.producer, std::string("SliceScope test file"));
        QCOMPARE(file.version, std::string("schema 3"));
        if (name == "three_ops") return; // its own test below
        QCOMPARE(file.totalNodes, std::int64_t(1));
        QCOMPARE(file.nodes.size(), std::size_t(1));
        const ModelNode& node = file.nodes[0];
        const QJsonArray computed = c["computed"].toArray();
        const QJsonArray stored = c["stored"].toArray();
        QCOMPARE(node.outputs.size(), std::size_t(stored.size()));
        if (c["refused"].toBool()) { // the engine refuses what the file says runs
            QVERIFY(node.request);
            QVERIFY2(node.reason.find("TFLite does not check it") != std::string::npos,
                     node.reason.c_str());
            const NodeCheck check = checkNode(node, limits());
            QCOMPARE(check.error,
                     std::string("out_of_range: slice index 5 of dimension 0 out of bounds."));
            QVERIFY(check.disagrees);
            return;
        }
        if (computed.isEmpty()) {
            QVERIFY(!node.request);
            QVERIFY(!node.reason.empty());
            return;
        }
        QVERIFY2(node.request, node.reason.c_str());
        const NodeCheck check = checkNode(node, limits());
        QVERIFY2(check.error.empty(), check.error.c_str());
        QVERIFY(check.computed.size() >= std::size_t(computed.size()));
        bool storedDiffers = false;
        for (int k = 0; k < computed.size(); ++k) {
            QVERIFY(check.computed[std::size_t(k)]);
            QCOMPARE(shapeTuple(*check.computed[std::size_t(k)]), shapeTuple(shapeOf(computed[k])));
            storedDiffers = storedDiffers || shapeOf(stored[k]) != shapeOf(computed[k]);
        }
        QCOMPARE(check.disagrees, storedDiffers);
    }

    // What SliceScope computes equals what TFLite's runtime computes, element for element, for
    // every file run there (STRIDED_SLICE with and without offset and every mask, SLICE, GATHER,
    // TRANSPOSE and the rest of the family).
    void agreesWithLiteRT_data()
    {
        QTest::addColumn<QString>("name");
        for (const QJsonValue& v : m_manifest)
            if (v.toObject()["runtime"].toBool()) {
                const QString name = v.toObject()["name"].toString();
                QTest::newRow(qPrintable(name)) << name;
            }
    }
    void agreesWithLiteRT()
    {
        QFETCH(QString, name);
        const QJsonObject theirs = m_litert[name].toObject();
        QVERIFY2(!theirs.isEmpty(), "LiteRT did not run this file");
        QVERIFY2(!theirs.contains("error"), qPrintable(theirs["error"].toString()));
        const ModelFile file = readModelFile(path(name));
        QCOMPARE(file.nodes.size(), std::size_t(1));
        const ModelNode& node = file.nodes[0];
        QVERIFY2(node.request, node.reason.c_str());
        const OpRun run = runOp(node.request->op, makeRequestInputs(*node.request, limits()),
                                node.request->attrs);
        const QJsonArray outputs = theirs["outputs"].toArray();
        QCOMPARE(std::size_t(outputs.size()), node.outputs.size());
        for (int k = 0; k < outputs.size(); ++k) {
            const QJsonObject out = outputs[k].toObject();
            const Tensor& ours = run.outputs[std::size_t(k)];
            // LiteRT.js reports the shape the file stores; ours is computed.
            QCOMPARE(shapeTuple(ours.shape()), shapeTuple(shapeOf(out["shape"])));
            std::vector<double> expect;
            for (const QJsonValue& v : out["data"].toArray())
                expect.push_back(v.toDouble());
            QCOMPARE(valuesOf(ours), expect);
        }
    }

    // offset reaches the engine, and the decode says what it did.
    void offsetIsDecoded()
    {
        const ModelFile file = readModelFile(path("ss_offset"));
        const ModelNode& node = file.nodes[0];
        QVERIFY(node.request);
        QCOMPARE(node.request->attrs.at("offset").toBool(), true);
        const auto shown = std::find_if(node.attributes.begin(), node.attributes.end(),
                                        [](const ModelAttribute& a) { return a.name == "offset"; });
        QVERIFY(shown != node.attributes.end());
        QVERIFY(shown->text.starts_with("true"));
        const OpRun run = runOp(node.request->op, makeRequestInputs(*node.request, limits()),
                                node.request->attrs);
        QVERIFY(std::any_of(run.plan.steps.begin(), run.plan.steps.end(), [](const Step& s) {
            return s.title.starts_with("Offset") &&
                   s.detail.find("end = 1 + 2 = 3") != std::string::npos;
        }));
        // Without offset the node reads as the subscript its masks and values mean.
        const ModelFile plain = readModelFile(path("ss_negative_stride_masks"));
        const auto sub =
            std::find_if(plain.nodes[0].attributes.begin(), plain.nodes[0].attributes.end(),
                         [](const ModelAttribute& a) { return a.name == "subscript"; });
        QVERIFY(sub != plain.nodes[0].attributes.end());
        QVERIFY2(sub->text == "x[1:3, ::-1]", sub->text.c_str());
    }

    // A begin computed at run time: no request until the user gives it a value; the unknown
    // batch dimension (shape_signature -1) shows as such.
    void runTimeArgument()
    {
        ModelFile file = readModelFile(path("runtime_begin"));
        ModelNode& node = file.nodes[0];
        QVERIFY(!node.request);
        QVERIFY2(node.reason.find("computed at run time") != std::string::npos,
                 node.reason.c_str());
        // The input that blocks the request is recorded: begin, not the data.
        QCOMPARE(node.blockedBy, std::vector<std::size_t>{1});
        QCOMPARE(node.inputs[0].stored.text(), std::string("(?, 4)"));
        QCOMPARE(node.inputs[0].storedFrom, std::string("shape_signature"));
        QCOMPARE(node.outputs[0].stored.text(), std::string("(?, 2)"));
        QCOMPARE(setInputValue(file, "begin", i32({2}, {0, 1})), 1);
        QVERIFY2(file.nodes[0].request, file.nodes[0].reason.c_str());
        QVERIFY(file.nodes[0].blockedBy.empty());
        const NodeCheck check = checkNode(file.nodes[0], limits());
        QCOMPARE(check.computed.size(), std::size_t(1));
        QVERIFY(check.computed[0]);
        QCOMPARE(*check.computed[0], (Shape{1, 2}));
        QVERIFY(!check.disagrees);
    }

    // Several operators: only the family is listed, named by their output tensors, with their
    // position among all operators.
    void severalOperators()
    {
        const ModelFile file = readModelFile(path("three_ops"));
        QCOMPARE(file.totalNodes, std::int64_t(3));
        QCOMPARE(file.nodes.size(), std::size_t(2));
        QCOMPARE(file.nodes[0].name, std::string("model/transpose"));
        QCOMPARE(file.nodes[0].op, std::string("TRANSPOSE"));
        QCOMPARE(file.nodes[0].index, std::int64_t(0));
        QCOMPARE(file.nodes[1].name, std::string("model/reverse"));
        QCOMPARE(file.nodes[1].op, std::string("REVERSE_V2"));
        QCOMPARE(file.nodes[1].index, std::int64_t(2));
        // REVERSE_V2 reads ADD's output, computed at run time: an arange fill of its shape.
        QVERIFY(file.nodes[1].request);
        QCOMPARE(file.nodes[1].request->op, std::string("reverse"));
        QVERIFY(!file.nodes[1].request->inputs[0].second[0].value);
    }

    // The format is recognised by its identifier when the extension says nothing.
    void sniffedWithoutExtension()
    {
        QTemporaryDir dir;
        const std::string copy = dir.filePath("model.bin").toStdString();
        {
            std::ofstream out(copy, std::ios::binary);
            const std::string bytes = fileBytes(path("ss_plain"));
            out.write(bytes.data(), std::streamsize(bytes.size()));
        }
        QCOMPARE(readModelFile(copy).format, ModelFormat::TFLite);
    }

    // Damaged files get invalid_argument naming the problem; none crashes or hangs.
    void hostileBytes()
    {
        const std::string good = fileBytes(path("ss_offset"));
        QVERIFY(good.size() > 100);
        const ModelReader reader = tfliteReader();
        int refused = 0;
        auto attempt = [&](const std::string& bytes) {
            try {
                const ModelFile f = reader.read("x.tflite", bytes, ReadLimits{});
                for (const ModelNode& n : f.nodes)
                    (void)checkNode(n, limits());
            } catch (const OpError& e) {
                QCOMPARE(e.code(), ErrorCode::InvalidArgument);
                ++refused;
            }
        };
        for (std::size_t n = 0; n < good.size(); ++n)
            attempt(good.substr(0, n));
        QCOMPARE(refused, int(good.size())); // every truncation is refused
        // Deterministic corruptions: each byte set to values that break offsets and lengths.
        for (std::size_t at = 0; at < good.size(); ++at)
            for (unsigned char v : {0x00, 0x7f, 0x80, 0xff}) {
                std::string bad = good;
                bad[at] = char(v);
                attempt(bad);
            }
        std::string wrongId = good;
        wrongId.replace(4, 4, "XXXX");
        SS_EXPECT_ERROR(reader.read("x.tflite", wrongId, ReadLimits{}), ErrorCode::InvalidArgument,
                        "not a TFLite file: its bytes 4 to 7 are not \"TFL3\"");
    }
};

QTEST_APPLESS_MAIN(TestModelTFLite)
#include "tst_model_tflite.moc"
