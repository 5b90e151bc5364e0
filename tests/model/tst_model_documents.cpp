// SPDX-License-Identifier: GPL-3.0-or-later
// The documents that list the ops each model reader translates agree with its op table
// (ModelReader::ops): engine/model/README.md's table per format, and the ONNX ops the
// slicescope-cli man page names. A list kept by hand goes stale the day an op is added.
#include "model/model_graph.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace ss::model;

namespace {

QString sourceFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
    return QString::fromUtf8(f.readAll());
}

std::vector<std::string> opsOf(ModelFormat format)
{
    for (const ModelReader& r : modelReaders())
        if (r.format == format) return r.ops;
    return {};
}

QStringList qt(const std::vector<std::string>& names)
{
    QStringList out;
    for (const std::string& n : names)
        out << QString::fromStdString(n);
    return out;
}

} // namespace

class TestModelDocuments : public QObject
{
    Q_OBJECT

private slots:
    void readmeTables_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("header");
        QTest::newRow("ONNX") << int(ModelFormat::Onnx) << "| ONNX op |";
        QTest::newRow("TFLite") << int(ModelFormat::TFLite) << "| TFLite op |";
        QTest::newRow("TensorFlow graphs") << int(ModelFormat::GraphDef) << "| TensorFlow op |";
    }
    // Each format's table in engine/model/README.md has one row per op of the reader's table,
    // in its order.
    void readmeTables()
    {
        QFETCH(int, format);
        QFETCH(QString, header);
        const QString readme = sourceFile(QFINDTESTDATA("../../engine/model/README.md"));
        const qsizetype at = readme.indexOf(header);
        QVERIFY2(at >= 0, qPrintable(header));
        QStringList rows;
        for (const QString& line : readme.mid(at).split(u'\n').mid(2)) {
            if (!line.startsWith(u'|')) break;
            const QRegularExpressionMatch m =
                QRegularExpression(QStringLiteral("^\\| `([A-Za-z_0-9]+)` \\|")).match(line);
            QVERIFY2(m.hasMatch(), qPrintable(line));
            rows << m.captured(1);
        }
        const QStringList ops = qt(opsOf(ModelFormat(format)));
        QVERIFY(!ops.isEmpty());
        QCOMPARE(rows, ops);
    }

    // The man page's list of ONNX ops is the reader's, and its examples of the others are ops
    // their readers have.
    void manPage()
    {
        const QString page =
            sourceFile(QFINDTESTDATA("../../packaging/man/slicescope-cli.1.in")).simplified();
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("\\(ONNX's (.*?), and their TFLite and TensorFlow "
                                              "namesakes such as ([A-Z_]+) and ([A-Za-z]+)\\)"))
                .match(page);
        QVERIFY(m.hasMatch());
        QCOMPARE(m.captured(1).split(QStringLiteral(", ")), qt(opsOf(ModelFormat::Onnx)));
        QVERIFY(qt(opsOf(ModelFormat::TFLite)).contains(m.captured(2)));
        QVERIFY(qt(opsOf(ModelFormat::GraphDef)).contains(m.captured(3)));
    }
};

QTEST_GUILESS_MAIN(TestModelDocuments)
#include "tst_model_documents.moc"
