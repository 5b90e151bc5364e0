// SPDX-License-Identifier: GPL-3.0-or-later
// Nothing stale looks current: an attribute or an input's shape that does not parse greys the
// last result and says which; a cancelled evaluation greys what the status calls stale; a failed edit's decode header
// pairs shapes of one result; a lesson's decode starts at the beginning and every edit clears
// the step highlights; counts read as people write them.
#include "core/op.h"
#include "ui/editors/opeditor.h"
#include "ui/editors/speceditor.h"
#include "ui/views/plaintext.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/decodestepper.h"
#include "ui/workbench/evaluationcontroller.h"
#include "ui/workbench/mainwindow.h"
#include "workbench_testing.h"

#include <QAbstractButton>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTextBrowser>
#include <QUndoStack>

using namespace ss;
using namespace ss::ui;
using ss::testing::getitemWorkspace;
using ss::testing::waitSettled;

namespace {

Workspace opWorkspace(const char* op, Attrs attrs)
{
    Workspace ws = getitemWorkspace({3, 4}, QString());
    ws.op = op;
    ws.attrs = std::move(attrs);
    return ws;
}

QString statusState(const MainWindow& w)
{
    return w.findChild<QLabel*>(QStringLiteral("statusState"))->text();
}

QString stepShapes(const MainWindow& w)
{
    return w.stepper()->findChild<QLabel*>(QStringLiteral("stepShapes"))->accessibleName();
}

} // namespace

class TestStaleResults : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { ss::testing::useCleanTestEnvironment(); }
    void anUnreadableAttributeGreysTheResult_data();
    void anUnreadableAttributeGreysTheResult();
    void anUnreadableShapeGreysTheResult();
    void cancelGreysWhatTheStatusCallsStale();
    void aFailedShapeKeepsOneResultsShapes();
    void aLessonOpensAtTheStartOfItsDecode();
    void everyEditClearsTheStepHighlights();
    void countsReadAsPeopleWriteThem();
};

void TestStaleResults::anUnreadableAttributeGreysTheResult_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("attr");
    QTest::addColumn<QString>("good");     // the value evaluated last
    QTest::addColumn<QString>("typed");    // what does not parse
    QTest::addColumn<QString>("goneText"); // the earlier error that must go, if any
    QTest::newRow("tile") << QStringLiteral("tile") << QStringLiteral("multiples")
                          << QStringLiteral("[2, 3]") << QStringLiteral("[4, 3") << QString();
    QTest::newRow("pad after a failed value")
        << QStringLiteral("pad") << QStringLiteral("paddings")
        << QStringLiteral("[[1, 1], [-3, 2]]") << QStringLiteral("[[1, 1], [2, 2]")
        << QStringLiteral("-3");
}

// tile, multiples [2, 3], then typing `[4, 3`: the field was outlined red and nothing else said
// the (4, 9) result was no longer what the field showed.
void TestStaleResults::anUnreadableAttributeGreysTheResult()
{
    QFETCH(QString, op);
    QFETCH(QString, attr);
    QFETCH(QString, good);
    QFETCH(QString, typed);
    QFETCH(QString, goneText);
    MainWindow w;
    w.forgetSession();
    // A good result first, then the value of this row (which may fail).
    w.setWorkspace(switchOp(w.workspace(), *findOp(op.toStdString())), QStringLiteral("t"));
    w.show();
    QVERIFY(waitSettled(w));
    QVERIFY(w.lastEvaluation()->ok);
    auto* field = w.opEditor()->findChild<QLineEdit*>(QStringLiteral("attr_") + attr);
    QVERIFY(field);
    field->setText(good);
    QVERIFY(waitSettled(w));
    if (!goneText.isEmpty()) QVERIFY2(w.message().contains(goneText), qPrintable(w.message()));

    field->setText(typed);
    QVERIFY(waitSettled(w));
    QVERIFY(w.isStale());
    QCOMPARE(w.outputViewCount(), 1);
    QVERIFY(w.outputView(0)->isStale());
    QVERIFY(w.inputView(0)->isStale());
    QVERIFY2(w.outputView(0)->staleNote().startsWith(QStringLiteral("last good result of ") + op),
             qPrintable(w.outputView(0)->staleNote()));
    QVERIFY(w.stepper()->findChild<QWidget*>(QStringLiteral("stepsStale"))->isVisibleTo(&w));
    QVERIFY2(statusState(w).contains(attr + QStringLiteral(" does not parse")),
             qPrintable(statusState(w)));
    const QString message = plainText(w.message());
    QVERIFY2(message.contains(attr + QStringLiteral(" does not parse")), qPrintable(message));
    if (!goneText.isEmpty()) QVERIFY2(!message.contains(goneText), qPrintable(message));

    // Fixed: evaluated, current again.
    field->setText(typed + (typed.count(u'[') > typed.count(u']') ? QStringLiteral("]") : ""));
    QVERIFY(waitSettled(w));
    QVERIFY(w.lastEvaluation()->ok);
    QVERIFY(!w.isStale());
    QVERIFY(!w.outputView(0)->isStale());
    QVERIFY(!w.inputView(0)->isStale());
    QVERIFY2(w.message().isEmpty(), qPrintable(w.message()));
    QVERIFY(statusState(w).isEmpty());
}

// Typing `5, -1, x` into the shape field went through `5,`, which was evaluated and failed: the
// field was outlined red, but the strip kept the error of (5,) ("Index out of range using input
// dim 1"), a shape no field showed, and the status said nothing of the field.
void TestStaleResults::anUnreadableShapeGreysTheResult()
{
    MainWindow w;
    w.forgetSession();
    w.setWorkspace(getitemWorkspace({5, 6}, QStringLiteral("x[1:, ::-1]")), QStringLiteral("t"));
    w.show();
    QVERIFY(waitSettled(w));
    QVERIFY(w.lastEvaluation()->ok);
    auto* field = w.findChild<QLineEdit*>(QStringLiteral("input0Shape"));
    QVERIFY(field);
    field->setText(QStringLiteral("5,"));
    QVERIFY(waitSettled(w));
    QVERIFY(!w.lastEvaluation()->ok);
    QVERIFY2(w.message().contains(QStringLiteral("Index out of range")), qPrintable(w.message()));

    field->setText(QStringLiteral("5, -1, x"));
    QVERIFY(waitSettled(w));
    QVERIFY(w.isStale());
    QVERIFY(w.outputView(0)->isStale());
    QVERIFY2(statusState(w).contains(QStringLiteral("shape of input does not parse")),
             qPrintable(statusState(w)));
    const QString message = plainText(w.message());
    QVERIFY2(message.contains(QStringLiteral("shape of input does not parse: '5, -1, x' is not a "
                                             "shape")),
             qPrintable(message));
    QVERIFY2(!message.contains(QStringLiteral("Index out of range")), qPrintable(message));

    // Fixed: evaluated, current again.
    field->setText(QStringLiteral("4, 6"));
    QVERIFY(waitSettled(w));
    QVERIFY(w.lastEvaluation()->ok);
    QVERIFY(!w.isStale());
    QVERIFY(!w.outputView(0)->isStale());
    QVERIFY2(w.message().isEmpty(), qPrintable(w.message()));
    QVERIFY(statusState(w).isEmpty());
}

// After Cancel the status said stale and nothing was greyed.
void TestStaleResults::cancelGreysWhatTheStatusCallsStale()
{
    MainWindow w;
    w.forgetSession();
    Workspace small =
        opWorkspace("pad", {{"paddings", Attr::List{Attr::List{1, 1}, Attr::List{1, 1}}}});
    w.setWorkspace(small, QStringLiteral("t"));
    w.show();
    QVERIFY(waitSettled(w));
    QVERIFY(!w.outputView(0)->isStale());
    QSignalSpy cancelled(w.engine(), &EngineClient::cancelled);
    // As tst_workbench's cancel test: a big random pad keeps the worker busy long enough.
    Workspace big = small;
    big.inputs[0][0].shape = {10000, 10000};
    big.inputs[0][0].fill = FillKind::Random;
    w.setWorkspace(big, QStringLiteral("t"));
    w.evaluation()->evaluateNow();
    auto* cancel = w.findChild<QPushButton*>(QStringLiteral("cancelEvaluation"));
    QTRY_VERIFY_WITH_TIMEOUT(cancel->isVisible(), 5000);
    QTest::mouseClick(cancel, Qt::LeftButton);
    QVERIFY(cancelled.count() == 1 || cancelled.wait(20000));
    QVERIFY(waitSettled(w));
    QVERIFY(w.isStale());
    QVERIFY2(statusState(w).startsWith(QStringLiteral("stale")), qPrintable(statusState(w)));
    QVERIFY(w.outputView(0)->isStale());
    QVERIFY(w.stepper()->findChild<QWidget*>(QStringLiteral("stepsStale"))->isVisibleTo(&w));
    // The next edit's result is current again.
    w.setWorkspace(small, QStringLiteral("t"));
    QVERIFY(waitSettled(w));
    QVERIFY(!w.isStale());
    QVERIFY(!w.outputView(0)->isStale());
}

// A failed rank-20 shape paired the new input shape with the old output shape.
void TestStaleResults::aFailedShapeKeepsOneResultsShapes()
{
    MainWindow w;
    w.forgetSession();
    Workspace ws = getitemWorkspace({3, 4, 6}, QStringLiteral("x[1:, ::-2, 5]"));
    w.setWorkspace(ws, QStringLiteral("t"));
    w.show();
    QVERIFY(waitSettled(w));
    QVERIFY(w.lastEvaluation()->ok);
    QCOMPARE(stepShapes(w), QStringLiteral("input (3, 4, 6) → output (2, 2)"));
    ws.inputs[0][0].shape = Shape(20, 1); // index 5 is out of range in a dimension of size 1
    w.setWorkspace(ws, QStringLiteral("t"));
    QVERIFY(waitSettled(w));
    QVERIFY(!w.lastEvaluation()->ok);
    QVERIFY(w.isStale());
    QCOMPARE(stepShapes(w), QStringLiteral("input (3, 4, 6) → output (2, 2)"));
}

// From the last step of one lesson the next opened on its last step, Next disabled, the text
// saying "Press Next".
void TestStaleResults::aLessonOpensAtTheStartOfItsDecode()
{
    MainWindow w;
    w.forgetSession();
    QVERIFY(w.openLesson(QStringLiteral("walkthrough")));
    w.show();
    QVERIFY(waitSettled(w));
    QVERIFY(w.stepper()->stepCount() > 1);
    w.stepper()->last();
    w.findChild<QAbstractButton*>(QStringLiteral("nextLesson"))->click();
    QVERIFY(waitSettled(w));
    QVERIFY(w.currentLesson() != QStringLiteral("walkthrough"));
    QVERIFY(w.stepper()->stepCount() > 1);
    QCOMPARE(w.stepper()->currentStep(), -1);
    auto* next = w.stepper()->findChild<QAbstractButton*>(QStringLiteral("stepNext"));
    QVERIFY(next->isEnabled());
    QVERIFY(w.stepper()
                ->findChild<QTextBrowser*>(QStringLiteral("stepDetail"))
                ->toPlainText()
                .contains(QStringLiteral("Press Next")));
    next->click();
    QCOMPARE(w.stepper()->currentStep(), 0);
    // Reopening the lesson on show starts it again too.
    w.stepper()->last();
    QVERIFY(w.openLesson(w.currentLesson()));
    QVERIFY(waitSettled(w));
    QCOMPARE(w.stepper()->currentStep(), -1);
}

// ui/README: decode highlights are cleared by every edit. An edit that kept the number of steps
// kept the step, and its highlights came back with the result.
void TestStaleResults::everyEditClearsTheStepHighlights()
{
    MainWindow w;
    w.forgetSession();
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[1:, ::-2]")), QStringLiteral("t"));
    w.show();
    QVERIFY(waitSettled(w));
    const int steps = w.stepper()->stepCount();
    w.stepper()->setCurrentStep(0);
    QVERIFY(!w.specEditor()->litRanges().empty());
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[1:, ::-1]")), QStringLiteral("t"));
    QVERIFY(waitSettled(w));
    QCOMPARE(w.stepper()->stepCount(), steps);
    QCOMPARE(w.stepper()->currentStep(), -1);
    QVERIFY(w.specEditor()->litRanges().empty());
    QVERIFY(w.inputView(0)->focusDims().empty());
    QVERIFY(w.outputView(0)->focusDims().empty());
    // Undo is an edit too.
    w.stepper()->setCurrentStep(steps - 1);
    w.undoStack()->undo();
    QVERIFY(waitSettled(w));
    QCOMPARE(w.stepper()->currentStep(), -1);
}

// "1 entries"; "1670000 elements" where another line said "4,000".
void TestStaleResults::countsReadAsPeopleWriteThem()
{
    // The C locale (an account without LANG) leaves group separators out by default.
    QLocale::setDefault(QLocale::c());
    MainWindow w;
    w.forgetSession();
    w.setWorkspace(getitemWorkspace({1670000}, QStringLiteral("x[0]")), QStringLiteral("t"));
    w.show();
    QVERIFY(waitSettled(w));
    QVERIFY(w.lastEvaluation()->ok);
    bool found = false;
    for (const Step& step : w.lastEvaluation()->steps)
        if (step.title == "Check the arguments") {
            found = true;
            QVERIFY2(step.detail.find("1 entry in begin") != std::string::npos,
                     step.detail.c_str());
        }
    QVERIFY(found);
    const QString status = w.findChild<QLabel*>(QStringLiteral("statusShapes"))->text();
    QVERIFY2(status.contains(QStringLiteral("1,670,000 elements")), qPrintable(status));
    const QString title =
        plainText(w.inputView(0)->findChild<QLabel*>(QStringLiteral("title"))->text());
    QVERIFY2(title.contains(QStringLiteral("1,670,000 elements")), qPrintable(title));
    QLocale::setDefault(QLocale::system());
}

QTEST_MAIN(TestStaleResults)
#include "tst_staleresults.moc"
