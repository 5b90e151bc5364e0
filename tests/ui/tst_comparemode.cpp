// SPDX-License-Identifier: GPL-3.0-or-later
// File > Compare With Actual Output…: a wrong output (pasted values or a .npy) is diagnosed by
// the engine against the result on show; the differing cells are marked, the bar above the
// outputs gives the counts, the shape mismatch and the diagnosis, a differing cell's tooltip
// says where both values come from, an edit of the spec re-runs the diagnosis against the same
// actual output, and Stop Comparing leaves compare mode.
#include "protocol/npy.h"
#include "ui/views/palette.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/comparemode.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/outputpanel.h"
#include "workbench_testing.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace ss;
using namespace ss::ui;
using ss::testing::getitemWorkspace;
using ss::testing::waitSettled;

namespace {

std::vector<std::int64_t> marked(const TensorView* view)
{
    return view->model()->marked();
}

// The window and its comparison, settled.
[[nodiscard]] bool waitCompared(const MainWindow& w, const CompareMode* compare)
{
    return QTest::qWaitFor([&] { return w.isSettled() && compare->isSettled(); }, 20000);
}

} // namespace

class TestCompareMode : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        ss::testing::useCleanTestEnvironment();
        applyTheme(*qApp, Theme::Light);
    }

    // Pasted values whose strides were dropped: one cell matches, three are marked; the bar
    // names the class; a differing cell's tooltip says where both values were read from; an
    // edit of the spec is diagnosed against the same values; Stop Comparing clears it all.
    void pastedValuesEditAndStop()
    {
        MainWindow w;
        w.resize(1300, 900);
        w.show();
        w.setWorkspace(getitemWorkspace({8}, QStringLiteral("x[0:8:2]")), QStringLiteral("spec"));
        QVERIFY(waitSettled(w));
        auto* compare = w.findChild<CompareMode*>();
        QVERIFY(compare && !compare->isActive() && compare->isHidden());
        QVERIFY(w.findChild<QAction*>(QStringLiteral("actionCompareActual")));

        QString error;
        QVERIFY(
            compare->compareWithText(QStringLiteral("array([0, 1, 2, 3], dtype=int32)"), &error));
        QVERIFY(waitCompared(w, compare));
        QVERIFY(compare->isVisible());
        const Diagnosis* d = compare->diagnosis();
        QVERIFY(d);
        QCOMPARE(d->kind, DiagnosisClass::StridesDropped);
        QCOMPARE(marked(w.outputView(0)), (std::vector<std::int64_t>{1, 2, 3}));
        const QString summary = compare->summaryText();
        QVERIFY2(summary.contains(QStringLiteral("1 element matches, 3 differ (marked)")),
                 qPrintable(summary));
        QVERIFY2(
            summary.contains(QStringLiteral("Diagnosis (strides_dropped): strides were ignored")),
            qPrintable(summary));
        // The tooltip of a differing cell: the expected value's source and the actual's.
        const QString note = compare->elementNote(0, 2);
        QVERIFY2(note.contains(QStringLiteral("expected 4 (from x[4]), actual 2 (read from x[2])")),
                 qPrintable(note));
        QCOMPARE(compare->elementNote(0, 0), QStringLiteral("Matches the actual output."));
        // The count of differing cells is in the theme's error colour, in both themes.
        auto* counts = compare->findChild<QLabel*>(QStringLiteral("compareCounts"));
        QVERIFY(counts->text().contains(styleColor(ColorRole::Error)));
        applyTheme(*qApp, Theme::Dark);
        QVERIFY2(counts->text().contains(styleColor(ColorRole::Error)), qPrintable(counts->text()));
        applyTheme(*qApp, Theme::Light);
        QVERIFY(counts->text().contains(styleColor(ColorRole::Error)));

        // An edit of the spec: the same actual values, diagnosed again (now they are right).
        w.setWorkspace(getitemWorkspace({8}, QStringLiteral("x[:4]")), QStringLiteral("spec"));
        QVERIFY(waitCompared(w, compare));
        QVERIFY(compare->diagnosis());
        QCOMPARE(compare->diagnosis()->kind, DiagnosisClass::Equivalent);
        QVERIFY(marked(w.outputView(0)).empty());
        QVERIFY(compare->summaryText().contains(QStringLiteral("4 elements match, 0 differ")));

        // Another wrong spec, then Stop Comparing: no marks, no bar, edits are not compared.
        w.setWorkspace(getitemWorkspace({8}, QStringLiteral("x[1:5]")), QStringLiteral("spec"));
        QVERIFY(waitCompared(w, compare));
        QCOMPARE(compare->diagnosis()->kind, DiagnosisClass::BeginOffByOne);
        QCOMPARE(marked(w.outputView(0)).size(), std::size_t(4));
        QSignalSpy active(compare, &CompareMode::activeChanged);
        compare->findChild<QPushButton*>(QStringLiteral("compareStop"))->click();
        QCOMPARE(active.count(), 1);
        QVERIFY(!compare->isActive() && compare->isHidden());
        QVERIFY(marked(w.outputView(0)).empty());
        QVERIFY(compare->elementNote(0, 0).isEmpty());
        w.setWorkspace(getitemWorkspace({8}, QStringLiteral("x[2:6]")), QStringLiteral("spec"));
        QVERIFY(waitCompared(w, compare));
        QVERIFY(!compare->diagnosis());
        QVERIFY(marked(w.outputView(0)).empty());
    }

    // A .npy whose new axis is elsewhere: the shape mismatch is said in the window, nothing is
    // marked (no element lines up), the class is named.
    void npyWithAnotherShape()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("actual.npy"));
        Tensor actual = Tensor::zeros(DType::Int32, {4, 1}, Limits::machineDefault());
        for (int i = 0; i < 4; ++i)
            actual.data<std::int32_t>()[i] = i;
        writeNpyFile(path.toStdString(), actual);
        MainWindow w;
        w.resize(1300, 900);
        w.show();
        w.setWorkspace(getitemWorkspace({4}, QStringLiteral("x[None, :]")), QStringLiteral("spec"));
        QVERIFY(waitSettled(w));
        auto* compare = w.findChild<CompareMode*>();
        QString error;
        QVERIFY2(compare->compareWithFile(path, &error), qPrintable(error));
        QVERIFY(waitCompared(w, compare));
        QCOMPARE(compare->diagnosis()->kind, DiagnosisClass::NewAxisMoved);
        const QString summary = compare->summaryText();
        QVERIFY2(summary.contains(QStringLiteral("Compared with actual.npy (int32, shape (4, 1))")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral(
                     "Shape: the actual output has its axis of size 1 at position 1, not 0")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("the new axis landed at position 1, not 0")),
                 qPrintable(summary));
        QVERIFY(marked(w.outputView(0)).empty());
        QVERIFY(compare->elementNote(0, 0).contains(QStringLiteral("position 1, not 0")));
    }

    // Input that does not read is refused with a reason, and what was compared stays.
    void badActualOutputs()
    {
        MainWindow w;
        w.show();
        w.setWorkspace(getitemWorkspace({5}, QStringLiteral("x[1:]")), QStringLiteral("spec"));
        QVERIFY(waitSettled(w));
        auto* compare = w.findChild<CompareMode*>();
        QString error;
        QVERIFY(!compare->compareWithText(QStringLiteral("[1, 2"), &error));
        QVERIFY2(error.startsWith(QStringLiteral("The pasted values do not read: ")),
                 qPrintable(error));
        QVERIFY(!compare->isActive());
        QVERIFY(!compare->compareWithText(QStringLiteral("  "), &error));
        QVERIFY(compare->compareWithText(QStringLiteral("[1, 2, 3, 4]"), &error));
        QVERIFY(waitCompared(w, compare));
        QCOMPARE(compare->diagnosis()->kind, DiagnosisClass::Equivalent);
        QTemporaryDir dir;
        QVERIFY(!compare->compareWithFile(dir.filePath(QStringLiteral("missing.npy")), &error));
        QVERIFY2(error.startsWith(QStringLiteral("missing.npy does not read: ")),
                 qPrintable(error));
        QVERIFY(compare->isActive());
        QCOMPARE(compare->diagnosis()->kind, DiagnosisClass::Equivalent);
        // Values that no strided or gathered read of x gives: the sources found are listed.
        QVERIFY(compare->compareWithText(QStringLiteral("[1, 1, 1, 1]"), &error));
        QVERIFY(waitCompared(w, compare));
        QCOMPARE(compare->diagnosis()->kind, DiagnosisClass::NoSimpleSpec);
        QVERIFY2(compare->summaryText().contains(
                     QStringLiteral("it holds, in order: x[1], x[1], x[1], x[1]")),
                 qPrintable(compare->summaryText()));
    }

    // The dialog: pasted values, Compare; a paste that does not read keeps the dialog open with
    // the reason in it.
    void dialog()
    {
        MainWindow w;
        w.show();
        w.setWorkspace(getitemWorkspace({6}, QStringLiteral("x[::-1]")), QStringLiteral("spec"));
        QVERIFY(waitSettled(w));
        auto* compare = w.findChild<CompareMode*>();
        bool sawProblem = false;
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            auto* paste = dialog->findChild<QPlainTextEdit*>(QStringLiteral("comparePaste"));
            auto* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
            paste->setPlainText(QStringLiteral("[5, 4, 3"));
            ok->click();
            auto* problem = dialog->findChild<QLabel*>(QStringLiteral("compareProblem"));
            sawProblem = dialog->isVisible() && !problem->isHidden() &&
                         problem->text().contains(QStringLiteral("do not read"));
            paste->setPlainText(QStringLiteral("[0, 1, 2, 3, 4, 5]"));
            ok->click();
        });
        w.findChild<QAction*>(QStringLiteral("actionCompareActual"))->trigger();
        QVERIFY(sawProblem);
        QVERIFY(compare->isActive());
        QVERIFY(waitCompared(w, compare));
        QCOMPARE(compare->diagnosis()->kind, DiagnosisClass::SignFlipped);
        QCOMPARE(marked(w.outputView(0)).size(), std::size_t(6));
    }
};

QTEST_MAIN(TestCompareMode)
#include "tst_comparemode.moc"
