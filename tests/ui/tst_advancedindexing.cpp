// SPDX-License-Identifier: GPL-3.0-or-later
// The framework selector beside the expression: with NumPy, PyTorch or JAX chosen the expression
// takes index arrays and masks, the output is that framework's result with every element's
// source lit in the input, its errors are shown in the window, and TensorFlow (the default) keeps
// its own refusal. The choice is one undo step and is saved with the workspace. The raw table
// shows only strided_slice arguments that say the subscript on show; strided_slice's own raw
// editor has the same selector.
#include "ui/editors/argtable.h"
#include "ui/editors/frameworkselector.h"
#include "ui/editors/opeditor.h"
#include "ui/editors/speceditor.h"
#include "ui/model/explain.h"
#include "ui/model/workspacefile.h"
#include "ui/workbench/decodestepper.h"
#include "ui/workbench/taborder.h"
#include "workbench_testing.h"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

Q_DECLARE_METATYPE(ss::Shape)

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

namespace {

FrameworkSelector* selector(MainWindow& w)
{
    return w.findChild<FrameworkSelector*>(QStringLiteral("frameworkSelector"));
}

// Shows the window on `ws` and waits for its first result on screen.
[[nodiscard]] bool showOn(MainWindow& w, const Workspace& ws)
{
    w.forgetSession();
    w.show();
    w.setWorkspace(ws, QStringLiteral("start"));
    return waitSettled(w);
}

// Types `expr` into the expression field as a person does (select all, then the keys).
void typeExpression(MainWindow& w, const QString& expr)
{
    SpecEditor* spec = w.specEditor();
    spec->setFocus();
    spec->selectAll();
    QTest::keyClicks(spec, expr);
}

// Chooses a framework with the keyboard: focus the selector, then Down or Up to it.
void chooseByKeyboard(MainWindow& w, Framework framework)
{
    FrameworkSelector* combo = selector(w);
    combo->setFocus();
    const int target = combo->findData(int(framework));
    while (combo->currentIndex() < target)
        QTest::keyClick(combo, Qt::Key_Down);
    while (combo->currentIndex() > target)
        QTest::keyClick(combo, Qt::Key_Up);
}

std::vector<std::int64_t> values(const Tensor& t)
{
    std::vector<std::int64_t> v;
    for (std::int64_t i = 0; i < t.size(); ++i)
        v.push_back(std::int64_t(t.doubleAt(i)));
    return v;
}

QString title(Framework framework)
{
    return QString::fromUtf8(frameworkModel(framework).title());
}

ArgTable* rawTable(MainWindow& w)
{
    return w.findChild<ArgTable*>(QStringLiteral("rawArgs"));
}

QStringList rowLabels(const ArgTableModel& model)
{
    QStringList labels;
    for (int r = 0; r < model.rowCount(); ++r)
        labels << model.headerData(r, Qt::Vertical, Qt::DisplayRole).toString();
    return labels;
}

// The raw table is in use and shows exactly `labels` (one row per subscript entry), with no
// reason over it.
[[nodiscard]] QString tableInUse(MainWindow& w, const QStringList& labels)
{
    ArgTable* table = rawTable(w);
    if (!table->unavailableReason().isEmpty())
        return QStringLiteral("unavailable: ") + table->unavailableReason();
    if (!table->view()->isEnabled()) return QStringLiteral("the table is disabled");
    if (!table->view()->accessibleDescription().isEmpty())
        return QStringLiteral("accessible description left: ") +
               table->view()->accessibleDescription();
    if (table->findChild<QLabel*>(QStringLiteral("rawArgsReason"))->isVisible())
        return QStringLiteral("the reason is on show");
    if (rowLabels(*table->model()) != labels)
        return QStringLiteral("rows ") + rowLabels(*table->model()).join(QStringLiteral(" | "));
    return {};
}

// The raw table is empty and disabled, and says why (over its cells and to accessibility).
[[nodiscard]] QString tableUnavailable(MainWindow& w, const QString& because)
{
    ArgTable* table = rawTable(w);
    const QString reason = table->unavailableReason();
    if (table->model()->rowCount() != 0)
        return QStringLiteral("rows left: ") +
               rowLabels(*table->model()).join(QStringLiteral(" | "));
    if (table->view()->isEnabled()) return QStringLiteral("the table is enabled");
    if (table->findChild<QPushButton*>(QStringLiteral("rawArgsAdd"))->isEnabled())
        return QStringLiteral("Add entry is enabled");
    if (table->findChild<QPushButton*>(QStringLiteral("rawArgsRemove"))->isEnabled())
        return QStringLiteral("Remove entry is enabled");
    if (!reason.contains(because)) return QStringLiteral("reason: ") + reason;
    const auto* label = table->findChild<QLabel*>(QStringLiteral("rawArgsReason"));
    if (!label->isVisible() || label->text() != reason)
        return QStringLiteral("the reason is not on show over the table");
    if (!table->view()->viewport()->geometry().isValid() ||
        !label->geometry().intersects(QRect(table->view()->viewport()->mapTo(table, QPoint(0, 0)),
                                            table->view()->viewport()->size())))
        return QStringLiteral("the reason is not over the cells");
    if (table->view()->accessibleDescription() != reason)
        return QStringLiteral("accessible description: ") + table->view()->accessibleDescription();
    if (!table->note().isEmpty()) return QStringLiteral("a note besides: ") + table->note();
    // No mask header counts bits of an earlier spec.
    for (int c = 3; c < table->model()->columnCount(); ++c)
        if (table->model()->mask(c) != 0) return QStringLiteral("a mask left in column %1").arg(c);
    return {};
}

Workspace stridedSliceWorkspace(const Shape& shape, const QString& expr)
{
    return switchOp(getitemWorkspace(shape, expr), *findOp("strided_slice"));
}

} // namespace

class TestAdvancedIndexing : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { useCleanTestEnvironment(); }

    void selectorIsNamedAndDefaultsToTensorFlow()
    {
        MainWindow w;
        w.forgetSession();
        w.show();
        QVERIFY(waitSettled(w));
        FrameworkSelector* combo = selector(w);
        QVERIFY(combo);
        QVERIFY(!combo->accessibleName().isEmpty());
        QCOMPARE(combo->framework(), Framework::TensorFlow);
        QCOMPARE(combo->count(), 4);
        QVERIFY(combo->focusPolicy() & Qt::TabFocus);
        QCOMPARE(w.workspace().framework, Framework::TensorFlow);
        // Tab reaches it after the expression.
        const QList<QWidget*> order = TabOrder::chain(&w);
        QVERIFY(order.contains(combo));
        QVERIFY(order.indexOf(combo) > order.indexOf(w.specEditor()));
        // Encode has no tensor to index: no selector.
        w.setWorkspace(switchOp(w.workspace(), *findOp("encode")), QStringLiteral("encode"));
        QVERIFY(waitSettled(w));
        QVERIFY(!selector(w));
    }

    // The brief's case: x[[0, 2], 1:] on arange (3, 4) typed with each framework chosen.
    void indexArraysAndASlice_data()
    {
        QTest::addColumn<int>("framework");
        QTest::newRow("NumPy") << int(Framework::NumPy);
        QTest::newRow("PyTorch") << int(Framework::PyTorch);
        QTest::newRow("JAX") << int(Framework::Jax);
    }
    void indexArraysAndASlice()
    {
        QFETCH(int, framework);
        const Framework chosen = Framework(framework);
        MainWindow w;
        QVERIFY(showOn(w, getitemWorkspace({3, 4}, QStringLiteral("x[1:, ::-1]"))));
        chooseByKeyboard(w, chosen);
        QCOMPARE(w.workspace().framework, chosen);
        typeExpression(w, QStringLiteral("x[[0, 2], 1:]"));
        QVERIFY(waitSettled(w));
        const auto shown = w.shownEvaluation();
        QVERIFY2(shown && shown->ok, qPrintable(w.message()));
        QCOMPARE(shown->framework, title(chosen));
        QVERIFY(!w.isStale());
        QCOMPARE(w.specEditor()->errorMessage(), QString());
        const Tensor& out = w.outputView(0)->model()->tensor();
        QCOMPARE(out.shape(), (Shape{2, 3}));
        QCOMPARE(values(out), (std::vector<std::int64_t>{1, 2, 3, 9, 10, 11}));
        QVERIFY2(w.outputView(0)->title().contains(title(chosen)),
                 qPrintable(w.outputView(0)->title()));
        // The input is lit in read order: row 0's columns 1..3, then row 2's.
        QCOMPARE(litInReadOrder(*w.inputView(0)->model()),
                 (std::vector<std::int64_t>{1, 2, 3, 9, 10, 11}));
        // Every output element keeps its source.
        for (std::int64_t i = 0; i < out.size(); ++i)
            QCOMPARE(shown->sources.source(0, i), packSource(0, std::int64_t(out.doubleAt(i))));
        // Hover explains which index array entry chose the element: output[1, 1] is x[2, 2].
        QVERIFY2(w.outputView(0)->elementToolTip(4).contains(
                     QStringLiteral("the index array has shape (2,); element [1] takes row "
                                    "idx0[1] = 2")),
                 qPrintable(w.outputView(0)->elementToolTip(4)));
        // The decode steps are that framework's: the broadcast and where the index axes go.
        QStringList titles;
        for (int i = 0; i < w.stepper()->stepCount(); ++i)
            titles << w.stepper()->stepTitle(i);
        QVERIFY2(titles.join(u'|').contains(QStringLiteral("Broadcast the index arrays")),
                 qPrintable(titles.join(u'|')));
        QVERIFY2(titles.join(u'|').contains(QStringLiteral("Where the index dimensions go")),
                 qPrintable(titles.join(u'|')));
    }

    // TensorFlow stays the default and keeps its exact error, in the window.
    void tensorFlowStillRefuses()
    {
        MainWindow w;
        QVERIFY(showOn(w, getitemWorkspace({3, 4}, QStringLiteral("x[1:, ::-1]"))));
        typeExpression(w, QStringLiteral("x[[0, 2], 1:]"));
        QVERIFY(waitSettled(w));
        QCOMPARE(selector(w)->framework(), Framework::TensorFlow);
        QVERIFY(!w.lastEvaluation()->ok);
        QCOMPARE(w.lastEvaluation()->code, ErrorCode::InvalidArgument);
        QVERIFY2(w.message().contains(QStringLiteral("Only integers, slices")),
                 qPrintable(w.message()));
        QVERIFY(w.lastEvaluation()->framework.isEmpty());
        // Choosing NumPy reads the same text as NumPy does, without retyping it.
        chooseByKeyboard(w, Framework::NumPy);
        QVERIFY(waitSettled(w));
        QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.message()));
        QCOMPARE(w.outputView(0)->model()->tensor().shape(), (Shape{2, 3}));
        // And back: TensorFlow's refusal again.
        chooseByKeyboard(w, Framework::TensorFlow);
        QVERIFY(waitSettled(w));
        QVERIFY(!w.lastEvaluation()->ok);
        QVERIFY(w.message().contains(QStringLiteral("Only integers, slices")));
    }

    // Two index arrays on a 3-D input, separated by a slice: the hover names both entries.
    void hoverNamesEveryIndexArray()
    {
        MainWindow w;
        Workspace ws = getitemWorkspace({2, 3, 4}, QStringLiteral("x[[1, 0], :, [3, 2]]"));
        ws.framework = Framework::NumPy;
        QVERIFY(showOn(w, ws));
        QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.message()));
        QCOMPARE(w.outputView(0)->model()->tensor().shape(), (Shape{2, 3}));
        // output[1, 2] is x[0, 2, 2] = 10.
        const QString tip = w.outputView(0)->elementToolTip(5);
        QVERIFY2(tip.contains(QStringLiteral("input[0, 2, 2]")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral(
                     "the index arrays broadcast to (2,); element [1] takes idx0[1] = 0 on axis 0 "
                     "and idx2[1] = 2 on axis 2")),
                 qPrintable(tip));
        // The index arrays are explained on hover, not listed as a result of their own.
        QVERIFY(extrasText(*w.shownEvaluation()).isEmpty());
    }

    void masks_data()
    {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<Shape>("expected"); // the values, flat
        QTest::newRow("x > 3") << "x[x > 3]" << Shape{2, 3} << Shape{4, 5};
        QTest::newRow("x <= 1, no spaces") << "x[x<=1]" << Shape{2, 3} << Shape{0, 1};
        QTest::newRow("list of bools")
            << "x[[True, False, True]]" << Shape{3, 2} << Shape{0, 1, 4, 5};
        QTest::newRow("mask, None and Ellipsis")
            << "x[None, [True, False], ...]" << Shape{2, 2} << Shape{0, 1};
    }
    void masks()
    {
        QFETCH(QString, expr);
        QFETCH(Shape, shape);
        QFETCH(Shape, expected);
        MainWindow w;
        QVERIFY(showOn(w, getitemWorkspace(shape, QStringLiteral("x[0]"))));
        chooseByKeyboard(w, Framework::NumPy);
        typeExpression(w, expr);
        QVERIFY(waitSettled(w));
        QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.message()));
        QCOMPARE(values(w.outputView(0)->model()->tensor()), expected);
        QCOMPARE(litInReadOrder(*w.inputView(0)->model()), expected);
    }

    // The framework's own error, in its own words, in the message strip; no result of another
    // reading is left on show as if it were this framework's.
    void frameworkErrorIsShown()
    {
        MainWindow w;
        QVERIFY(showOn(w, getitemWorkspace({3, 4}, QStringLiteral("x[[0, 2]]"))));
        chooseByKeyboard(w, Framework::NumPy);
        QVERIFY(waitSettled(w));
        QVERIFY(w.lastEvaluation()->ok);
        typeExpression(w, QStringLiteral("x[[0, 5]]"));
        QVERIFY(waitSettled(w));
        QVERIFY(!w.lastEvaluation()->ok);
        QVERIFY2(w.message().contains(QStringLiteral(
                     "NumPy 1.24 raises IndexError: index 5 is out of bounds for axis 0 with "
                     "size 3")),
                 qPrintable(w.message()));
        QVERIFY(!w.shownEvaluation());
        // PyTorch says it its way.
        chooseByKeyboard(w, Framework::PyTorch);
        QVERIFY(waitSettled(w));
        QVERIFY2(w.message().contains(QStringLiteral("PyTorch 1.13 raises IndexError")),
                 qPrintable(w.message()));
        // A half-typed subscript is the expression's parse error, underlined where it is.
        typeExpression(w, QStringLiteral("x[[0, 2"));
        QVERIFY(waitSettled(w));
        QCOMPARE(w.lastEvaluation()->code, ErrorCode::ParseError);
        QVERIFY(w.specEditor()->errorPosition().has_value());
    }

    // The raw table under a framework reading: a subscript strided_slice cannot say leaves no
    // row of an earlier expression on show (it said "0: 1:", "1: ::-1" for x[[0, 2], 1:]); it
    // is emptied, disabled and says why, and comes back filled when the subscript is basic.
    void rawTableSaysOnlyWhatIsTrue_data()
    {
        QTest::addColumn<int>("framework");
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QString>("because"); // what the reason says
        const QString arrays = QStringLiteral("x[[0, 2], 1:]");
        for (Framework f : {Framework::NumPy, Framework::PyTorch, Framework::Jax}) {
            const QByteArray name = title(f).toUtf8();
            QTest::newRow(name + ", index array")
                << int(f) << arrays << title(f) + QStringLiteral(" reads [0, 2] as an index array");
            QTest::newRow(name + ", comparison")
                << int(f) << QStringLiteral("x[x > 3]")
                << title(f) + QStringLiteral(" reads x > 3 as a boolean mask");
            QTest::newRow(name + ", list of bools")
                << int(f) << QStringLiteral("x[:, [True, False, True, False]]")
                << QStringLiteral("as a boolean mask");
            QTest::newRow(name + ", a list alone")
                << int(f) << QStringLiteral("x[[0, 2]]")
                << title(f) + QStringLiteral(" reads the list [0, 2] by its own rules");
        }
        QTest::newRow("TensorFlow, index array")
            << int(Framework::TensorFlow) << arrays
            << QStringLiteral("TensorFlow refuses [0, 2], an index array");
        QTest::newRow("TensorFlow, a float")
            << int(Framework::TensorFlow) << QStringLiteral("x[1.5]")
            << QStringLiteral("No strided_slice arguments say this subscript: Only integers");
    }
    void rawTableSaysOnlyWhatIsTrue()
    {
        QFETCH(int, framework);
        QFETCH(QString, expr);
        QFETCH(QString, because);
        MainWindow w;
        QVERIFY(showOn(w, getitemWorkspace({3, 4}, QStringLiteral("x[1:, ::-1]"))));
        chooseByKeyboard(w, Framework(framework));
        QVERIFY(waitSettled(w));
        const QString basic = tableInUse(w, {QStringLiteral("0: 1:"), QStringLiteral("1: ::-1")});
        QVERIFY2(basic.isEmpty(), qPrintable(basic));
        typeExpression(w, expr);
        QString problem = tableUnavailable(w, because);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(waitSettled(w));
        problem = tableUnavailable(w, because);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // Half-typed: the table stays as it was, reason and all.
        QTest::keyClick(w.specEditor(), Qt::Key_Backspace);
        problem = tableUnavailable(w, because);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // Basic again: filled and in use.
        typeExpression(w, QStringLiteral("x[1, ::2]"));
        problem = tableInUse(w, {QStringLiteral("0: 1"), QStringLiteral("1: ::2")});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(rawTable(w)->findChild<QPushButton*>(QStringLiteral("rawArgsAdd"))->isEnabled());
        QVERIFY(rawTable(w)->findChild<QPushButton*>(QStringLiteral("rawArgsRemove"))->isEnabled());
        QCOMPARE(rawTable(w)->model()->mask(7), 1); // shrink_axis_mask: entry 0 is an index
        QVERIFY(waitSettled(w));
        QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.message()));
    }

    // The reading decides, not the text: x[[0, 2]] is TensorFlow's x[0, 2] (a table of two
    // entries) and NumPy's index array (no table); switching back and forth follows, and so
    // does undo.
    void rawTableFollowsTheReading()
    {
        MainWindow w;
        QVERIFY(showOn(w, getitemWorkspace({3, 4}, QStringLiteral("x[[0, 2]]"))));
        const QStringList tuple{QStringLiteral("0: 0"), QStringLiteral("1: 2")};
        QString problem = tableInUse(w, tuple);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        chooseByKeyboard(w, Framework::NumPy);
        problem = tableUnavailable(w, QStringLiteral("reads the list [0, 2]"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(waitSettled(w));
        w.undoStack()->undo();
        QVERIFY(waitSettled(w));
        QCOMPARE(selector(w)->framework(), Framework::TensorFlow);
        problem = tableInUse(w, tuple);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        w.undoStack()->redo();
        QVERIFY(waitSettled(w));
        problem = tableUnavailable(w, QStringLiteral("NumPy 1.24 reads the list [0, 2]"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    // strided_slice's raw editor reads its arguments with the same selector: PyTorch refuses
    // the negative step of x[::-1] in its own words, NumPy reverses; one undo step per choice,
    // saved and reopened.
    void stridedSliceHasTheSelector()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MainWindow w;
        QVERIFY(showOn(w, stridedSliceWorkspace({4}, QStringLiteral("x[::-1]"))));
        QCOMPARE(w.workspace().op, std::string("strided_slice"));
        QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.message()));
        FrameworkSelector* combo = selector(w);
        QVERIFY(combo);
        QCOMPARE(combo->count(), 4);
        QCOMPARE(combo->framework(), Framework::TensorFlow);
        QVERIFY(combo->accessibleName().contains(QStringLiteral("arguments")));
        QVERIFY(combo->toolTip().contains(QStringLiteral("PyTorch refuses a negative step")));
        // Tab reaches it before the table.
        const QList<QWidget*> order = TabOrder::chain(&w);
        QVERIFY(order.contains(combo));
        QVERIFY(order.indexOf(combo) <
                order.indexOf(w.findChild<QWidget*>(QStringLiteral("rawArgsTable"))));
        const int steps = w.undoStack()->index();
        chooseByKeyboard(w, Framework::PyTorch);
        QVERIFY(waitSettled(w));
        QCOMPARE(w.workspace().framework, Framework::PyTorch);
        QVERIFY(!w.lastEvaluation()->ok);
        QVERIFY2(w.message().contains(QStringLiteral(
                     "PyTorch 1.13 raises ValueError: step must be greater than zero")),
                 qPrintable(w.message()));
        chooseByKeyboard(w, Framework::NumPy);
        QVERIFY(waitSettled(w));
        // Down past NumPy to PyTorch, then Up: three choices, three steps.
        QCOMPARE(w.undoStack()->index(), steps + 3);
        QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.message()));
        QCOMPARE(w.lastEvaluation()->framework, title(Framework::NumPy));
        QCOMPARE(values(w.outputView(0)->model()->tensor()),
                 (std::vector<std::int64_t>{3, 2, 1, 0}));
        QVERIFY(w.outputView(0)->title().contains(title(Framework::NumPy)));
        // Saved with the file, and opened as NumPy's reading.
        const QString path = dir.filePath(QStringLiteral("raw.slicescope.json"));
        QString error;
        QVERIFY2(w.saveFile(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray saved = file.readAll();
        QVERIFY2(saved.contains("\"framework\":\"numpy\""), saved.constData());
        QVERIFY(saved.contains("\"op\":\"strided_slice\""));
        w.undoStack()->undo();
        QVERIFY(waitSettled(w));
        QCOMPARE(selector(w)->framework(), Framework::PyTorch);
        QVERIFY(!w.lastEvaluation()->ok);
        w.undoStack()->undo();
        w.undoStack()->undo();
        QVERIFY(waitSettled(w));
        QCOMPARE(w.undoStack()->index(), steps);
        QCOMPARE(selector(w)->framework(), Framework::TensorFlow);
        QVERIFY(w.lastEvaluation()->ok);
        QVERIFY(w.lastEvaluation()->framework.isEmpty());
        w.files()->setSavePrompt([](const QString&) { return MainWindow::SaveChoice::Discard; });
        QVERIFY2(w.openFile(path, &error), qPrintable(error));
        QVERIFY(waitSettled(w));
        QCOMPARE(w.workspace().framework, Framework::NumPy);
        QCOMPARE(selector(w)->framework(), Framework::NumPy);
        QVERIFY(w.lastEvaluation()->ok);
        QCOMPARE(values(w.outputView(0)->model()->tensor()),
                 (std::vector<std::int64_t>{3, 2, 1, 0}));
        // TFLite's offset: false changes nothing; true is TensorFlow's alone, and the window
        // says so (not an error of another op's).
        QLineEdit* offset = w.opEditor()->attrField("offset");
        QVERIFY(offset);
        offset->setText(QStringLiteral("false"));
        QVERIFY(waitSettled(w));
        QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.message()));
        QCOMPARE(values(w.outputView(0)->model()->tensor()),
                 (std::vector<std::int64_t>{3, 2, 1, 0}));
        offset->setText(QStringLiteral("true"));
        QVERIFY(waitSettled(w));
        QVERIFY(!w.lastEvaluation()->ok);
        QVERIFY2(w.message().contains(QStringLiteral("with offset true")) &&
                     w.message().contains(QStringLiteral("read by TensorFlow alone")),
                 qPrintable(w.message()));
        // to_expr has no tensor to read: no selector.
        w.setWorkspace(switchOp(w.workspace(), *findOp("to_expr")), QStringLiteral("to_expr"));
        QVERIFY(waitSettled(w));
        QVERIFY(!selector(w));
    }

    void choiceIsAnUndoStepAndIsSaved()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MainWindow w;
        // jax.numpy refuses a list alone (a TypeError): the list sits in a tuple.
        QVERIFY(showOn(w, getitemWorkspace({3, 4}, QStringLiteral("x[[2, 0], :]"))));
        // Picked from the list (as with the mouse): one step.
        selector(w)->setCurrentIndex(selector(w)->findData(int(Framework::Jax)));
        QVERIFY(waitSettled(w));
        QCOMPARE(w.workspace().framework, Framework::Jax);
        const QString path = dir.filePath(QStringLiteral("jax.slicescope.json"));
        QString error;
        QVERIFY2(w.saveFile(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("\"framework\":\"jax\""));
        // Undo goes back to TensorFlow, and the selector shows it.
        w.undoStack()->undo();
        QVERIFY(waitSettled(w));
        QCOMPARE(w.workspace().framework, Framework::TensorFlow);
        QCOMPARE(selector(w)->framework(), Framework::TensorFlow);
        QVERIFY(!w.lastEvaluation()->ok);
        // Each choice walked through with the keyboard is a step of its own.
        chooseByKeyboard(w, Framework::PyTorch);
        QVERIFY(waitSettled(w));
        w.undoStack()->undo();
        QVERIFY(waitSettled(w));
        QCOMPARE(selector(w)->framework(), Framework::NumPy);
        QVERIFY(w.lastEvaluation()->ok);
        QCOMPARE(w.lastEvaluation()->framework, title(Framework::NumPy));
        w.files()->setSavePrompt([](const QString&) { return MainWindow::SaveChoice::Discard; });
        // The file opens as JAX's reading.
        QVERIFY2(w.openFile(path, &error), qPrintable(error));
        QVERIFY(waitSettled(w));
        QCOMPARE(w.workspace().framework, Framework::Jax);
        QCOMPARE(selector(w)->framework(), Framework::Jax);
        QVERIFY(w.lastEvaluation()->ok);
        QCOMPARE(values(w.outputView(0)->model()->tensor()),
                 (std::vector<std::int64_t>{8, 9, 10, 11, 0, 1, 2, 3}));
        // A workspace from before the selector (no "framework") opens as TensorFlow.
        const QString old = dir.filePath(QStringLiteral("old.json"));
        QFile oldFile(old);
        QVERIFY(oldFile.open(QIODevice::WriteOnly));
        oldFile.write(R"({"id":{"workspace":"slicescope"},"op":"getitem","inputs":{"input":)"
                      R"({"dtype":"int32","shape":[3,4],"fill":"arange"}},"attrs":{"expr":"x[1]"}})"
                      "\n");
        oldFile.close();
        QVERIFY2(w.openFile(old, &error), qPrintable(error));
        QVERIFY(waitSettled(w));
        QCOMPARE(w.workspace().framework, Framework::TensorFlow);
        QCOMPARE(selector(w)->framework(), Framework::TensorFlow);
    }
};

QTEST_MAIN(TestAdvancedIndexing)
#include "tst_advancedindexing.moc"
