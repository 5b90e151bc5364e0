// SPDX-License-Identifier: GPL-3.0-or-later
// Every control can be reached with the keyboard, in a sensible order: Tab from the focus widget
// goes op picker, the op's editor, the inputs, the views, the docks; Tab leaves the tables (the
// arrows move inside them); Shift+Tab walks the same way back.
#include "ui/workbench/decodestepper.h"
#include "workbench_testing.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QTest>

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

namespace {

// The name a test (and a screen reader) knows a widget by: its object name, or the nearest
// named ancestor's with the widget's class (a spin box's line edit).
QString nameOf(QWidget* w)
{
    if (!w) return QStringLiteral("<none>");
    if (!w->objectName().isEmpty()) return w->objectName();
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (!p->objectName().isEmpty())
            return p->objectName() + u'/' + QString::fromLatin1(w->metaObject()->className());
    return QString::fromLatin1(w->metaObject()->className());
}

// Presses `key` on the focus widget until the focus comes back to where it started; the names
// of the widgets it visited, in order.
QStringList walk(Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QStringList visited;
    QWidget* start = QApplication::focusWidget();
    for (int i = 0; i < 200; ++i) {
        QTest::keyClick(QApplication::focusWidget(), key, modifiers);
        QWidget* now = QApplication::focusWidget();
        if (now == start || !now) break;
        visited << nameOf(now);
    }
    return visited;
}

// Whether `names` holds `wanted` in this order (other names may come between).
bool inOrder(const QStringList& names, const QStringList& wanted, QString* missing)
{
    int from = 0;
    for (const QString& name : wanted) {
        const int at = int(names.indexOf(name, from));
        if (at < 0) {
            *missing = name;
            return false;
        }
        from = at + 1;
    }
    return true;
}

} // namespace

class TestTabOrder : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { useCleanTestEnvironment(); }
    void tabReachesEveryControl_data();
    void tabReachesEveryControl();
    void tabLeavesTheTable();
    void theKeysStartInTheOpsEditor();
};

void TestTabOrder::tabReachesEveryControl_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<QStringList>("order");
    QTest::newRow("getitem")
        << "getitem"
        << QStringList{QStringLiteral("opPicker"),          QStringLiteral("specEditor"),
                       QStringLiteral("frameworkSelector"), QStringLiteral("rawArgsTable"),
                       QStringLiteral("rawArgsAdd"),        QStringLiteral("rawArgsRemove"),
                       QStringLiteral("input0Shape"),       QStringLiteral("input0DType"),
                       QStringLiteral("input0Fill"),        QStringLiteral("faceRows"),
                       QStringLiteral("faceCols"),          QStringLiteral("canvas"),
                       QStringLiteral("lessonList"),        QStringLiteral("decodeSteps")};
    QTest::newRow("generic op")
        << "transpose" << QStringList{QStringLiteral("opPicker"),    QStringLiteral("attr_perm"),
                                      QStringLiteral("input0Shape"), QStringLiteral("input0DType"),
                                      QStringLiteral("input0Fill"),  QStringLiteral("canvas"),
                                      QStringLiteral("lessonList"),  QStringLiteral("decodeSteps")};
}

void TestTabOrder::tabReachesEveryControl()
{
    QFETCH(QString, op);
    QFETCH(QStringList, order);
    MainWindow w;
    w.forgetSession();
    Workspace ws = getitemWorkspace({2, 3, 4}, QStringLiteral("x[0, 1:, ::2]"));
    if (op != QStringLiteral("getitem")) {
        ws = switchOp(ws, *findOp(op.toStdString()), nullptr);
        ws.attrs = {{"perm", Attr::ints({1, 0})}}; // the example's input is (2, 3)
    }
    w.setWorkspace(ws, QStringLiteral("t"));
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(waitSettled(w));
    QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.lastEvaluation()->message));
    QWidget* picker = w.findChild<QWidget*>(QStringLiteral("opPicker"));
    picker->setFocus();
    QCOMPARE(QApplication::focusWidget(), picker);

    // Focus has effects of its own (a list takes a current item when it gets focus, which moves
    // the decode step): one round first, then the round that is compared.
    walk(Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), picker);
    const QStringList forward = walk(Qt::Key_Tab);
    QString missing;
    QVERIFY2(inOrder(QStringList{QStringLiteral("opPicker")} + forward, order, &missing),
             qPrintable(missing + QStringLiteral(" not in order in: ") +
                        forward.join(QStringLiteral(", "))));
    // The output view's cells come after the input view's.
    QVERIFY2(forward.count(QStringLiteral("canvas")) >= 2, qPrintable(forward.join(u',')));
    // Every widget Tab visits is visited once per round.
    for (const QString& name : forward)
        if (name != QStringLiteral("canvas") && name != QStringLiteral("faceRows") &&
            name != QStringLiteral("faceCols"))
            QVERIFY2(forward.count(name) == 1, qPrintable(name));

    // Shift+Tab walks the same round backwards.
    const QStringList backward = walk(Qt::Key_Backtab, Qt::ShiftModifier);
    QStringList reversed = backward;
    std::reverse(reversed.begin(), reversed.end());
    QVERIFY2(reversed == forward,
             qPrintable(forward.join(u',') + QStringLiteral(" / ") + reversed.join(u',')));
}

void TestTabOrder::tabLeavesTheTable()
{
    // Issue 8 item 4: Tab, Shift+Tab and Ctrl+Tab cycled inside the raw table forever.
    MainWindow w;
    w.forgetSession();
    w.setWorkspace(getitemWorkspace({4, 6}, QStringLiteral("x[1:3, ::2]")), QStringLiteral("t"));
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(waitSettled(w));
    auto* table = w.findChild<QAbstractItemView*>(QStringLiteral("rawArgsTable"));
    table->setFocus();
    table->setCurrentIndex(table->model()->index(0, 0));
    // The arrows move inside.
    QTest::keyClick(table, Qt::Key_Right);
    QCOMPARE(table->currentIndex(), table->model()->index(0, 1));
    QCOMPARE(QApplication::focusWidget(), table);
    QTest::keyClick(table, Qt::Key_Tab);
    QCOMPARE(nameOf(QApplication::focusWidget()), QStringLiteral("rawArgsAdd"));
    table->setFocus();
    QTest::keyClick(table, Qt::Key_Backtab, Qt::ShiftModifier);
    QCOMPARE(nameOf(QApplication::focusWidget()), QStringLiteral("frameworkSelector"));
    table->setFocus();
    QTest::keyClick(table, Qt::Key_Tab, Qt::ControlModifier);
    QCOMPARE(nameOf(QApplication::focusWidget()), QStringLiteral("rawArgsAdd"));
    table->setFocus();
    QTest::keyClick(table, Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(nameOf(QApplication::focusWidget()), QStringLiteral("frameworkSelector"));
}

// The window opened with the keys in the Decode steps dock (the first widget made that takes
// focus), whose focus made step 1 current before anyone asked: a first keystroke moved the steps.
void TestTabOrder::theKeysStartInTheOpsEditor()
{
    MainWindow w;
    w.forgetSession();
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[1:, ::-1]")), QStringLiteral("t"));
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(waitSettled(w));
    QCOMPARE(nameOf(QApplication::focusWidget()), QStringLiteral("specEditor"));
    QCOMPARE(w.stepper()->currentStep(), -1);
}

QTEST_MAIN(TestTabOrder)
#include "tst_taborder.moc"
