// SPDX-License-Identifier: GPL-3.0-or-later
// The words the workbench shows about a result: a gathered element's hover says which index
// chose it, an element read twice lists every read, compare's results are titled by their
// frameworks and its outcomes read as sentences, and a greyed result says how it differs from
// the current request.
#include "ui/model/explain.h"
#include "workbench_testing.h"

#include <QLabel>
#include <QTest>

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

namespace {

std::shared_ptr<const Evaluation> evaluate(MainWindow& w, const Workspace& ws)
{
    w.setWorkspace(ws, QStringLiteral("test"));
    if (!waitSettled(w)) return nullptr;
    return w.lastEvaluation();
}

} // namespace

class TestExplain : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { useCleanTestEnvironment(); }

    // gather's example: params arange (4, 3), indices [3, 1, 1], axis 0.
    void gatherSaysWhichIndexChose_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<qint64>("flat");
        QTest::addColumn<QString>("expected");
        QTest::newRow("gather") << "gather" << qint64(4)
                                << "<b>output[1, 1]</b> comes from <b>params[1, 1]</b> because "
                                   "indices[1] = 1";
        // gather_nd's example: params arange (3, 4), indices [[2, 1], [0, 3], [1, 0]].
        QTest::newRow("gather_nd") << "gather_nd" << qint64(1)
                                   << "<b>output[1]</b> comes from <b>params[0, 3]</b> because "
                                      "indices[1] = [0, 3]";
    }
    void gatherSaysWhichIndexChose()
    {
        QFETCH(QString, op);
        QFETCH(qint64, flat);
        QFETCH(QString, expected);
        MainWindow w;
        w.forgetSession();
        const OpDef& def = *findOp(op.toStdString());
        const auto eval = evaluate(w, exampleWorkspace(def));
        QVERIFY(eval && eval->ok);
        const QString text = explainOutputElement(def, *eval, 0, flat);
        QVERIFY2(text.startsWith(expected), qPrintable(text));
    }

    // The reason comes from the op's data (OpDef::indexPick), not from its name: the same
    // definition without it explains the element without an index.
    void theReasonFollowsTheOpsIndexPick()
    {
        MainWindow w;
        w.forgetSession();
        OpDef def = *findOp("gather");
        const auto eval = evaluate(w, exampleWorkspace(def));
        QVERIFY(eval && eval->ok);
        QVERIFY(explainOutputElement(def, *eval, 0, 4).contains(QStringLiteral("because")));
        def.indexPick = IndexPick::None;
        const QString plain = explainOutputElement(def, *eval, 0, 4);
        QVERIFY2(plain.startsWith(QStringLiteral("<b>output[1, 1]</b> comes from <b>params[1, "
                                                 "1]</b>")) &&
                     !plain.contains(QStringLiteral("because")),
                 qPrintable(plain));
    }

    // params[1, 1] is read by output[1, 1] and output[2, 1] (indices 1 and 1).
    void anElementReadTwiceListsBothReads()
    {
        MainWindow w;
        w.forgetSession();
        const OpDef& gather = *findOp("gather");
        const auto eval = evaluate(w, exampleWorkspace(gather));
        QVERIFY(eval && eval->ok);
        const std::int64_t element = 4; // params[1, 1]
        const QString text =
            explainInputElement(gather, *eval, 0, element, findTargets(*eval, 0, element));
        QVERIFY2(text.startsWith(QStringLiteral("<b>params[1, 1]</b> is read 2 times, first ")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral(": output[1, 1], output[2, 1]")), qPrintable(text));
        // Read once: when, and where to.
        const QString once = explainInputElement(gather, *eval, 0, 9, findTargets(*eval, 0, 9));
        QVERIFY2(once.contains(QStringLiteral("<b>params[3, 0]</b> is read 1st, copied to "
                                              "output[0, 0]")),
                 qPrintable(once));
    }

    // compare's example, x[4:-6:-1] on arange(5): PyTorch refuses the step, Paddle reads less.
    void compareTitlesItsResultsByFramework()
    {
        MainWindow w;
        w.forgetSession();
        const OpDef& compare = *findOp("compare");
        const auto eval = evaluate(w, exampleWorkspace(compare));
        QVERIFY(eval && eval->ok);
        const QStringList names = outputNames(compare, *eval);
        QCOMPARE(names.size(), int(eval->outputs.size()));
        QVERIFY(names.size() >= 2);
        QVERIFY2(names[0].contains(QStringLiteral("NumPy")) &&
                     names[0].contains(QStringLiteral("TensorFlow")),
                 qPrintable(names.join(u'|')));
        QVERIFY2(names.join(u'|').contains(QStringLiteral("PaddlePaddle")),
                 qPrintable(names.join(u'|')));
        for (const QString& name : names)
            QVERIFY2(!name.startsWith(QStringLiteral("output")), qPrintable(name));
        QCOMPARE(w.outputView(0)->title().contains(names[0]), true);
        // The outcomes read as sentences, not as the response's JSON.
        const QString extras = w.findChild<QLabel*>(QStringLiteral("opExtras"))->text();
        QVERIFY2(extras.contains(QStringLiteral("<b>PyTorch 1.13</b> raises ValueError")),
                 qPrintable(extras));
        QVERIFY2(extras.contains(QStringLiteral("differs: ")), qPrintable(extras));
        QVERIFY2(!extras.contains(QStringLiteral("<code>")), qPrintable(extras));
        QVERIFY2(!extras.contains(QStringLiteral("\"outcome\"")), qPrintable(extras));
    }

    // The same request on another input fails: the greyed result says what the input was.
    void staleResultSaysWhatDiffers()
    {
        MainWindow w;
        w.forgetSession();
        const auto good = evaluate(w, getitemWorkspace({3, 4}, QStringLiteral("x[2]")));
        QVERIFY(good && good->ok);
        const auto bad = evaluate(w, getitemWorkspace({2, 4}, QStringLiteral("x[2]")));
        QVERIFY(bad && !bad->ok);
        // What the input is now, its own view shows: the note names no intermediate shape of
        // one being typed ("5" of "5, 6" read (5,)).
        const QString note = w.outputView(0)->staleNote();
        QCOMPARE(note, QStringLiteral("last good result of x[2], when input was (3, 4) int32"));
        // Another request: naming the good one is what differs.
        const auto other = evaluate(w, getitemWorkspace({3, 4}, QStringLiteral("x[7]")));
        QVERIFY(other && !other->ok);
        QCOMPARE(w.outputView(0)->staleNote(), QStringLiteral("last good result of x[2]"));
    }
};

QTEST_MAIN(TestExplain)
#include "tst_explain.moc"
