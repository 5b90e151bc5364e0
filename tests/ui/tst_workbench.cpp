// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench driven as a person drives it: typing, ticking mask bits, stepping through the
// decode, hovering, undoing. Asserts state (models, highlight sets), never pixels.
#include "../engine/numpy_oracle.h"
#include "core/executor.h"
#include "core/slice_expr.h"
#include "ui/editors/argtable.h"
#include "ui/editors/inputpanel.h"
#include "ui/editors/opeditor.h"
#include "ui/editors/speceditor.h"
#include "ui/model/engineclient.h"
#include "ui/model/explain.h"
#include "ui/model/lessons.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/decodestepper.h"
#include "ui/workbench/evaluationcontroller.h"
#include "ui/workbench/mainwindow.h"
#include "workbench_testing.h"

#include <QAbstractItemModelTester>
#include <QAbstractScrollArea>
#include <QAction>
#include <QComboBox>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QToolTip>
#include <QUndoStack>
#include <qcustomplot.h>

#include <numeric>

using namespace ss;
using namespace ss::ui;
using ss::testing::getitemWorkspace;
using ss::testing::litInReadOrder;
using ss::testing::pickOp;
using ss::testing::waitSettled;

Q_DECLARE_METATYPE(ss::Shape)
Q_DECLARE_METATYPE(ss::DType)

namespace {

ArgTableModel* rawModel(MainWindow& w)
{
    auto* table = w.findChild<QTableView*>(QStringLiteral("rawArgsTable"));
    return table ? qobject_cast<ArgTableModel*>(table->model()) : nullptr;
}

QTableView* rawView(MainWindow& w)
{
    return w.findChild<QTableView*>(QStringLiteral("rawArgsTable"));
}

// Replaces the expression by typing it, as a person would (`delayMs` between keys).
void typeExpression(MainWindow& w, const QString& text, int delayMs = -1)
{
    SpecEditor* spec = w.specEditor();
    spec->setFocus();
    spec->selectAll();
    QTest::keyClick(spec, Qt::Key_Backspace);
    QTest::keyClicks(spec, text, Qt::NoModifier, delayMs);
}

// NumPy's x[expr] on arange(shape), flattened: the values, which on arange are the sources.
std::vector<std::int64_t> numpySlice(const Shape& shape, const QString& expr)
{
    QStringList dims;
    for (auto d : shape)
        dims << QString::number(d);
    const QString script =
        QStringLiteral("import numpy as np, sys\n"
                       "x = np.arange(int(np.prod([%1]))).reshape([%1])\n"
                       "print(' '.join(str(int(v)) for v in np.asarray(x%2).reshape(-1)))\n")
            .arg(dims.join(u','), expr.mid(expr.indexOf(u'[')));
    const QByteArray out = ss::testing::runNumpy(script, {});
    std::vector<std::int64_t> values;
    for (const QByteArray& v : out.trimmed().split(' '))
        if (!v.isEmpty()) values.push_back(v.toLongLong());
    return values;
}

// The getitem output of an expression, computed directly by the engine on this thread.
Tensor directOutput(const Shape& shape, const std::string& expr)
{
    Executor executor(1);
    const Tensor input = makeFilled(DType::Int32, shape, Fill::Arange, 0, Limits{});
    const OpDef& def = *findOp("getitem");
    const OpCall call(def, {{input}}, {{"expr", Attr(expr)}}, Limits{});
    const OpPlan plan = def.plan(call);
    return executePlan(plan, {input}, executor).front();
}

} // namespace

class TestWorkbench : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { ss::testing::useCleanTestEnvironment(); }

    void typedExpressionLightsItsSources_data();
    void typedExpressionLightsItsSources();
    void maskBitRewritesExpression();
    void expressionRewritesTable();
    void badExpressionKeepsLastGoodResult_data();
    void badExpressionKeepsLastGoodResult();
    void decodeStepperLightsEachStep();
    void fastTypingNeverShowsStaleResults();
    void largeTensorUsesHeatMapWithHover();
    void hoverLinksBothWays();
    void oneColourScaleForTheWholeOp();
    void coloursFitTheCellsOnScreen();
    void tooltipsExplainTheRule();
    void inputTooltipOfALargeOpWaitsForTheWorker();
    void typingIsOneUndoStep();
    void historyRecallsEarlierExpressions();
    void cellEditIsUndoable();
    void cellEditReadsTheDType_data();
    void cellEditReadsTheDType();
    void opPickerSwitchesEditors_data();
    void opPickerSwitchesEditors();
    void genericEditorReadsJsonValues();
    void listInputsGrowAndShrink();
    void sliceAndPaddleTablesEditAttributes();
    void modelsPassTheModelTester();
    void cancelKeepsTheLastResult();
};

void TestWorkbench::typedExpressionLightsItsSources_data()
{
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<QString>("expr");
    QTest::newRow("reversed rows") << Shape{3, 4} << QStringLiteral("x[::-1]");
    QTest::newRow("strided both ways") << Shape{4, 5} << QStringLiteral("x[1::2, ::-2]");
    QTest::newRow("index, new axis, range") << Shape{3, 4} << QStringLiteral("x[-1, None, 1:3]");
    QTest::newRow("ellipsis then index") << Shape{2, 3, 4} << QStringLiteral("x[..., 1]");
    QTest::newRow("empty range") << Shape{3, 4} << QStringLiteral("x[2:1]");
    QTest::newRow("scalar from vector") << Shape{5} << QStringLiteral("x[3]");
    QTest::newRow("clamped negative stride") << Shape{5} << QStringLiteral("x[100:-100:-2]");
}

void TestWorkbench::typedExpressionLightsItsSources()
{
    QFETCH(Shape, shape);
    QFETCH(QString, expr);
    MainWindow w;
    w.setWorkspace(getitemWorkspace(shape, QStringLiteral("x[...]")), QStringLiteral("test"));
    w.show();
    QVERIFY(waitSettled(w));
    typeExpression(w, expr);
    QVERIFY(waitSettled(w));

    QCOMPARE(w.specEditor()->text(), expr);
    QVERIFY(w.message().isEmpty());
    const std::vector<std::int64_t> expected = numpySlice(shape, expr);
    QCOMPARE(w.outputViewCount(), 1);
    TensorModel* out = w.outputView(0)->model();
    std::vector<std::int64_t> values;
    for (std::int64_t i = 0; i < out->tensor().size(); ++i) {
        values.push_back(out->tensor().intAt(i));
        // What the model shows is what the tensor holds.
        QCOMPARE(out->data(out->indexOfFlat(i), Qt::DisplayRole).toString(),
                 QString::number(out->tensor().intAt(i)));
    }
    QCOMPARE(values, expected);

    // The lit input cells, in read order, are exactly the engine's sources in output order.
    const auto eval = w.lastEvaluation();
    std::vector<std::int64_t> sources;
    for (std::int64_t i = 0; i < eval->sources.outputSize(0); ++i) {
        const std::int64_t s = eval->sources.source(0, i);
        QCOMPARE(sourceSlot(s), 0);
        if (std::find(sources.begin(), sources.end(), sourceIndex(s)) == sources.end())
            sources.push_back(sourceIndex(s));
    }
    QCOMPARE(litInReadOrder(*w.inputView(0)->model()), sources);
    QCOMPARE(sources, expected); // arange: each value is its own source's index
}

void TestWorkbench::maskBitRewritesExpression()
{
    MainWindow w;
    QVERIFY(w.openLesson(QStringLiteral("rows-and-steps")));
    w.show();
    QVERIFY(waitSettled(w));
    QCOMPARE(w.specEditor()->text(), QStringLiteral("x[1:, ::-2]"));
    ArgTableModel* model = rawModel(w);
    QVERIFY(model);
    QCOMPARE(model->mask(3), 2); // begin_mask: only entry 1's begin is omitted

    // Tick begin_mask for entry 0 with the keyboard, as a user of the table would.
    QTableView* view = rawView(w);
    view->setFocus();
    view->setCurrentIndex(model->index(0, 3));
    QTest::keyClick(view->viewport(), Qt::Key_Space);
    QVERIFY(waitSettled(w));
    QCOMPARE(w.specEditor()->text(), QStringLiteral("x[:, ::-2]"));
    QCOMPARE(rawModel(w)->mask(3), 3);
    QCOMPARE(w.outputView(0)->model()->tensor().shape(), (Shape{3, 2}));
    QVERIFY(rawModel(w)
                ->headerData(3, Qt::Horizontal, Qt::DisplayRole)
                .toString()
                .contains(QStringLiteral("3 = 0b11")));

    // And back: the tick undone by the undo stack restores text, table and result.
    w.undoStack()->undo();
    QVERIFY(waitSettled(w));
    QCOMPARE(w.specEditor()->text(), QStringLiteral("x[1:, ::-2]"));
    QCOMPARE(rawModel(w)->mask(3), 2);
    QCOMPARE(w.outputView(0)->model()->tensor().shape(), (Shape{2, 2}));

    // Ticking shrink on entry 0 turns its range into the index 1.
    model = rawModel(w);
    QVERIFY(model->setData(model->index(0, 7), Qt::Checked, Qt::CheckStateRole));
    QVERIFY(waitSettled(w));
    QCOMPARE(w.specEditor()->text(), QStringLiteral("x[1, ::-2]"));
    QCOMPARE(w.outputView(0)->model()->tensor().toInt64Vector(), (std::vector<std::int64_t>{7, 5}));
}

void TestWorkbench::expressionRewritesTable()
{
    MainWindow w;
    w.setWorkspace(getitemWorkspace({5, 5, 5, 5, 5, 5}, QStringLiteral("x[0]")),
                   QStringLiteral("test"));
    w.show();
    QVERIFY(waitSettled(w));
    typeExpression(w, QStringLiteral("x[1, 2:4, None, ..., :-3:-1, :]"));
    QVERIFY(waitSettled(w));
    ArgTableModel* model = rawModel(w);
    QCOMPARE(model->rowCount(), 6);
    const std::vector<ArgTableModel::Row> expected{
        {1, 2, 1, 0, 0, 0, 0, 1}, {2, 4, 1, 0, 0, 0, 0, 0},   {0, 0, 1, 0, 0, 0, 1, 0},
        {0, 0, 1, 0, 0, 1, 0, 0}, {0, -3, -1, 1, 0, 0, 0, 0}, {0, 0, 1, 1, 1, 0, 0, 0}};
    QCOMPARE(model->rows(), expected);
    // Each mask's total in decimal and binary, as the seed docs give them.
    const int masks[] = {48, 32, 8, 4, 1};
    for (int k = 0; k < 5; ++k) {
        QCOMPARE(model->mask(3 + k), masks[k]);
        QVERIFY(
            model->headerData(3 + k, Qt::Horizontal, Qt::DisplayRole)
                .toString()
                .contains(
                    QStringLiteral("%1 = 0b%2").arg(masks[k]).arg(masks[k], 6, 2, QChar(u'0'))));
    }
    QCOMPARE(w.outputView(0)->model()->tensor().shape(), (Shape{2, 1, 5, 5, 2, 5}));
    QCOMPARE(model->headerData(4, Qt::Vertical, Qt::DisplayRole).toString(),
             QStringLiteral("4: :-3:-1"));
}

void TestWorkbench::badExpressionKeepsLastGoodResult_data()
{
    QTest::addColumn<QString>("bad");
    QTest::addColumn<int>("position");
    QTest::addColumn<QString>("code");
    QTest::newRow("missing bracket")
        << QStringLiteral("x[1:, ::-2") << 10 << QStringLiteral("parse_error");
    QTest::newRow("stray character")
        << QStringLiteral("x[1, $]") << 5 << QStringLiteral("parse_error");
    QTest::newRow("float index") << QStringLiteral("x[1.5]") << 2
                                 << QStringLiteral("invalid_argument");
    // engine/protocol/README.md: a shrink index outside its dimension is out_of_range.
    QTest::newRow("index out of range")
        << QStringLiteral("x[7]") << -1 << QStringLiteral("out_of_range");
}

void TestWorkbench::badExpressionKeepsLastGoodResult()
{
    QFETCH(QString, bad);
    QFETCH(int, position);
    QFETCH(QString, code);
    MainWindow w;
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[1:, ::-2]")), QStringLiteral("test"));
    w.show();
    QVERIFY(waitSettled(w));
    const Tensor good = w.outputView(0)->model()->tensor();
    const std::vector<std::int64_t> goodLit = litInReadOrder(*w.inputView(0)->model());

    typeExpression(w, bad);
    QVERIFY(waitSettled(w));
    QVERIFY(!w.lastEvaluation()->ok);
    QCOMPARE(QString::fromLatin1(errorCodeName(w.lastEvaluation()->code).data()), code);
    if (position >= 0) {
        QCOMPARE(w.specEditor()->errorPosition(), std::optional<int>(position));
        QVERIFY(!w.specEditor()->errorMessage().isEmpty());
    } else {
        QCOMPARE(w.specEditor()->errorPosition(), std::nullopt);
    }
    QVERIFY(w.message().contains(code));
    // The last good result stays, marked stale, with its selection.
    QVERIFY(w.isStale());
    QVERIFY(w.outputView(0)->model()->tensor().identical(good));
    QCOMPARE(litInReadOrder(*w.inputView(0)->model()), goodLit);
    QVERIFY(w.stepper()->findChild<QWidget*>(QStringLiteral("stepsStale"))->isVisible());

    // Fixing it clears the error and the stale mark.
    typeExpression(w, QStringLiteral("x[0]"));
    QVERIFY(waitSettled(w));
    QVERIFY(!w.isStale());
    QVERIFY(w.message().isEmpty());
    QCOMPARE(w.specEditor()->errorPosition(), std::nullopt);
    QCOMPARE(w.outputView(0)->model()->tensor().shape(), (Shape{4}));
}

void TestWorkbench::decodeStepperLightsEachStep()
{
    MainWindow w;
    QVERIFY(w.openLesson(QStringLiteral("walkthrough")));
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(waitSettled(w));
    w.specEditor()->setFocus();
    DecodeStepper* stepper = w.stepper();
    const QStringList titles{QStringLiteral("Entry 0: 1"),
                             QStringLiteral("Entry 1: 2:4"),
                             QStringLiteral("Entry 2: None"),
                             QStringLiteral("Entry 3: ..."),
                             QStringLiteral("Entry 4: :-3:-1"),
                             QStringLiteral("Entry 5: :"),
                             QStringLiteral("Encode the subscript"),
                             QStringLiteral("Check the arguments"),
                             QStringLiteral("Ellipsis"),
                             QStringLiteral("Sparse to dense"),
                             QStringLiteral("Dimension 0"),
                             QStringLiteral("Dimension 1"),
                             QStringLiteral("Dimension 2"),
                             QStringLiteral("Dimension 3"),
                             QStringLiteral("Dimension 4"),
                             QStringLiteral("Dimension 5"),
                             QStringLiteral("Processing shape"),
                             QStringLiteral("Final shape"),
                             QStringLiteral("Read the elements")};
    QCOMPARE(stepper->stepCount(), int(titles.size()));
    QCOMPARE(stepper->currentStep(), -1);
    QVERIFY(w.specEditor()->litRanges().empty());

    // What each step lights: spec text ranges, input dims, output dims.
    using Ranges = std::vector<SpecEditor::Range>;
    struct Lit
    {
        Ranges spec;
        std::vector<int> in;
        std::vector<int> out;
    };
    const QString expr = w.specEditor()->text();
    auto rangeOf = [&](const QString& token, int from = 0) {
        const int at = int(expr.indexOf(token, from));
        return SpecEditor::Range{at, at + int(token.size())};
    };
    std::map<QString, Lit> expectations{
        {QStringLiteral("Entry 1: 2:4"), {{rangeOf(QStringLiteral("2:4"))}, {}, {}}},
        {QStringLiteral("Entry 4: :-3:-1"), {{rangeOf(QStringLiteral(":-3:-1"))}, {}, {}}},
        {QStringLiteral("Dimension 0"), {{rangeOf(QStringLiteral("1"))}, {0}, {}}},
        {QStringLiteral("Dimension 3"), {{rangeOf(QStringLiteral("..."))}, {3}, {}}},
        {QStringLiteral("Dimension 4"), {{rangeOf(QStringLiteral(":-3:-1"))}, {4}, {}}},
        {QStringLiteral("Final shape"), {{}, {}, {0, 1, 2, 3, 4, 5}}},
    };
    for (int k = 0; k < titles.size(); ++k) {
        QTest::keyClick(w.specEditor(), Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(stepper->currentStep(), k);
        QCOMPARE(stepper->stepTitle(k), titles[k]);
        const auto it = expectations.find(titles[k]);
        if (it == expectations.end()) continue;
        QCOMPARE(w.specEditor()->litRanges(), it->second.spec);
        QCOMPARE(w.inputView(0)->focusDims(), it->second.in);
        QCOMPARE(w.outputView(0)->focusDims(), it->second.out);
        std::vector<int> rows;
        for (const auto& [b, e] : it->second.spec)
            for (int entry = 0; entry < 6; ++entry)
                if (w.lastEvaluation()->decode->spec[std::size_t(entry)].textBegin == b)
                    rows.push_back(entry);
        QCOMPARE(rawModel(w)->litRows(), rows);
        if (titles[k] == QLatin1String("Dimension 4")) // for people to look at
            QVERIFY(w.grab().save(QStringLiteral("decode-dimension-4.png")));
    }
    QTest::keyClick(w.specEditor(), Qt::Key_Right, Qt::AltModifier); // past the end: stays
    QCOMPARE(stepper->currentStep(), int(titles.size()) - 1);
    QTest::keyClick(w.specEditor(), Qt::Key_Home, Qt::AltModifier);
    QCOMPARE(stepper->currentStep(), 0);
    QTest::keyClick(w.specEditor(), Qt::Key_End, Qt::AltModifier);
    QCOMPARE(stepper->currentStep(), int(titles.size()) - 1);
    QTest::keyClick(w.specEditor(), Qt::Key_Left, Qt::AltModifier);
    QCOMPARE(stepper->currentStep(), int(titles.size()) - 2);
}

void TestWorkbench::fastTypingNeverShowsStaleResults()
{
    const Shape shape{1000, 1000};
    MainWindow w;
    w.setWorkspace(getitemWorkspace(shape, QStringLiteral("x[...]")), QStringLiteral("test"));
    w.show();
    QVERIFY(waitSettled(w));
    // Every result that reaches the screen must belong to the text shown at that moment.
    std::vector<std::pair<QString, Tensor>> shown;
    connect(&w, &MainWindow::evaluationShown, this, [&] {
        if (w.lastEvaluation()->ok)
            shown.emplace_back(w.specEditor()->text(), w.outputView(0)->model()->tensor());
    });
    typeExpression(w, QStringLiteral("x[1:900:3, ::-7]"), 15);
    QVERIFY(waitSettled(w));
    QVERIFY(!shown.empty());
    QCOMPARE(shown.back().first, QStringLiteral("x[1:900:3, ::-7]"));
    for (const auto& [text, output] : shown)
        QVERIFY2(output.identical(directOutput(shape, text.toStdString())), qPrintable(text));
    // Far fewer evaluations reach the screen than keys were typed.
    QVERIFY(shown.size() < 16);
}

void TestWorkbench::largeTensorUsesHeatMapWithHover()
{
    MainWindow w;
    w.setWorkspace(getitemWorkspace({1500, 1200}, QStringLiteral("x[::-1, 100:300]")),
                   QStringLiteral("test"));
    w.show();
    QVERIFY(waitSettled(w, 60000));
    TensorView* out = w.outputView(0);
    QVERIFY(out->isHeatMap());
    QVERIFY(w.inputView(0)->isHeatMap());
    // A heat map shows a whole face at once: its colours span the whole op.
    QVERIFY(!out->fittedScale() && !w.inputView(0)->fittedScale());
    const auto eval = w.lastEvaluation();
    // 1500 rows share a few hundred pixels: hover the elements that own the pixels at a third
    // and at two thirds of the map.
    QWidget* viewport = out->viewport();
    const QRect map = out->findChild<QCustomPlot*>(QStringLiteral("heatMap"))->axisRect()->rect();
    for (const double share : {1.0 / 3, 2.0 / 3}) {
        const QPoint probe = viewport->mapTo(
            out, map.topLeft() + QPoint(int(map.width() * share), int(map.height() * share)));
        const std::int64_t flat = out->elementAt(probe);
        QVERIFY(flat >= 0);
        const QPoint at = out->elementRect(flat).center();
        QCOMPARE(out->elementAt(at), flat);
        QSignalSpy hovered(out, &TensorView::elementHovered);
        QTest::mouseMove(viewport, viewport->mapFrom(out, at));
        QCOMPARE(hovered.count(), 1);
        QCOMPARE(hovered.front().front().toLongLong(), flat);
        const std::int64_t source = sourceIndex(eval->sources.source(0, flat));
        // The source of output[r, c] is input[1499 - r, 100 + c].
        QCOMPARE(source, (1499 - flat / 200) * 1200 + 100 + flat % 200);
        TensorModel* in = w.inputView(0)->model();
        QTRY_VERIFY(in->data(in->indexOfFlat(source), TensorModel::OutlinedRole).toBool());
        QVERIFY(!in->data(in->indexOfFlat(source + 1), TensorModel::OutlinedRole).toBool());
        // The tooltip names the same two elements.
        const QString tip = explainOutputElement(*findOp("getitem"), *eval, 0, flat);
        QVERIFY2(tip.contains(
                     QStringLiteral("input[%1, %2]").arg(1499 - flat / 200).arg(100 + flat % 200)),
                 qPrintable(tip));
    }
}

void TestWorkbench::hoverLinksBothWays()
{
    MainWindow w;
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[1:, ::-2]")), QStringLiteral("test"));
    w.show();
    QVERIFY(waitSettled(w));
    TensorView* out = w.outputView(0);
    TensorView* in = w.inputView(0);
    // output[0, 0] is input[1, 3]: outlined when the output cell is hovered.
    QTest::mouseMove(out->viewport(), out->viewport()->mapFrom(out, out->elementRect(0).center()));
    QTRY_COMPARE(ss::testing::outlined(*in->model()), (std::vector<std::int64_t>{7}));
    // input[2, 1] went to output[1, 1].
    QTest::mouseMove(in->viewport(), in->viewport()->mapFrom(in, in->elementRect(9).center()));
    QTRY_COMPARE(ss::testing::outlined(*out->model()), (std::vector<std::int64_t>{3}));
    // An element that is not read outlines nothing.
    QTest::mouseMove(in->viewport(), in->viewport()->mapFrom(in, in->elementRect(0).center()));
    QTRY_VERIFY(ss::testing::outlined(*out->model()).empty());
}

void TestWorkbench::oneColourScaleForTheWholeOp()
{
    // dynamic_stitch reads three data tensors: their elements are counted in one sequence over
    // the whole op, every view's ramp ends at the op's last read, and an output cell has exactly
    // the position (so the colour) of the input cell it came from.
    MainWindow w;
    QVERIFY(w.openLesson(QStringLiteral("erratum-dynamic-stitch")));
    w.show();
    QVERIFY(waitSettled(w));
    const auto eval = w.shownEvaluation();
    QVERIFY(eval && eval->ok);
    QCOMPARE(eval->lastRead, 13); // 7 rows of 2, each read once
    std::vector<std::int64_t> positions;
    int selectedViews = 0;
    for (int slot = 0; slot < int(eval->readOrders.size()); ++slot) {
        TensorView* view = w.inputView(slot);
        const TensorModel& model = *view->model();
        bool selected = false;
        for (std::int64_t i = 0; i < model.tensor().size(); ++i) {
            const qint64 order =
                model.data(model.indexOfFlat(i), TensorModel::ReadOrderRole).toLongLong();
            if (order >= 0) positions.push_back(order);
            selected = selected || order >= 0;
        }
        if (selected) {
            ++selectedViews;
            QCOMPARE(view->readOrderScaleEnd(), eval->lastRead);
        } else {
            QCOMPARE(view->readOrderScaleEnd(), -1);
        }
    }
    QCOMPARE(selectedViews, 3); // data[0], data[1], data[2]; the indices are not copied
    // The decode panel names the first input and the output as the views do.
    QCOMPARE(w.findChild<QLabel*>(QStringLiteral("stepShapes"))->text(),
             QStringLiteral("indices[0] () → output (7, 2)"));
    std::sort(positions.begin(), positions.end());
    std::vector<std::int64_t> all(14);
    std::iota(all.begin(), all.end(), 0);
    QCOMPARE(positions, all);
    TensorView* out = w.outputView(0);
    QCOMPARE(out->readOrderScaleEnd(), eval->lastRead);
    for (std::int64_t i = 0; i < eval->sources.outputSize(0); ++i) {
        const std::int64_t s = eval->sources.source(0, i);
        const TensorModel& in = *w.inputView(sourceSlot(s))->model();
        const QModelIndex from = in.indexOfFlat(sourceIndex(s));
        QCOMPARE(out->model()->data(out->model()->indexOfFlat(i), TensorModel::ReadOrderRole),
                 in.data(from, TensorModel::ReadOrderRole));
    }
}

void TestWorkbench::coloursFitTheCellsOnScreen()
{
    // The walk-through reads 500 elements and shows about 40 of them at first: the ramp runs
    // over the read positions on screen, in the input and the output together.
    MainWindow w;
    QVERIFY(w.openLesson(QStringLiteral("walkthrough")));
    w.resize(1440, 900);
    w.show();
    QVERIFY(waitSettled(w));
    auto* fit = w.findChild<QAction*>(QStringLiteral("actionFitColours"));
    QVERIFY(fit && fit->isChecked());
    const std::int64_t lastRead = w.shownEvaluation()->lastRead;
    QCOMPARE(lastRead, 499);
    const std::vector<TensorView*> views{w.inputView(0), w.outputView(0)};
    const auto onScreen = [&] {
        std::pair<std::int64_t, std::int64_t> range{INT64_MAX, -1};
        for (const TensorView* view : views)
            for (std::int64_t i = 0; i < view->model()->tensor().size(); ++i) {
                const std::int64_t order = view->model()->readOrderAt(i);
                if (order < 0 || view->elementRect(i).isNull()) continue;
                range = {std::min(range.first, order), std::max(range.second, order)};
            }
        return range;
    };
    const auto first = onScreen();
    QCOMPARE(first.first, 0);
    QVERIFY(first.second > 0 && first.second < lastRead);
    for (const TensorView* view : views)
        QCOMPARE(view->fittedScale(), std::optional(first));
    auto* legend = w.outputView(0)->findChild<QWidget*>(QStringLiteral("legend"));
    QVERIFY(legend->toolTip().contains(QStringLiteral("fitted")));

    // Both views scrolled to their ends show later reads, the output's last among them: the
    // ramp follows.
    for (const TensorView* view : views) {
        auto* area = qobject_cast<QAbstractScrollArea*>(view->viewport()->parentWidget());
        QVERIFY(area);
        for (QScrollBar* bar : {area->horizontalScrollBar(), area->verticalScrollBar()})
            bar->setValue(bar->maximum());
    }
    QVERIFY(waitSettled(w));
    const auto scrolled = onScreen();
    QCOMPARE(scrolled.second, lastRead);
    QVERIFY(scrolled.first > first.second);
    for (const TensorView* view : views)
        QCOMPARE(view->fittedScale(), std::optional(scrolled));

    // Off: every ramp runs over the whole op again.
    fit->setChecked(false);
    for (const TensorView* view : views)
        QVERIFY(!view->fittedScale());
    QVERIFY(!legend->toolTip().contains(QStringLiteral("fitted")));
    fit->setChecked(true);
    QCOMPARE(w.outputView(0)->fittedScale(), std::optional(scrolled));

    // concat of six 30 x 30 tensors: the input views stack in a scroll area, and the output
    // shows its first rows. A view scrolled out of the scroll area does not count, and
    // scrolling it refits.
    Workspace cat;
    cat.op = "concat";
    cat.attrs = {{"axis", Attr(std::int64_t(0))}};
    InputSource block;
    block.shape = {30, 30};
    cat.inputs = {{block, block, block, block, block, block}};
    w.setWorkspace(cat, QStringLiteral("test"));
    w.resize(1000, 700);
    QVERIFY(waitSettled(w));
    auto* inputScroll = w.findChild<QAbstractScrollArea*>(QStringLiteral("inputScroll"));
    QVERIFY(inputScroll && inputScroll->verticalScrollBar()->maximum() > 0);
    const auto onScreenNow = [&] {
        std::optional<std::pair<std::int64_t, std::int64_t>> range;
        std::vector<TensorView*> all{w.outputView(0)};
        for (int slot = 0; w.inputView(slot); ++slot)
            all.push_back(w.inputView(slot));
        for (TensorView* view : all)
            for (std::int64_t i = 0; i < view->model()->tensor().size(); ++i) {
                const std::int64_t order = view->model()->readOrderAt(i);
                const QRect rect = view->elementRect(i);
                if (order < 0 || rect.isNull() || !view->visibleRegion().intersects(rect)) continue;
                range =
                    range ? std::pair(std::min(range->first, order), std::max(range->second, order))
                          : std::pair(order, order);
            }
        return range;
    };
    for (const int value : {0, inputScroll->verticalScrollBar()->maximum()}) {
        inputScroll->verticalScrollBar()->setValue(value);
        QVERIFY(waitSettled(w));
        // At the top, the last input (read last) is out of sight; at the bottom, in sight.
        QCOMPARE(w.inputView(5)->visibleRegion().isEmpty(), value == 0);
        const auto shown = onScreenNow();
        QVERIFY(shown && shown->second < w.shownEvaluation()->lastRead);
        QCOMPARE(w.outputView(0)->fittedScale(), shown);
    }
}

void TestWorkbench::tooltipsExplainTheRule()
{
    MainWindow w;
    QVERIFY(w.openLesson(QStringLiteral("walkthrough")));
    QVERIFY(waitSettled(w));
    const auto eval = w.shownEvaluation();
    const OpDef& getitem = *findOp("getitem");
    // output[0, 0, 0, 0, 1, 0]: the second element entry 4 reads, input dimension 4 running 4, 3.
    const std::int64_t flat = ravelIndex({0, 0, 0, 0, 1, 0}, eval->outputs.front().shape());
    const QString out = explainOutputElement(getitem, *eval, 0, flat);
    QVERIFY2(out.contains(QStringLiteral(
                 "<b>output[0, 0, 0, 0, 1, 0]</b> comes from <b>input[1, 2, 0, 0, 3, 0]</b>")),
             qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral(
                 "dim 0 = 1: index 1 selects one element; the dimension is removed")),
             qPrintable(out));
    QVERIFY2(
        out.contains(QStringLiteral(
            "dim 4 = 3: runs 4, 3 (output dim 4, position 1) — begin_mask set: begin becomes 4 "
            "(the last index, because the stride is negative)")),
        qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("output dim 1: a new axis (None), always 0")),
             qPrintable(out));
    // The other way: where an input element went, and when it was read.
    const std::int64_t source = ravelIndex({1, 2, 0, 0, 3, 0}, eval->inputs[0][0].shape());
    const QString in =
        explainInputElement(getitem, *eval, 0, source, findTargets(*eval, 0, source));
    QVERIFY2(in.contains(QStringLiteral(
                 "<b>input[1, 2, 0, 0, 3, 0]</b> is read 6th, copied to output[0, 0, 0, 0, 1, 0]")),
             qPrintable(in));
    const QString unread = explainInputElement(getitem, *eval, 0, 0, findTargets(*eval, 0, 0));
    QVERIFY2(unread.contains(QStringLiteral("is not read")), qPrintable(unread));
}

void TestWorkbench::inputTooltipOfALargeOpWaitsForTheWorker()
{
    // 1.1 million outputs: finding where an input element went is a worker's job. A tooltip on an
    // element that is not the hovered one says when it is read, without scanning on the GUI
    // thread; once hovered, the worker's answer fills in where it was copied.
    MainWindow w;
    // A gather of every column by its index, last first: 1.1 million rows of one element to scan.
    Workspace gathered = getitemWorkspace({1100, 1000}, QStringLiteral("x[::-1]"));
    gathered.op = "gather";
    gathered.attrs = {{"axis", Attr(std::int64_t(1))}};
    std::vector<std::int64_t> columns;
    for (std::int64_t c = 999; c >= 0; --c)
        columns.push_back(c);
    gathered.inputs.push_back({dataSource(Tensor::fromInts(DType::Int32, {1000}, columns))});
    w.setWorkspace(gathered, QStringLiteral("test"));
    w.resize(1440, 900);
    w.show();
    QVERIFY(waitSettled(w, 60000));
    TensorView* in = w.inputView(0);
    QVERIFY(in->isHeatMap());
    QWidget* viewport = in->viewport();
    const QPoint local = viewport->rect().center();
    const std::int64_t flat = in->elementAt(viewport->mapTo(in, local));
    QVERIFY(flat >= 0);
    const auto tooltip = [&] {
        QHelpEvent help(QEvent::ToolTip, local, viewport->mapToGlobal(local));
        QCoreApplication::sendEvent(viewport, &help);
        return QToolTip::text();
    };
    // A gather's targets come from a scan of its rows (a pad's, a slice's, a boolean_mask's, and
    // a gather's of rows in order from the plan at once).
    const QString before = tooltip();
    QVERIFY2(before.contains(QStringLiteral("is read")) &&
                 !before.contains(QStringLiteral("copied to")),
             qPrintable(before));
    QToolTip::hideText();
    QTest::mouseMove(viewport, local);
    QTRY_VERIFY2(tooltip().contains(QStringLiteral("copied to output[")), qPrintable(tooltip()));
}

void TestWorkbench::typingIsOneUndoStep()
{
    MainWindow w;
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[0]")), QStringLiteral("test"));
    w.show();
    QVERIFY(waitSettled(w));
    const int before = w.undoStack()->index();
    typeExpression(w, QStringLiteral("x[::-1, 1]"));
    QVERIFY(waitSettled(w));
    QCOMPARE(w.undoStack()->index(), before + 1);
    // Ctrl+Z in the expression goes to the window's stack, not to the line edit's own.
    QTest::keyClick(w.specEditor(), Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(waitSettled(w));
    QCOMPARE(w.specEditor()->text(), QStringLiteral("x[0]"));
    QCOMPARE(w.outputView(0)->model()->tensor().shape(), (Shape{4}));
    w.undoStack()->redo();
    QVERIFY(waitSettled(w));
    QCOMPARE(w.specEditor()->text(), QStringLiteral("x[::-1, 1]"));
    QCOMPARE(w.outputView(0)->model()->tensor().shape(), (Shape{3}));
}

void TestWorkbench::historyRecallsEarlierExpressions()
{
    MainWindow w;
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[0]")), QStringLiteral("test"));
    w.show();
    QVERIFY(waitSettled(w));
    SpecEditor* spec = w.specEditor();
    for (const QString& expr :
         {QStringLiteral("x[1]"), QStringLiteral("x[::-1]"), QStringLiteral("x[1:")}) {
        typeExpression(w, expr);
        QVERIFY(waitSettled(w));
        QTest::keyClick(spec, Qt::Key_Return); // a finished line goes into the history if it worked
    }
    QCOMPARE(spec->history().mid(spec->history().size() - 2),
             (QStringList{QStringLiteral("x[1]"), QStringLiteral("x[::-1]")}));
    QVERIFY(!spec->history().contains(QStringLiteral("x[1:")));
    QTest::keyClick(spec, Qt::Key_Up);
    QCOMPARE(spec->text(), QStringLiteral("x[::-1]"));
    QTest::keyClick(spec, Qt::Key_Up);
    QCOMPARE(spec->text(), QStringLiteral("x[1]"));
    QTest::keyClick(spec, Qt::Key_Down);
    QTest::keyClick(spec, Qt::Key_Down);
    QCOMPARE(spec->text(), QStringLiteral("x[1:")); // back to the unfinished line
    // A recalled line is an edit like any other: it is evaluated.
    QTest::keyClick(spec, Qt::Key_Up);
    QVERIFY(waitSettled(w));
    QCOMPARE(w.outputView(0)->model()->tensor().shape(), (Shape{3, 4}));
}

void TestWorkbench::cellEditIsUndoable()
{
    MainWindow w;
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[1]")), QStringLiteral("test"));
    w.show();
    QVERIFY(waitSettled(w));
    TensorModel* in = w.inputView(0)->model();
    QVERIFY(in->setData(in->indexOfFlat(5), QStringLiteral("-42"), Qt::EditRole));
    QVERIFY(waitSettled(w));
    QCOMPARE(w.workspace().inputs[0][0].fill, FillKind::Data);
    QCOMPARE(w.outputView(0)->model()->tensor().intAt(1), -42);
    QCOMPARE(w.inputView(0)->model()->tensor().intAt(5), -42);
    // A value the dtype cannot hold is refused with a message and changes nothing.
    in = w.inputView(0)->model();
    in->setData(in->indexOfFlat(6), QStringLiteral("1.5"), Qt::EditRole);
    QVERIFY(waitSettled(w));
    QVERIFY(w.message().contains(QStringLiteral("int32")));
    QCOMPARE(w.outputView(0)->model()->tensor().intAt(2), 6);
    w.undoStack()->undo();
    QVERIFY(waitSettled(w));
    QCOMPARE(w.workspace().inputs[0][0].fill, FillKind::Arange);
    QCOMPARE(w.outputView(0)->model()->tensor().intAt(1), 5);
}

void TestWorkbench::cellEditReadsTheDType_data()
{
    QTest::addColumn<DType>("dtype");
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QString>("edited");  // the cell's edit text afterwards; empty: refused
    QTest::addColumn<QString>("message"); // in the message strip when refused
    QTest::newRow("float16") << DType::Float16 << "0.1"
                             << "0.1"
                             << "";
    QTest::newRow("float16 nan") << DType::Float16 << "nan"
                                 << "nan"
                                 << "";
    QTest::newRow("float16 out of range") << DType::Float16 << "70000"
                                          << ""
                                          << "70000 is out of range for float16 (largest 65504)";
    QTest::newRow("bfloat16") << DType::BFloat16 << "-1.1"
                              << "-1.1"
                              << "";
    QTest::newRow("complex64") << DType::Complex64 << "1.5-2j"
                               << "1.5-2j"
                               << "";
    QTest::newRow("complex64 in parentheses") << DType::Complex64 << "(3+4j)"
                                              << "3+4j"
                                              << "";
    QTest::newRow("complex64 imaginary") << DType::Complex64 << "-2.5j"
                                         << "0-2.5j"
                                         << "";
    QTest::newRow("complex128 pair") << DType::Complex128 << "[1e300, -1]"
                                     << "1e+300-1j"
                                     << "";
    QTest::newRow("complex64 out of range") << DType::Complex64 << "1e300+1j"
                                            << ""
                                            << "out of range for complex64";
    QTest::newRow("complex malformed") << DType::Complex128 << "1+2i"
                                       << ""
                                       << "a complex128 value is written a+bj";
    QTest::newRow("uint64 above int64") << DType::UInt64 << "18446744073709551615"
                                        << "18446744073709551615"
                                        << "";
    QTest::newRow("uint16 negative") << DType::UInt16 << "-1"
                                     << ""
                                     << "out of range for uint16";
}

// A typed value is read as the input's dtype, shown in the input and, sliced by the engine, in
// the output; a value the dtype cannot hold is refused with a message and changes nothing.
void TestWorkbench::cellEditReadsTheDType()
{
    QFETCH(DType, dtype);
    QFETCH(QString, typed);
    QFETCH(QString, edited);
    QFETCH(QString, message);
    MainWindow w;
    w.setWorkspace(getitemWorkspace({2, 3}, QStringLiteral("x[::-1]"), dtype),
                   QStringLiteral("test"));
    w.show();
    QVERIFY(waitSettled(w));
    TensorModel* in = w.inputView(0)->model();
    const QString before = in->indexOfFlat(4).data(Qt::EditRole).toString();
    QVERIFY(in->setData(in->indexOfFlat(4), typed, Qt::EditRole));
    QVERIFY(waitSettled(w));
    in = w.inputView(0)->model();
    // x[::-1] of (2, 3) puts input element [1, 1] (flat 4) at output [0, 1] (flat 1).
    const TensorModel* out = w.outputView(0)->model();
    QCOMPARE(out->tensor().dtype(), dtype);
    if (edited.isEmpty()) {
        QVERIFY2(w.message().contains(message), qPrintable(w.message()));
        QCOMPARE(in->indexOfFlat(4).data(Qt::EditRole).toString(), before);
        QCOMPARE(out->indexOfFlat(1).data(Qt::EditRole).toString(), before);
    } else {
        QCOMPARE(in->indexOfFlat(4).data(Qt::EditRole).toString(), edited);
        QCOMPARE(out->indexOfFlat(1).data(Qt::EditRole).toString(), edited);
    }
}

void TestWorkbench::opPickerSwitchesEditors_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("editor");
    QTest::newRow("strided_slice")
        << QStringLiteral("strided_slice") << QStringLiteral("rawSliceEditor");
    QTest::newRow("slice") << QStringLiteral("slice") << QStringLiteral("sliceEditor");
    QTest::newRow("paddle") << QStringLiteral("paddle_strided_slice")
                            << QStringLiteral("paddleEditor");
    QTest::newRow("to_expr") << QStringLiteral("to_expr") << QStringLiteral("rawSliceEditor");
    QTest::newRow("encode") << QStringLiteral("encode") << QStringLiteral("exprEditor");
}

void TestWorkbench::opPickerSwitchesEditors()
{
    QFETCH(QString, op);
    QFETCH(QString, editor);
    MainWindow w;
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[1:, ::-2]")), QStringLiteral("test"));
    w.show();
    QVERIFY(waitSettled(w));
    pickOp(w, op);
    QVERIFY(waitSettled(w));
    QCOMPARE(w.workspace().op, op.toStdString());
    QCOMPARE(w.opEditor()->objectName(), editor);
    QVERIFY2(w.lastEvaluation()->ok,
             qPrintable(QStringLiteral("%1: %2").arg(
                 QString::fromLatin1(errorCodeName(w.lastEvaluation()->code).data()),
                 w.lastEvaluation()->message)));
    if (op == QLatin1String("strided_slice") || op == QLatin1String("to_expr")) {
        // getitem's expression was carried over as raw arguments.
        QCOMPARE(sparseFromAttrs(w.workspace().attrs), encodeExpression("x[1:, ::-2]").sparse);
    }
    if (op == QLatin1String("strided_slice"))
        QCOMPARE(w.outputView(0)->model()->tensor().shape(), (Shape{2, 2}));
    if (op == QLatin1String("to_expr"))
        QVERIFY(w.findChild<QLabel*>(QStringLiteral("opExtras"))
                    ->text()
                    .contains(QStringLiteral("x[1:, ::-2]")));
    // And back to getitem, which gets its expression from the raw arguments.
    pickOp(w, QStringLiteral("getitem"));
    QVERIFY(waitSettled(w));
    QCOMPARE(w.workspace().op, std::string("getitem"));
    QVERIFY(w.lastEvaluation()->ok);
}

void TestWorkbench::genericEditorReadsJsonValues()
{
    if (!findOp("transpose")) QFAIL("this build has no transpose op");
    MainWindow w;
    w.show();
    pickOp(w, QStringLiteral("transpose"));
    QVERIFY(waitSettled(w));
    QCOMPARE(w.opEditor()->objectName(), QStringLiteral("genericEditor"));
    auto* perm = w.opEditor()->findChild<QLineEdit*>(QStringLiteral("attr_perm"));
    QVERIFY(perm);
    QVERIFY(!perm->accessibleName().isEmpty());
    perm->setFocus();
    perm->selectAll(); // the example's own value
    QTest::keyClick(perm, Qt::Key_Backspace);
    QTest::keyClicks(perm, QStringLiteral("[1, 0"));
    QVERIFY(waitSettled(w));
    QVERIFY(perm->styleSheet().contains(QStringLiteral("border"))); // not a value yet: marked
    QTest::keyClicks(perm, QStringLiteral("]"));
    QVERIFY(waitSettled(w));
    QVERIFY(perm->styleSheet().isEmpty());
    QCOMPARE(w.workspace().attrs.at("perm"), Attr::ints({1, 0}));
    QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.lastEvaluation()->message));
    QCOMPARE(w.outputView(0)->model()->tensor().shape(), (Shape{3, 2})); // the example's (2, 3)
}

void TestWorkbench::listInputsGrowAndShrink()
{
    if (!findOp("concat")) QFAIL("this build has no concat op");
    MainWindow w;
    w.show();
    pickOp(w, QStringLiteral("concat"));
    QVERIFY(waitSettled(w));
    const std::size_t before = w.workspace().inputs[0].size();
    auto* add = w.findChild<QPushButton*>(QStringLiteral("add_values"));
    QVERIFY(add);
    QTest::mouseClick(add, Qt::LeftButton);
    QVERIFY(waitSettled(w));
    QCOMPARE(w.workspace().inputs[0].size(), before + 1);
    QCOMPARE(w.inputPanel()->slotCount(), int(before + 1));
    auto* remove = w.findChild<QPushButton*>(QStringLiteral("remove_values"));
    QTest::mouseClick(remove, Qt::LeftButton);
    QVERIFY(waitSettled(w));
    QCOMPARE(w.workspace().inputs[0].size(), before);
}

void TestWorkbench::sliceAndPaddleTablesEditAttributes()
{
    MainWindow w;
    QVERIFY(w.openLesson(QStringLiteral("paddle-erratum-case-2")));
    w.show();
    QVERIFY(waitSettled(w));
    auto* table = w.findChild<QTableView*>(QStringLiteral("paddleArgsTable"));
    QVERIFY(table);
    auto* model = qobject_cast<ArgTableModel*>(table->model());
    // starts [1, 3]: the result the Paddle docs printed for case 2.
    QVERIFY(model->setData(model->index(0, 1), 1, Qt::EditRole));
    QVERIFY(waitSettled(w));
    QVERIFY(model->setData(model->index(1, 1), 3, Qt::EditRole));
    QVERIFY(waitSettled(w));
    QCOMPARE(w.workspace().attrs.at("starts"), Attr::ints({1, 3}));
    const Tensor out = w.outputView(0)->model()->tensor();
    QCOMPARE(out.shape(), (Shape{1, 3}));
    QCOMPARE(out.toInt64Vector(), (std::vector<std::int64_t>{8, 7, 6}));

    // Stepping lights the table row of the axis the step is about.
    w.stepper()->setCurrentStep(1);
    QCOMPARE(w.stepper()->stepTitle(1), QStringLiteral("Axis 1"));
    QCOMPARE(model->litRows(), (std::vector<int>{1}));

    // slice: one row per dimension, begin and size.
    pickOp(w, QStringLiteral("slice"));
    QVERIFY(waitSettled(w));
    auto* sliceTable = w.findChild<QTableView*>(QStringLiteral("sliceArgsTable"));
    QVERIFY(sliceTable);
    auto* sliceModel = qobject_cast<ArgTableModel*>(sliceTable->model());
    if (sliceModel->rowCount() != 2) {
        QTest::mouseClick(w.findChild<QPushButton*>(QStringLiteral("sliceFitRank")),
                          Qt::LeftButton);
        QVERIFY(waitSettled(w));
    }
    QCOMPARE(sliceModel->rowCount(), 2);
    QVERIFY(sliceModel->setData(sliceModel->index(0, 0), 1, Qt::EditRole));
    QVERIFY(sliceModel->setData(sliceModel->index(1, 1), 2, Qt::EditRole));
    QVERIFY(sliceModel->setData(sliceModel->index(0, 1), -1, Qt::EditRole));
    QVERIFY(waitSettled(w));
    QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.lastEvaluation()->message));
    QCOMPARE(sliceModel->headerData(1, Qt::Vertical, Qt::DisplayRole).toString(),
             QStringLiteral("dim 1 (size 4)"));
}

void TestWorkbench::modelsPassTheModelTester()
{
    MainWindow w;
    QVERIFY(w.openLesson(QStringLiteral("walkthrough")));
    w.show();
    QVERIFY(waitSettled(w));
    QAbstractItemModelTester raw(rawModel(w),
                                 QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester steps(
        w.stepper()->findChild<QListWidget*>(QStringLiteral("decodeSteps"))->model(),
        QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester lessonList(
        w.findChild<QListWidget*>(QStringLiteral("lessonList"))->model(),
        QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester input(w.inputView(0)->model(),
                                   QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester output(w.outputView(0)->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    // Edits that reset, insert, remove and change rows, with every tester watching.
    typeExpression(w, QStringLiteral("x[::2, 1]"));
    QVERIFY(waitSettled(w));
    ArgTableModel* model = rawModel(w);
    model->insertEntry(1);
    QVERIFY(waitSettled(w));
    model->removeEntry(0);
    QVERIFY(waitSettled(w));
    model->setData(model->index(0, 5), Qt::Checked, Qt::CheckStateRole);
    QVERIFY(waitSettled(w));
    w.stepper()->last();
    QVERIFY(w.openLesson(QStringLiteral("rows-and-steps")));
    QVERIFY(waitSettled(w));
}

void TestWorkbench::cancelKeepsTheLastResult()
{
    MainWindow w;
    Workspace small = getitemWorkspace({3, 4}, QStringLiteral("x[1]"));
    small.op = "pad";
    small.attrs = {{"paddings", Attr::List{Attr::List{1, 1}, Attr::List{1, 1}}}};
    w.setWorkspace(small, QStringLiteral("test"));
    w.show();
    QVERIFY(waitSettled(w));
    const Tensor good = w.outputView(0)->model()->tensor();
    QSignalSpy cancelled(w.engine(), &EngineClient::cancelled);
    // A big random input keeps the worker busy long enough to cancel it (past the 150 ms after
    // which progress shows): filling 10^8 random elements and padding them. 6000 x 6000 no
    // longer was, at times, once a constant pad's provenance came from its plan and fresh
    // buffers took huge pages.
    Workspace big = getitemWorkspace({10000, 10000}, QStringLiteral("x[::-1]"));
    big.op = "pad";
    big.attrs = {{"paddings", Attr::List{Attr::List{1, 1}, Attr::List{1, 1}}}};
    big.inputs[0][0].fill = FillKind::Random;
    w.setWorkspace(big, QStringLiteral("test"));
    w.evaluation()->evaluateNow();
    QVERIFY(w.engine()->isBusy());
    // Slow enough to notice: progress and a cancel button appear in the status bar.
    auto* cancel = w.findChild<QPushButton*>(QStringLiteral("cancelEvaluation"));
    QTRY_VERIFY_WITH_TIMEOUT(cancel->isVisible(), 5000);
    QVERIFY(w.findChild<QWidget*>(QStringLiteral("evaluationProgress"))->isVisible());
    QTest::mouseClick(cancel, Qt::LeftButton);
    QVERIFY(cancelled.count() == 1 || cancelled.wait(20000));
    QVERIFY(!cancel->isVisible());
    QVERIFY(waitSettled(w));
    QVERIFY(w.message().contains(QStringLiteral("cancelled")));
    QVERIFY(w.outputView(0)->model()->tensor().identical(good));
}

QTEST_MAIN(TestWorkbench)
#include "tst_workbench.moc"
