// SPDX-License-Identifier: GPL-3.0-or-later
// Constants of every element type in every model format: make_dtype_models.py writes, with each
// format's own library, a gather node whose data is a constant of that type (ONNX raw_data and
// typed fields, TFLite buffers, GraphDef tensor_content and typed lists). Each reads back bit for
// bit as the format's reference decoder reads it, and the node runs; a type SliceScope lacks is
// named in the node's reason.
#include "core/op.h"
#include "model/model_graph.h"
#include "op_runner.h"

#include <QByteArray>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

#include <algorithm>

using namespace ss;
using namespace ss::model;
using namespace ss::testing;

namespace {

QString filesDir()
{
    return qEnvironmentVariable("SLICESCOPE_DTYPE_MODELS");
}

QByteArray bytesOf(const Tensor& t)
{
    return QByteArray(static_cast<const char*>(t.raw()),
                      qsizetype(t.size()) * dtypeSize(t.dtype()));
}

} // namespace

class TestModelDTypes : public QObject
{
    Q_OBJECT

    QJsonArray m_manifest;

private slots:
    void initTestCase()
    {
        QVERIFY2(!filesDir().isEmpty(), "SLICESCOPE_DTYPE_MODELS is not set (run under ctest)");
        QFile f(filesDir() + "/manifest.json");
        QVERIFY2(f.open(QIODevice::ReadOnly), "no manifest.json: dtype_models_make did not run");
        m_manifest = QJsonDocument::fromJson(f.readAll()).array();
        QVERIFY(!m_manifest.isEmpty());
    }

    // Every format and dtype, both ways of storing where the format has two.
    void constantsReadBitForBit_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("node"); // "" where the file holds one node
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<QByteArray>("bytes");
        QSet<QString> dtypes;
        for (const QJsonValue& v : m_manifest) {
            const QJsonObject c = v.toObject();
            if (c["dtype"].isNull()) continue;
            dtypes.insert(c["dtype"].toString());
            QTest::newRow(qPrintable(c["name"].toString()))
                << filesDir() + "/" + c["file"].toString() << c["node"].toString()
                << c["dtype"].toString() << QByteArray::fromHex(c["bytes"].toString().toLatin1());
        }
        // Every dtype but string is written (strings are not read from constants).
        for (DType t : kAllDTypes)
            if (t != DType::String)
                QVERIFY2(dtypes.contains(QString::fromLatin1(dtypeName(t).data())),
                         dtypeName(t).data());
    }
    void constantsReadBitForBit()
    {
        QFETCH(QString, file);
        QFETCH(QString, node);
        QFETCH(QString, dtype);
        QFETCH(QByteArray, bytes);
        // The ONNX dtypes share a file (each ONNX file costs a run of onnx's checker in a child
        // process): read each once.
        static QHash<QString, ModelFile> read;
        if (!read.contains(file)) read.insert(file, readModelFile(file.toStdString()));
        const ModelFile& model = read[file];
        QVERIFY(!model.nodes.empty());
        const auto found =
            std::find_if(model.nodes.begin(), model.nodes.end(), [&](const ModelNode& n) {
                return node.isEmpty() || n.name == node.toStdString();
            });
        QVERIFY(found != model.nodes.end());
        if (node.isEmpty()) QCOMPARE(model.nodes.size(), std::size_t(1));
        const ModelNode& n = *found;
        QVERIFY(!n.inputs.empty());
        const ModelValue& data = n.inputs.front();
        QVERIFY2(data.dtype, data.dtypeText.c_str());
        QCOMPARE(QString::fromLatin1(dtypeName(*data.dtype).data()), dtype);
        QVERIFY2(data.constant, n.reason.c_str());
        QCOMPARE(data.constant->dtype(), *data.dtype);
        QCOMPARE(data.constant->shape(), (Shape{2, 3}));
        QCOMPARE(bytesOf(*data.constant).toHex(), bytes.toHex());

        // The node runs: gather rows [1, 0] of the constant, bit for bit.
        QVERIFY2(n.request, n.reason.c_str());
        const NodeCheck check = checkNode(n, Limits{});
        QVERIFY2(check.error.empty(), check.error.c_str());
        QVERIFY(!check.disagrees);
        QCOMPARE(check.computed.size(), std::size_t(1));
        QCOMPARE(*check.computed.front(), (Shape{2, 3}));
        const OpRun run =
            runOp(n.request->op, makeRequestInputs(*n.request, Limits{}), n.request->attrs);
        QCOMPARE(run.outputs.size(), std::size_t(1));
        QCOMPARE(run.outputs.front().dtype(), *data.dtype);
        const qsizetype row = bytes.size() / 2;
        QCOMPARE(bytesOf(run.outputs.front()).toHex(), (bytes.mid(row) + bytes.left(row)).toHex());
    }

    // A constant of a type SliceScope does not have: the node says which type.
    void unknownTypeIsNamed_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("names");
        for (const QJsonValue& v : m_manifest) {
            const QJsonObject c = v.toObject();
            if (!c["dtype"].isNull()) continue;
            QTest::newRow(qPrintable(c["name"].toString()))
                << filesDir() + "/" + c["file"].toString() << c["error"].toString();
        }
    }
    void unknownTypeIsNamed()
    {
        QFETCH(QString, file);
        QFETCH(QString, names);
        const ModelFile model = readModelFile(file.toStdString());
        QCOMPARE(model.nodes.size(), std::size_t(1));
        const ModelNode& node = model.nodes.front();
        QVERIFY(!node.request);
        QVERIFY2(QString::fromStdString(node.reason).contains(names), node.reason.c_str());
        QVERIFY2(QString::fromStdString(node.reason).contains(QLatin1String("SliceScope")),
                 node.reason.c_str());
    }

    // An ONNX Pad of float16 data keeps its constant's fraction (it was cut to an integer).
    void halfFloatPadConstant()
    {
        const ModelFile model =
            readModelFile((filesDir() + "/onnx_pad_float16.onnx").toStdString());
        QCOMPARE(model.nodes.size(), std::size_t(1));
        const ModelNode& node = model.nodes.front();
        QVERIFY2(node.request, node.reason.c_str());
        QCOMPARE(node.request->attrs.at("constant_values").toDouble(), 0.5);
        const OpRun run = runOp(node.request->op, makeRequestInputs(*node.request, Limits{}),
                                node.request->attrs);
        QCOMPARE(run.outputs.at(0).shape(), (Shape{2, 5}));
        QCOMPARE(run.outputs.at(0).doubleAt(0), 0.5);
    }
};

QTEST_APPLESS_MAIN(TestModelDTypes)
#include "tst_model_dtypes.moc"
