// SPDX-License-Identifier: GPL-3.0-or-later
// A slicing call pasted from code becomes the op and its arguments: pasted into the expression
// field (Ctrl+V) or read from the clipboard by Edit > Paste Call, in one undo step that keeps the
// input. A call that does not read changes nothing, marks the field where reading stopped, says
// why in the window and holds the result as stale.
#include "ui/editors/speceditor.h"
#include "ui/workbench/callpaster.h"
#include "workbench_testing.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QTest>
#include <QUndoStack>

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

class TestPasteCall : public QObject
{
    Q_OBJECT

private:
    // A window on getitem x[1:, ::-1] of a (3, 4) arange, settled.
    static void open(MainWindow& w)
    {
        w.forgetSession();
        w.show();
        w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[1:, ::-1]")),
                       QStringLiteral("start"));
        QVERIFY(waitSettled(w));
    }

    static void pasteIntoExpression(MainWindow& w, const QString& text)
    {
        SpecEditor* spec = w.specEditor();
        QVERIFY(spec);
        QGuiApplication::clipboard()->setText(text);
        spec->setFocus();
        spec->selectAll();
        QTest::keyClick(spec, Qt::Key_V, Qt::ControlModifier);
    }

private slots:
    void initTestCase() { useCleanTestEnvironment(); }

    void pastedIntoTheExpression_data()
    {
        QTest::addColumn<QString>("call");
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("attr");      // one attribute to check
        QTest::addColumn<QString>("attrValue"); // its value as a request writes it
        QTest::addColumn<QList<qint64>>("output");
        QTest::newRow("strided_slice")
            << "tf.strided_slice(x, [0, 1], [0, -1], [1, 2], begin_mask=1, end_mask=1)"
            << "strided_slice"
            << "end_mask"
            << "1" << QList<qint64>{1, 5, 9};
        QTest::newRow("gather") << "tf.gather(x, [3, 1], axis=1)"
                                << "gather"
                                << "axis"
                                << "1" << QList<qint64>{3, 1, 7, 5, 11, 9};
        QTest::newRow("narrow") << "x.narrow(0, -1, 1)"
                                << "slice"
                                << "begin"
                                << "[2, 0]" << QList<qint64>{8, 9, 10, 11};
        QTest::newRow("chained") << "x[2][::-2]"
                                 << "getitem"
                                 << "expr"
                                 << "x[2, ::-2]" << QList<qint64>{11, 9};
    }

    void pastedIntoTheExpression()
    {
        QFETCH(QString, call);
        QFETCH(QString, op);
        QFETCH(QString, attr);
        QFETCH(QString, attrValue);
        QFETCH(QList<qint64>, output);
        MainWindow w;
        open(w);
        const Workspace before = w.workspace();
        const int steps = w.undoStack()->count();
        pasteIntoExpression(w, call);
        QTRY_VERIFY(!(w.workspace() == before));
        QCOMPARE(QString::fromStdString(w.workspace().op), op);
        const Workspace& ws = w.workspace();
        // The input is kept: the call's tensor is the window's.
        QCOMPARE(ws.inputs.front().front(), before.inputs.front().front());
        const Attr& value = ws.attrs.at(attr.toStdString());
        QString text;
        if (value.isString()) {
            text = QString::fromStdString(value.toString());
        } else if (value.isInt()) {
            text = QString::number(value.toInt());
        } else {
            QStringList parts;
            for (const Attr& e : value.toList())
                parts << QString::number(e.toInt());
            text = QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
        }
        QCOMPARE(text, attrValue);
        // One undo step, and undo gives back the expression as it was.
        QCOMPARE(w.undoStack()->count(), steps + 1);
        QVERIFY(waitSettled(w));
        QVERIFY(w.message().isEmpty());
        QList<qint64> values;
        for (const std::int64_t v : w.lastEvaluation()->outputs.at(0).toInt64Vector())
            values << v;
        QCOMPARE(values, output);
        w.undoStack()->undo();
        QTRY_COMPARE(w.workspace(), before);
        QVERIFY(w.specEditor());
        QCOMPARE(w.specEditor()->text(), QStringLiteral("x[1:, ::-1]"));
    }

    void unreadableCallIsMarked()
    {
        MainWindow w;
        open(w);
        const Workspace before = w.workspace();
        const int steps = w.undoStack()->count();
        const QString call = QStringLiteral("tf.strided_slice(x, [0, 1], [2, end])");
        pasteIntoExpression(w, call);
        SpecEditor* spec = w.specEditor();
        // Nothing changes; the field marks where reading stopped; the window says why and holds
        // the result as stale.
        QCOMPARE(w.workspace(), before);
        QCOMPARE(w.undoStack()->count(), steps);
        QCOMPARE(spec->errorPosition(), std::optional<int>(int(call.indexOf("end"))));
        QVERIFY2(spec->callError().contains("unknown name 'end'"), qPrintable(spec->callError()));
        QTRY_VERIFY2(w.message().contains("unknown name 'end'"), qPrintable(w.message()));
        QTRY_VERIFY(w.isStale());
        // Typing a subscript again clears it.
        spec->selectAll();
        QTest::keyClicks(spec, QStringLiteral("x[0]"));
        QVERIFY(spec->callError().isEmpty());
        QVERIFY(waitSettled(w));
        QTRY_VERIFY(!w.isStale());
    }

    void editPasteCall()
    {
        MainWindow w;
        open(w);
        auto* action = w.findChild<QAction*>(QStringLiteral("actionPasteCall"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V));
        QGuiApplication::clipboard()->setText(QStringLiteral("np.take(x, [-1, 0], axis=1)"));
        action->trigger();
        QTRY_COMPARE(w.workspace().op, std::string("gather"));
        // NumPy's -1 is the last column: gather reads it as 3.
        QCOMPARE(w.workspace().inputs.at(1).at(0).data.toInt64Vector(),
                 (std::vector<std::int64_t>{3, 0}));
        QVERIFY(waitSettled(w));

        // What the clipboard holds that does not read: the message says where, nothing changes.
        const Workspace before = w.workspace();
        QGuiApplication::clipboard()->setText(QStringLiteral("tf.reshape(x, [4, 3])"));
        action->trigger();
        QVERIFY2(w.message().contains("does not read tf.reshape(...)"), qPrintable(w.message()));
        QVERIFY2(w.message().contains("at position 0"), qPrintable(w.message()));
        QCOMPARE(w.workspace(), before);
        QGuiApplication::clipboard()->setText(QString());
        action->trigger();
        QVERIFY2(w.message().contains("the clipboard holds no text"), qPrintable(w.message()));
    }
};

QTEST_MAIN(TestPasteCall)
#include "tst_pastecall.moc"
