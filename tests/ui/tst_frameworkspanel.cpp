// SPDX-License-Identifier: GPL-3.0-or-later
// The Frameworks panel: the table (x = arange(5)) as the panel lists it, differences
// marked with their reason, and a chosen framework's result (or error) shown in the window as
// its own result is, with the input lit in that framework's read order.
#include "core/frameworks/framework_comparison.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/decodestepper.h"
#include "ui/workbench/docksetup.h"
#include "ui/workbench/frameworkspanel.h"
#include "workbench_testing.h"

#include <QAction>
#include <QDockWidget>
#include <QTest>
#include <QTreeWidget>

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

namespace {

// Shows `expr` on arange(shape) and waits for the window and the panel's comparison of it.
[[nodiscard]] bool showSpec(MainWindow& w, const Shape& shape, const QString& expr)
{
    w.setWorkspace(getitemWorkspace(shape, expr), QStringLiteral("spec"));
    if (!waitSettled(w)) return false;
    FrameworksPanel* panel = w.docks()->frameworks();
    return QTest::qWaitFor(
        [&] {
            return panel->isSettled() && panel->report() &&
                   panel->report()->base == w.lastEvaluation();
        },
        20000);
}

// Chooses `framework` in the panel and waits until the window shows what it chose.
[[nodiscard]] bool chooseAndWait(MainWindow& w, Framework framework)
{
    FrameworksPanel* panel = w.docks()->frameworks();
    panel->list()->setCurrentItem(panel->list()->topLevelItem(int(framework)));
    const QString title = QString::fromUtf8(frameworkModel(framework).title());
    return QTest::qWaitFor(
        [&] {
            if (!panel->isSettled()) return false;
            const auto shown = w.shownEvaluation();
            if (framework == Framework::TensorFlow) return shown && shown->framework.isEmpty();
            // A result is shown as the framework's; an error leaves no result but says whose.
            return shown ? shown->framework == title : w.message().contains(title);
        },
        20000);
}

} // namespace

class TestFrameworksPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { useCleanTestEnvironment(); }

    // The table, row by row: every framework's shape or its error.
    void listsSixOutcomes_data()
    {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QStringList>("outcomes"); // each row's text starts so
        QTest::addColumn<QStringList>("differ");   // framework keys marked as differing
        QTest::newRow("start 4, end -6, step -1")
            << "x[4:-6:-1]"
            << QStringList{"shape (5,)", "shape (5,)", "ValueError: step must be greater than zero",
                           "shape (5,)", "shape (5,)", "shape (4,)"}
            << QStringList{"torch", "paddle"};
        QTest::newRow("start 4, end -1, step -1")
            << "x[4:-1:-1]"
            << QStringList{"shape (0,)", "shape (0,)", "ValueError: step must be greater than zero",
                           "shape (0,)", "shape (0,)", "shape (5,)"}
            << QStringList{"torch", "paddle"};
        QTest::newRow("x[7]")
            << "x[7]"
            << QStringList{"IndexError: index 7 is out of bounds for axis 0 with size 5",
                           "OutOfRangeError: slice index 7 of dimension 0 out of bounds.",
                           "IndexError: index 7 is out of bounds for dimension 0 with size 5",
                           "shape ()",
                           "ONNX: Gather: index 7 is out of bounds",
                           "not modelled: Index 7 lies outside dimension 0"}
            << QStringList{"jax", "paddle"};
    }
    void listsSixOutcomes()
    {
        QFETCH(QString, expr);
        QFETCH(QStringList, outcomes);
        QFETCH(QStringList, differ);
        MainWindow w;
        w.forgetSession();
        w.show();
        QVERIFY(showSpec(w, {5}, expr));
        FrameworksPanel* panel = w.docks()->frameworks();
        QCOMPARE(panel->list()->topLevelItemCount(), 6);
        QVERIFY2(panel->noteText().startsWith(expr), qPrintable(panel->noteText()));
        for (const FrameworkModel* model : frameworkModels()) {
            const Framework f = model->id();
            const QString text = panel->outcomeText(f);
            QVERIFY2(!text.isEmpty(), qPrintable(panel->noteText()));
            QVERIFY2(text.startsWith(outcomes[int(f)]),
                     qPrintable(QString::fromUtf8(model->key()) + QStringLiteral(": ") + text));
            const bool differs = differ.contains(QString::fromUtf8(model->key()));
            QCOMPARE(panel->isMarkedDifferent(f), differs);
            // Hovering a difference says why; a row that agrees has nothing to explain.
            QCOMPARE(panel->reasonText(f).isEmpty(), !differs);
        }
    }

    void differenceSaysWhy()
    {
        MainWindow w;
        w.forgetSession();
        w.show();
        QVERIFY(showSpec(w, {5}, QStringLiteral("x[4:-6:-1]")));
        FrameworksPanel* panel = w.docks()->frameworks();
        // The engine's one-line reason, as the compare op gives it.
        const FrameworkComparison c =
            compareFrameworks(IndexSpec::fromExpression("x[4:-6:-1]"),
                              w.lastEvaluation()->slotTensors().front(), Limits::machineDefault());
        const auto paddle = std::size_t(Framework::Paddle);
        QCOMPARE(panel->reasonText(Framework::Paddle), QString::fromStdString(c.reasons[paddle]));
        QVERIFY(panel->reasonText(Framework::Paddle).contains(u"reads 4 elements from 4 by -1"));
        QTreeWidgetItem* row = panel->list()->topLevelItem(int(Framework::Paddle));
        for (int column = 0; column < panel->list()->columnCount(); ++column)
            QCOMPARE(row->toolTip(column), panel->reasonText(Framework::Paddle));
    }

    void choosingPyTorchShowsItsError()
    {
        MainWindow w;
        w.forgetSession();
        w.show();
        QVERIFY(showSpec(w, {5}, QStringLiteral("x[::-1]")));
        QCOMPARE(w.outputViewCount(), 1);
        QVERIFY(chooseAndWait(w, Framework::PyTorch));
        QVERIFY2(w.message().contains(u"ValueError: step must be greater than zero"),
                 qPrintable(w.message()));
        QVERIFY2(w.message().contains(u"PyTorch"), qPrintable(w.message()));
        // No output is passed off as PyTorch's: TensorFlow's result is not on show, greyed or not.
        QCOMPARE(w.outputViewCount(), 0);
        QVERIFY(!w.isStale());
        // Its decode steps say where it refuses.
        const auto& steps = w.docks()
                                ->frameworks()
                                ->report()
                                ->comparison.outcomes[std::size_t(Framework::PyTorch)]
                                .plan.steps;
        QVERIFY(!steps.empty());
        QCOMPARE(w.stepper()->stepCount(), int(steps.size()));
        QCOMPARE(w.stepper()->stepTitle(0), QString::fromStdString(steps.front().title));

        // TensorFlow again: the op's own result.
        QVERIFY(chooseAndWait(w, Framework::TensorFlow));
        QVERIFY(w.message().isEmpty());
        QCOMPARE(w.outputViewCount(), 1);
        QCOMPARE(w.shownEvaluation(), w.lastEvaluation());
        QCOMPARE(litInReadOrder(*w.inputView(0)->model()),
                 (std::vector<std::int64_t>{4, 3, 2, 1, 0}));
    }

    void choosingPaddleLightsItsReads()
    {
        MainWindow w;
        w.forgetSession();
        w.show();
        QVERIFY(showSpec(w, {5}, QStringLiteral("x[4:-1:-1]")));
        // TensorFlow reads nothing here.
        QCOMPARE(w.outputView(0)->model()->tensor().size(), std::int64_t(0));
        QVERIFY(litInReadOrder(*w.inputView(0)->model()).empty());

        QVERIFY(chooseAndWait(w, Framework::Paddle));
        QVERIFY(waitSettled(w));
        QCOMPARE(w.outputViewCount(), 1);
        const Tensor& out = w.outputView(0)->model()->tensor();
        QCOMPARE(out.shape(), (Shape{5}));
        QCOMPARE(out.toInt64Vector(), (std::vector<std::int64_t>{4, 3, 2, 1, 0}));
        QVERIFY(w.outputView(0)->title().contains(u"PaddlePaddle"));
        // The five elements lit in the input, in the order Paddle reads them.
        QCOMPARE(litInReadOrder(*w.inputView(0)->model()),
                 (std::vector<std::int64_t>{4, 3, 2, 1, 0}));
        // Its decode steps are Paddle's.
        QCOMPARE(w.stepper()->stepCount(),
                 int(w.docks()
                         ->frameworks()
                         ->report()
                         ->comparison.outcomes[std::size_t(Framework::Paddle)]
                         .plan.steps.size()));

        // The choice holds across edits: the next spec is shown as Paddle reads it too.
        QVERIFY(showSpec(w, {5}, QStringLiteral("x[4:-6:-1]")));
        QVERIFY(
            QTest::qWaitFor([&] { return w.shownEvaluation()->framework.contains(u"Paddle"); }));
        QCOMPARE(w.outputView(0)->model()->tensor().toInt64Vector(),
                 (std::vector<std::int64_t>{4, 3, 2, 1}));
    }

    void otherOpsAreNotCompared()
    {
        MainWindow w;
        w.forgetSession();
        w.show();
        QVERIFY(showSpec(w, {5}, QStringLiteral("x[1:]")));
        QVERIFY(w.docks()->frameworks()->list()->isEnabled());
        Workspace ws = exampleWorkspace(*findOp("tile"));
        w.setWorkspace(ws, QStringLiteral("tile"));
        QVERIFY(waitSettled(w));
        QVERIFY(QTest::qWaitFor([&] { return !w.docks()->frameworks()->list()->isEnabled(); }));
        QVERIFY(w.docks()->frameworks()->outcomeText(Framework::NumPy).isEmpty());
        QVERIFY(w.docks()->frameworks()->noteText().contains(u"tile"));
    }

    // Hidden at first (the default layout is unchanged); View > Frameworks shows it.
    void viewMenuShowsThePanel()
    {
        MainWindow w;
        w.forgetSession();
        w.resize(1440, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("frameworksDock"));
        QVERIFY(dock);
        QVERIFY(!dock->isVisible());
        auto* action = w.findChild<QAction*>(QStringLiteral("actionFrameworks"));
        QVERIFY(action);
        action->trigger();
        QVERIFY(dock->isVisible());
        QVERIFY(w.docks()->frameworks()->isVisible());
        QVERIFY(showSpec(w, {5}, QStringLiteral("x[4:-1:-1]")));
        QVERIFY(chooseAndWait(w, Framework::Paddle));
        QVERIFY(waitSettled(w));
        // Shown, it has room for its three columns.
        QVERIFY2(w.docks()->frameworks()->width() >= 400,
                 qPrintable(QString::number(w.docks()->frameworks()->width())));
        // Hiding it (here by its close button) returns to TensorFlow's own result.
        dock->close();
        QVERIFY(!dock->isVisible());
        QVERIFY(QTest::qWaitFor([&] { return w.shownEvaluation() == w.lastEvaluation(); }));
        QCOMPARE(w.docks()->frameworks()->chosen(), Framework::TensorFlow);
        QCOMPARE(w.outputView(0)->model()->tensor().size(), std::int64_t(0));
    }

    void everyControlIsNamed()
    {
        FrameworksPanel panel;
        QVERIFY(!panel.accessibleName().isEmpty());
        for (QWidget* child : panel.findChildren<QWidget*>()) {
            if (child->parentWidget() != &panel) continue;
            QVERIFY2(!child->accessibleName().isEmpty(), child->metaObject()->className());
        }
    }
};

QTEST_MAIN(TestFrameworksPanel)
#include "tst_frameworkspanel.moc"
