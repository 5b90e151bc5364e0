// SPDX-License-Identifier: GPL-3.0-or-later
// The Model dock: an ONNX and a TFLite file list their slicing nodes, the node whose stored
// output shape the computed one contradicts is marked (in words, not only in colour), the filter
// matches names and ops, activating a node evaluates its request in the workbench, and a bad
// file is an error in the dock, never a crash or a lost listing. A file is read on a worker: the
// window works meanwhile, the read can be cancelled (button, Esc) or replaced by another file,
// and closing the window while a file is read neither hangs nor crashes.
#include "protocol/npy.h"
#include "protocol/tensor_json.h"
#include "ui/model/modelnodetable.h"
#include "ui/views/palette.h"
#include "ui/workbench/commandline.h"
#include "ui/workbench/docksetup.h"
#include "ui/workbench/evaluationcontroller.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/messagestrip.h"
#include "ui/workbench/modeldock.h"
#include "workbench_testing.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

Q_DECLARE_METATYPE(ss::Shape)

using namespace ss;
using namespace ss::ui;
using ss::testing::showSettled;
using ss::testing::waitSettled;

class TestModelDock : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void listsAndMarks_data();
    void listsAndMarks();
    void nodesOverTheLimitsAreNotChecked();
    void filterMatchesNameAndOp_data();
    void filterMatchesNameAndOp();
    void activatingANodeEvaluatesIt_data();
    void activatingANodeEvaluatesIt();
    void runTimeArgumentsDoNotOpen();
    void runTimeValuesCanBeGiven();
    void selectingANodeSelectsTheValueItNeeds();
    void badValuesChangeNothing_data();
    void badValuesChangeNothing();
    void dataFromANpyFile();
    void nodeTestOpensWithItsData();
    void badFileIsAnErrorInTheDock_data();
    void badFileIsAnErrorInTheDock();
    void commandLineOpensAModel();
    void menuActionExists();
    void openFromTheMenuFocusesTheNodes();
    void fileOpenTakesAModel();
    void windowWorksWhileAModelLoads();
    void cancelStopsTheLoad_data();
    void cancelStopsTheLoad();
    void secondModelReplacesTheFirst();
    void anOpenedNodeNamesItsFile();
    void closingWhileLoadingStopsTheRead();
};

namespace {

QString modelFile(const char* name)
{
    return QFINDTESTDATA(QStringLiteral("models/") + QLatin1String(name));
}

// An ONNX TensorProto file as a node test's input_K.pb: dims, data_type and raw_data, the
// protobuf written by hand (its fields 1, 2 and 9). INT32 is 6, INT64 7.
void writeTensorProto(const QString& path, const std::vector<std::int64_t>& dims, int dataType,
                      const std::vector<std::int64_t>& values)
{
    std::string raw;
    for (const std::int64_t v : values) {
        const std::int32_t v32 = std::int32_t(v);
        raw.append(dataType == 6 ? reinterpret_cast<const char*>(&v32)
                                 : reinterpret_cast<const char*>(&v),
                   dataType == 6 ? 4 : 8);
    }
    std::string proto;
    for (const std::int64_t d : dims)
        proto += {'\x08', char(d)}; // small dimensions: one varint byte
    proto += {'\x10', char(dataType), '\x4a'};
    proto += char(raw.size()) + raw; // under 128 bytes: one varint byte
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    f.write(proto.data(), qint64(proto.size()));
}

QStringList names(const ModelNodeTable* table)
{
    QStringList list;
    for (int r = 0; r < table->rowCount(); ++r)
        list << table->data(table->index(r, ModelNodeTable::Name)).toString();
    return list;
}

QString cell(const ModelNodeTable* table, int row, int column, int role = Qt::DisplayRole)
{
    return table->data(table->index(row, column), role).toString();
}

/// Opens `path` in the dock and waits until the load has ended; its outcome, and why not.
bool openAndWait(ModelDock* dock, const QString& path, QString* error = nullptr)
{
    struct Outcome
    {
        bool done = false, ok = false;
        QString why;
    };
    auto outcome = std::make_shared<Outcome>();
    dock->openModel(path, [outcome](bool ok, const QString& why) {
        outcome->done = true;
        outcome->ok = ok;
        outcome->why = why;
    });
    if (!QTest::qWaitFor([&] { return outcome->done; }, 120000)) {
        if (error) *error = QStringLiteral("the model did not load within 120 s");
        return false;
    }
    if (error) *error = outcome->why;
    return outcome->ok;
}

/// A reader that holds one file back until the test lets it go (or its job is cancelled), and
/// reads every other file at once: a model that takes as long as the test needs.
struct HeldReader
{
    struct State
    {
        std::mutex mutex;
        std::condition_variable changed;
        bool released = false;
        std::atomic<bool> started{false};
        std::atomic<bool> sawCancel{false};
        std::atomic<bool> returned{false};
    };
    std::shared_ptr<State> state = std::make_shared<State>();
    QString held; ///< the file name (not the path) held back

    ModelDock::Reader reader() const
    {
        return [state = state, held = held.toStdString()](const std::string& path,
                                                          const ss::model::ReadLimits& limits) {
            if (path.size() >= held.size() &&
                path.compare(path.size() - held.size(), held.size(), held) == 0) {
                state->started = true;
                std::unique_lock lock(state->mutex);
                // Woken by release(); a cancelled job is looked at every 10 ms, as the readers'
                // own waits (ONNX's checker) do.
                while (!state->released) {
                    if (limits.job && limits.job->isCancelled()) {
                        state->sawCancel = true;
                        state->returned = true;
                        limits.throwIfCancelled();
                    }
                    state->changed.wait_for(lock, std::chrono::milliseconds(10));
                }
            }
            auto file = ss::model::readModelFile(path, limits);
            state->returned = true;
            return file;
        };
    }
    void release() const
    {
        const std::lock_guard lock(state->mutex);
        state->released = true;
        state->changed.notify_all();
    }
};

} // namespace

void TestModelDock::initTestCase()
{
    ss::testing::useCleanTestEnvironment();
}

void TestModelDock::listsAndMarks_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("nodes");
    QTest::addColumn<QString>("wrong");     // the node whose stored shape is contradicted
    QTest::addColumn<QString>("stored");    // its stored output shape
    QTest::addColumn<QString>("computed");  // and the computed one
    QTest::addColumn<QString>("runTime");   // a node with an argument computed at run time
    QTest::addColumn<QString>("arguments"); // the wrong node's decoded arguments (part)
    QTest::newRow("onnx") << modelFile("mixed.onnx") << QStringList{"rows", "bad_unsqueeze", "pick"}
                          << "bad_unsqueeze"
                          << "(2, 6, 1, 1)"
                          << "(2, 1, 1, 6)"
                          << "pick"
                          << "axes = [1, 2]";
    QTest::newRow("tflite") << modelFile("mixed.tflite")
                            << QStringList{"y", "model/transpose", "model/gather"} << "y"
                            << "(2, 2)"
                            << "(2, 4)"
                            << "model/gather"
                            << "subscript = x[1:3]";
}

void TestModelDock::listsAndMarks()
{
    QFETCH(QString, file);
    QFETCH(QStringList, nodes);
    QFETCH(QString, wrong);
    QFETCH(QString, stored);
    QFETCH(QString, computed);
    QFETCH(QString, runTime);
    QFETCH(QString, arguments);
    MainWindow w;
    ModelDock* dock = w.docks()->model();
    QVERIFY(!dock->isVisibleTo(&w));
    QString error;
    QVERIFY2(openAndWait(dock, file, &error), qPrintable(error));
    QVERIFY(dock->isVisibleTo(&w));
    const ModelNodeTable* table = dock->table();
    QCOMPARE(names(table), nodes); // the family only, in file order: not the ADD / Add
    for (int r = 0; r < table->rowCount(); ++r) {
        const bool isWrong = names(table)[r] == wrong;
        QCOMPARE(table->data(table->index(r, 0), ModelNodeTable::DisagreesRole).toBool(), isWrong);
        // The mark is in words too (screen readers, colour-blind users), and the tooltip says why.
        const QString check = cell(table, r, ModelNodeTable::Check);
        QCOMPARE(check.contains(QStringLiteral("disagrees")), isWrong);
        if (isWrong) {
            QCOMPARE(cell(table, r, ModelNodeTable::StoredShape), stored);
            QCOMPARE(cell(table, r, ModelNodeTable::ComputedShape), computed);
            QVERIFY(cell(table, r, ModelNodeTable::Check, Qt::ToolTipRole)
                        .startsWith(QStringLiteral("Mismatch")));
            QVERIFY(cell(table, r, ModelNodeTable::Name, Qt::AccessibleDescriptionRole)
                        .contains(stored));
            QVERIFY2(cell(table, r, ModelNodeTable::Arguments).contains(arguments),
                     qPrintable(cell(table, r, ModelNodeTable::Arguments)));
        }
        if (names(table)[r] == runTime) {
            QVERIFY(cell(table, r, ModelNodeTable::ComputedShape).startsWith("not computed"));
            QVERIFY2(cell(table, r, ModelNodeTable::Arguments).contains("run time"),
                     qPrintable(cell(table, r, ModelNodeTable::Arguments)));
        }
    }
    QCOMPARE(table->disagreeing(), 1);
}

// A node this machine's limits refuse is no converter bug: it is "not checked", with the
// engine's reason, never "✗ disagrees" (a valid file was counted as disagreeing) nor "✓ agrees".
void TestModelDock::nodesOverTheLimitsAreNotChecked()
{
    ss::model::ModelFile file = ss::model::readModelFile(modelFile("mixed.onnx").toStdString());
    Limits tiny;
    tiny.maxElements = 4; // every input of the file is larger
    auto checks = ModelNodeTable::checkAll(file, tiny, nullptr);
    ModelNodeTable table;
    table.setFile(std::move(file), std::move(checks));
    QCOMPARE(table.disagreeing(), 0);
    const int row = names(&table).indexOf(QStringLiteral("bad_unsqueeze"));
    QCOMPARE(cell(&table, row, ModelNodeTable::Check), QStringLiteral("not checked"));
    QVERIFY2(cell(&table, row, ModelNodeTable::Check, Qt::ToolTipRole)
                 .startsWith(QStringLiteral("Not checked: resource_exhausted")),
             qPrintable(cell(&table, row, ModelNodeTable::Check, Qt::ToolTipRole)));
}

void TestModelDock::filterMatchesNameAndOp_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QStringList>("shown");
    QTest::newRow("onnx op, any case")
        << modelFile("mixed.onnx") << "gather" << QStringList{"pick"};
    QTest::newRow("onnx name") << modelFile("mixed.onnx") << "bad" << QStringList{"bad_unsqueeze"};
    QTest::newRow("onnx none") << modelFile("mixed.onnx") << "concat" << QStringList{};
    QTest::newRow("tflite op") << modelFile("mixed.tflite") << "STRIDED" << QStringList{"y"};
    QTest::newRow("tflite name") << modelFile("mixed.tflite") << "model/"
                                 << QStringList{"model/transpose", "model/gather"};
}

void TestModelDock::filterMatchesNameAndOp()
{
    QFETCH(QString, file);
    QFETCH(QString, filter);
    QFETCH(QStringList, shown);
    MainWindow w;
    ModelDock* dock = w.docks()->model();
    QVERIFY(openAndWait(dock, file));
    QTest::keyClicks(dock->filterField(), filter);
    QSortFilterProxyModel* filtered = dock->filtered();
    QStringList seen;
    for (int r = 0; r < filtered->rowCount(); ++r)
        seen << filtered->index(r, ModelNodeTable::Name).data().toString();
    QCOMPARE(seen, shown);
    dock->filterField()->clear();
    QCOMPARE(filtered->rowCount(), dock->table()->rowCount());
}

void TestModelDock::activatingANodeEvaluatesIt_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("op");
    QTest::addColumn<Shape>("inputShape");
    QTest::addColumn<Shape>("output");
    QTest::newRow("onnx Slice") << modelFile("mixed.onnx") << "rows"
                                << "onnx_slice" << Shape{4, 6} << Shape{2, 6};
    QTest::newRow("onnx Unsqueeze") << modelFile("mixed.onnx") << "bad_unsqueeze"
                                    << "strided_slice" << Shape{2, 6} << Shape{2, 1, 1, 6};
    QTest::newRow("tflite STRIDED_SLICE") << modelFile("mixed.tflite") << "y"
                                          << "strided_slice" << Shape{3, 4} << Shape{2, 4};
    QTest::newRow("tflite TRANSPOSE") << modelFile("mixed.tflite") << "model/transpose"
                                      << "transpose" << Shape{3, 4} << Shape{4, 3};
}

void TestModelDock::activatingANodeEvaluatesIt()
{
    QFETCH(QString, file);
    QFETCH(QString, node);
    QFETCH(QString, op);
    QFETCH(Shape, inputShape);
    QFETCH(Shape, output);
    MainWindow w;
    QVERIFY(showSettled(w, {}, 60000));
    ModelDock* dock = w.docks()->model();
    QVERIFY(openAndWait(dock, file));
    // Enter on the selected row, as a keyboard user opens it.
    QVERIFY(dock->selectNode(node));
    dock->view()->setFocus();
    QTest::keyClick(dock->view(), Qt::Key_Return);
    QCOMPARE(QString::fromStdString(w.workspace().op), op);
    QVERIFY(waitSettled(w, 60000));
    const auto eval = w.lastEvaluation();
    QVERIFY2(eval->ok, qPrintable(eval->message));
    QCOMPARE(eval->inputs.front().front().shape(), inputShape);
    QCOMPARE(eval->outputs.front().shape(), output);
    // The decode steps start from the node's own arguments.
    QVERIFY(!eval->steps.empty());
    // One undo step, with the node's name.
    QVERIFY(w.undoStack()->text(w.undoStack()->index() - 1).contains(node));
}

void TestModelDock::runTimeArgumentsDoNotOpen()
{
    MainWindow w;
    ModelDock* dock = w.docks()->model();
    QVERIFY(openAndWait(dock, modelFile("mixed.tflite")));
    const Workspace before = w.workspace();
    QVERIFY(!dock->openNode(dock->table()->rowOf(QStringLiteral("model/gather"))));
    QVERIFY2(dock->message().contains(QStringLiteral("run time")), qPrintable(dock->message()));
    QVERIFY(w.workspace() == before);
}

/// The elements of `t`, flat, as integers.
static std::vector<std::int64_t> elements(const Tensor& t)
{
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < t.size(); ++i)
        out.push_back(std::int64_t(t.doubleAt(i)));
    return out;
}

// Issue 19: a value the file leaves to run time is typed in the dock's value row (keyboard
// only); the nodes that read it are checked again and open with it; an index out of range makes
// the engine refuse, and the row says so.
void TestModelDock::runTimeValuesCanBeGiven()
{
    MainWindow w;
    QVERIFY(showSettled(w, {}, 60000));
    ModelDock* dock = w.docks()->model();
    QVERIFY(openAndWait(dock, modelFile("mixed.onnx")));
    const ModelNodeTable* table = dock->table();
    const int pick = table->rowOf(QStringLiteral("pick"));
    QVERIFY(dock->selectNode(QStringLiteral("pick")));
    // Gather reads x (its data) and idx (its indices): the file holds neither.
    QCOMPARE(dock->valueNames(), (QStringList{"x", "idx"}));
    auto* name = dock->findChild<QComboBox*>(QStringLiteral("modelValueName"));
    auto* text = dock->findChild<QLineEdit*>(QStringLiteral("modelValueText"));
    QVERIFY(name && text && text->isEnabled());
    // The dtypes by the project's names, as everywhere else (it showed ONNX's FLOAT and INT64).
    QVERIFY2(name->itemText(0).startsWith(QStringLiteral("x (int32 ")),
             qPrintable(name->itemText(0)));
    QVERIFY2(name->itemText(1).startsWith(QStringLiteral("idx (int64 ")),
             qPrintable(name->itemText(1)));
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTest::keyClick(&w, Qt::Key_G, Qt::AltModifier); // the row's mnemonic: "&Give value"
    QTRY_VERIFY(name->hasFocus());
    QTest::keyClick(name, Qt::Key_Down); // x -> idx
    QCOMPARE(name->currentData().toString(), QStringLiteral("idx"));
    text->setFocus();
    QTest::keyClicks(text, QStringLiteral("[3, 0]"));
    QTest::keyClick(text, Qt::Key_Return);
    QVERIFY2(dock->message().contains(QStringLiteral("idx = [3, 0] (int64 (2,))")),
             qPrintable(dock->message()));
    // A confirmation: it looks like a note, and says so to the accessibility tree.
    const auto* strip = dock->findChild<MessageStrip*>(QStringLiteral("modelMessage"));
    QCOMPARE(strip->kind(), MessageStrip::Kind::Note);
    QCOMPARE(strip->background(), roleColor(ColorRole::NoticeTint));
    QCOMPARE(strip->accessibleName(), QStringLiteral("Note"));
    QCOMPARE(cell(table, pick, ModelNodeTable::ComputedShape), QStringLiteral("(2, 6)"));
    QVERIFY(!table->data(table->index(pick, 0), ModelNodeTable::DisagreesRole).toBool());
    QVERIFY(name->currentText().contains(QStringLiteral("given")));

    QVERIFY(dock->openNode(pick));
    QVERIFY(waitSettled(w, 60000));
    const auto eval = w.lastEvaluation();
    QVERIFY2(eval->ok, qPrintable(eval->message));
    QCOMPARE(elements(eval->outputs.front()),
             (std::vector<std::int64_t>{18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5}));

    // Given again, out of range: the engine refuses, the row is marked and says why.
    QVERIFY(dock->giveValue(QStringLiteral("idx"), QStringLiteral("[9, 0]")));
    QVERIFY(table->data(table->index(pick, 0), ModelNodeTable::DisagreesRole).toBool());
    QVERIFY2(
        cell(table, pick, ModelNodeTable::Check, Qt::ToolTipRole).contains(QStringLiteral("9")),
        qPrintable(cell(table, pick, ModelNodeTable::Check, Qt::ToolTipRole)));
}

// The value row selects the input that keeps the node from being computed, marked "needed":
// for ONNX's test_slice (data, starts, ends, axes and steps all graph inputs) that is starts, not
// the data that an arange fills; once starts has a value, ends. A value the user picked for a
// node is kept when the node is selected again.
void TestModelDock::selectingANodeSelectsTheValueItNeeds()
{
    MainWindow w;
    QVERIFY(showSettled(w, {}, 60000));
    ModelDock* dock = w.docks()->model();
    QVERIFY(openAndWait(dock, QFINDTESTDATA("../fuzz/corpus/model_onnx/test_slice.onnx")));
    auto* name = dock->findChild<QComboBox*>(QStringLiteral("modelValueName"));
    QVERIFY(name);
    QTableView* view = dock->view();
    const QModelIndex first = view->model()->index(0, 0);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(first).center());
    QTRY_COMPARE(view->currentIndex().row(), 0);
    QCOMPARE(dock->valueNames().first(), QStringLiteral("x"));
    QCOMPARE(dock->neededValueNames(), QStringList{QStringLiteral("starts")});
    QCOMPARE(name->currentData().toString(), QStringLiteral("starts"));
    QVERIFY2(name->currentText().contains(QStringLiteral("needed")),
             qPrintable(name->currentText()));
    QVERIFY(!name->itemText(0).contains(QStringLiteral("needed"))); // x: an arange fills it
    // Given, the node waits for ends: the row moves on to it.
    QVERIFY(dock->giveValue(QStringLiteral("starts"), QStringLiteral("[0, 0]")));
    QTRY_COMPARE(name->currentData().toString(), QStringLiteral("ends"));

    // mixed.onnx's pick (Gather) reads x, its data, and idx, which it waits for.
    QVERIFY(openAndWait(dock, modelFile("mixed.onnx")));
    QVERIFY(dock->selectNode(QStringLiteral("pick")));
    QTRY_COMPARE(name->currentData().toString(), QStringLiteral("idx"));
    // The user picks x (the keyboard: Up), looks at another node and comes back: x it stays.
    name->setFocus();
    QTest::keyClick(name, Qt::Key_Up);
    QCOMPARE(name->currentData().toString(), QStringLiteral("x"));
    QVERIFY(dock->selectNode(QStringLiteral("rows")));
    QVERIFY(dock->selectNode(QStringLiteral("pick")));
    QCOMPARE(name->currentData().toString(), QStringLiteral("x"));
}

void TestModelDock::badValuesChangeNothing_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("says"); // part of the message
    QTest::newRow("unfinished") << "idx"
                                << "[3, "
                                << "The value for idx does not read";
    QTest::newRow("strings") << "idx"
                             << "[\"a\", \"b\"]"
                             << "The value for idx does not read";
    QTest::newRow("shape the file contradicts") << "idx"
                                                << "[1, 2, 3]"
                                                << "has shape (3,), but the file stores (2,)";
    QTest::newRow("data of the wrong shape") << "x"
                                             << "[1, 2]"
                                             << "but the file stores (4, 6)";
    // As `slicescope-cli model --input` (a usage error there): the names the file takes.
    QTest::newRow("a name the graph has not") << "idx_"
                                              << "[3, 0]"
                                              << "idx_ was not given: the graph has no value "
                                                 "'idx_' to give: it leaves 'x', 'idx', 'rows' "
                                                 "to run time";
}

void TestModelDock::badValuesChangeNothing()
{
    QFETCH(QString, value);
    QFETCH(QString, text);
    QFETCH(QString, says);
    MainWindow w;
    ModelDock* dock = w.docks()->model();
    QVERIFY(openAndWait(dock, modelFile("mixed.onnx")));
    const ModelNodeTable* table = dock->table();
    const int pick = table->rowOf(QStringLiteral("pick"));
    const QString before = cell(table, pick, ModelNodeTable::ComputedShape);
    QVERIFY(before.startsWith(QStringLiteral("not computed")));
    QVERIFY(!dock->giveValue(value, text));
    QVERIFY2(dock->message().contains(says), qPrintable(dock->message()));
    const auto* strip = dock->findChild<MessageStrip*>(QStringLiteral("modelMessage"));
    QCOMPARE(strip->kind(), MessageStrip::Kind::Error);
    QCOMPARE(strip->accessibleName(), QStringLiteral("Error message"));
    QCOMPARE(cell(table, pick, ModelNodeTable::ComputedShape), before);
    QVERIFY(!table->file().nodes[std::size_t(pick)].inputs[1].constant);
    QVERIFY(!dock->openNode(pick));
}

// The node's data from a .npy (or an ONNX TensorProto .pb) the user picks: the workbench then
// shows those values going in. A .npy whose dtype the file contradicts is refused with both
// named.
void TestModelDock::dataFromANpyFile()
{
    QTemporaryDir dir;
    const Limits limits;
    std::vector<std::int64_t> data(24);
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = 100 + std::int64_t(i);
    const QString npy = dir.filePath(QStringLiteral("x.npy"));
    writeNpyFile(npy.toStdString(), Tensor::fromInts(DType::Int32, Shape{4, 6}, data));
    const QString floats = dir.filePath(QStringLiteral("floats.npy"));
    writeNpyFile(floats.toStdString(), parseTensorLiteral("[[1.5]]", DType::Float32, limits));

    MainWindow w;
    QVERIFY(showSettled(w, {}, 60000));
    ModelDock* dock = w.docks()->model();
    QVERIFY(openAndWait(dock, modelFile("mixed.onnx")));
    QVERIFY(!dock->giveValueFromFile(QStringLiteral("x"), floats));
    QVERIFY2(dock->message().contains(QStringLiteral("float32, but the file stores INT32")),
             qPrintable(dock->message()));
    QVERIFY(dock->giveValueFromFile(QStringLiteral("x"), npy));
    QVERIFY2(dock->message().contains(QStringLiteral("x.npy")) &&
                 dock->message().contains(QStringLiteral("2 node input")),
             qPrintable(dock->message()));
    QVERIFY(dock->openNode(dock->table()->rowOf(QStringLiteral("rows"))));
    QVERIFY(waitSettled(w, 60000));
    const auto eval = w.lastEvaluation();
    QVERIFY2(eval->ok, qPrintable(eval->message));
    QCOMPARE(elements(eval->inputs.front().front()), data);
    QCOMPARE(elements(eval->outputs.front()),
             std::vector<std::int64_t>(data.begin() + 6, data.begin() + 18));

    // An ONNX TensorProto, as a node test's input_0.pb.
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = 200 + std::int64_t(i);
    const QString pb = dir.filePath(QStringLiteral("input_0.pb"));
    writeTensorProto(pb, {4, 6}, 6, data);
    QVERIFY2(dock->giveValueFromFile(QStringLiteral("x"), pb), qPrintable(dock->message()));
    QVERIFY(dock->openNode(dock->table()->rowOf(QStringLiteral("rows"))));
    QVERIFY(waitSettled(w, 60000));
    QCOMPARE(elements(w.lastEvaluation()->inputs.front().front()), data);
}

// An ONNX node test's model (DIR/model.onnx beside DIR/test_data_set_0) opens with the data
// set's inputs given, as `slicescope-cli model DIR` gives them: its nodes are computed and open
// with those values. Main listed them 'not computed' ('idx' is computed at run time).
void TestModelDock::nodeTestOpensWithItsData()
{
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("test_data_set_0")));
    const QString model = dir.filePath(QStringLiteral("model.onnx"));
    QVERIFY(QFile::copy(modelFile("mixed.onnx"), model));
    std::vector<std::int64_t> x(24);
    for (std::size_t i = 0; i < x.size(); ++i)
        x[i] = std::int64_t(i) * 10;
    writeTensorProto(dir.filePath(QStringLiteral("test_data_set_0/input_0.pb")), {4, 6}, 6, x);
    writeTensorProto(dir.filePath(QStringLiteral("test_data_set_0/input_1.pb")), {2}, 7, {3, 0});

    MainWindow w;
    QVERIFY(showSettled(w, {}, 60000));
    ModelDock* dock = w.docks()->model();
    QVERIFY(openAndWait(dock, model));
    QVERIFY2(dock->message().contains(QStringLiteral("The node test's data gave x, idx.")),
             qPrintable(dock->message()));
    const ModelNodeTable* table = dock->table();
    const int pick = table->rowOf(QStringLiteral("pick"));
    QCOMPARE(cell(table, pick, ModelNodeTable::ComputedShape), QStringLiteral("(2, 6)"));
    QVERIFY(dock->openNode(pick));
    QVERIFY(waitSettled(w, 60000));
    // The view says where its values came from: they are the data's, not an arange fill.
    QVERIFY2(w.workspace().explanation.contains(QStringLiteral("the values its inputs were given")),
             qPrintable(w.workspace().explanation));
    const auto eval = w.lastEvaluation();
    QVERIFY2(eval->ok, qPrintable(eval->message));
    std::vector<std::int64_t> rows(x.begin() + 18, x.end()); // x[3], then x[0]
    rows.insert(rows.end(), x.begin(), x.begin() + 6);
    QCOMPARE(elements(eval->outputs.front()), rows);
}

void TestModelDock::badFileIsAnErrorInTheDock_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("garbage onnx") << "bad.onnx" << QByteArray("\x08\xff\xff\xff garbage", 12);
    QTest::newRow("truncated tflite") << "bad.tflite" << QByteArray("\x1c\x00\x00\x00TFL3", 8);
    QTest::newRow("empty pb") << "bad.pb" << QByteArray();
    QTest::newRow("missing") << "" << QByteArray();
}

void TestModelDock::badFileIsAnErrorInTheDock()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    QTemporaryDir dir;
    QString path = dir.filePath(name.isEmpty() ? QStringLiteral("absent.onnx") : name);
    if (!name.isEmpty()) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }
    MainWindow w;
    ModelDock* dock = w.docks()->model();
    QVERIFY(openAndWait(dock, modelFile("mixed.onnx")));
    QString error;
    QVERIFY(!openAndWait(dock, path, &error));
    QVERIFY2(dock->message().startsWith(QStringLiteral("Model not opened")),
             qPrintable(dock->message()));
    QVERIFY2(error.contains(path), qPrintable(error));
    // What was listed stays listed.
    QCOMPARE(dock->table()->rowCount(), 3);
    QCOMPARE(dock->modelPath(), modelFile("mixed.onnx"));
    QVERIFY(!dock->isHidden());

    // With nothing listed, the dock shown for the file alone goes again (it took half of a
    // 1024 x 700 window to say the error), and the window's strip says it.
    MainWindow fresh;
    fresh.forgetSession();
    ModelDock* empty = fresh.docks()->model();
    QVERIFY(empty->isHidden());
    empty->openModel(path); // as File > Open Model… does
    // The read is a job of its own: the window may be settled before it ends (under load 15
    // the strip was still empty here).
    QTRY_VERIFY_WITH_TIMEOUT(!empty->isLoading(), 60000);
    QVERIFY(waitSettled(fresh, 60000));
    QVERIFY(empty->isHidden());
    QVERIFY2(fresh.message().startsWith(QStringLiteral("Model not opened")),
             qPrintable(fresh.message()));
}

void TestModelDock::commandLineOpensAModel()
{
    MainWindow w;
    StartOptions options;
    options.file = modelFile("mixed.tflite");
    QString error;
    QVERIFY2(applyStartOptions(w, options, &error), qPrintable(error));
    QVERIFY(w.docks()->model()->isVisibleTo(&w));
    QVERIFY(waitSettled(w, 60000)); // the file is read on a worker
    QCOMPARE(w.docks()->model()->modelPath(), options.file);
    // The node the file contradicts is opened first.
    QCOMPARE(w.workspace().op, std::string("strided_slice"));
    QVERIFY(w.undoStack()->isClean());

    // An ONNX file whose shape inference complains: the warning stays in the dock's strip after
    // its node opened.
    MainWindow onnx;
    options.file = modelFile("mixed.onnx");
    QVERIFY2(applyStartOptions(onnx, options, &error), qPrintable(error));
    QVERIFY(waitSettled(onnx, 60000));
    QCOMPARE(onnx.workspace().op, std::string("strided_slice")); // bad_unsqueeze
    QVERIFY2(onnx.docks()->model()->message().contains(QStringLiteral("shape inference")),
             qPrintable(onnx.docks()->model()->message()));

    // The Slice of an exporter's chunk opens, not the Gather of the input's shape that computes
    // its ends (both can be computed once the reader folds the shape computation; the Gather,
    // first in the file, opened).
    MainWindow folded;
    options.file = modelFile("folded.onnx");
    QVERIFY2(applyStartOptions(folded, options, &error), qPrintable(error));
    QVERIFY(waitSettled(folded, 60000));
    QCOMPARE(folded.workspace().op, std::string("onnx_slice"));

    // No node can be computed (ONNX's own test_slice: every argument is a graph input): none
    // opens, and the first is selected, so that the value row offers what it lacks (it offered
    // nothing, disabled, until a row was picked).
    MainWindow runTime;
    options.file = QFINDTESTDATA("../fuzz/corpus/model_onnx/test_slice.onnx");
    QVERIFY2(applyStartOptions(runTime, options, &error), qPrintable(error));
    QVERIFY(waitSettled(runTime, 60000));
    QVERIFY(runTime.workspace().op != "onnx_slice");
    QCOMPARE(runTime.docks()->model()->view()->currentIndex().row(), 0);
    QVERIFY2(runTime.docks()->model()->valueNames().contains(QStringLiteral("starts")),
             qPrintable(runTime.docks()->model()->valueNames().join(u' ')));

    MainWindow bad;
    options.file = modelFile("mixed.onnx") + QStringLiteral(".absent.tflite");
    // The window opens at once; the file that does not read is its start error, and the dock's.
    QVERIFY(applyStartOptions(bad, options, &error));
    QVERIFY(waitSettled(bad, 60000));
    QVERIFY2(bad.message().contains(QStringLiteral("Model not opened")), qPrintable(bad.message()));
    QVERIFY2(bad.message().contains(QStringLiteral("no such file")), qPrintable(bad.message()));
    QVERIFY2(bad.docks()->model()->message().startsWith(QStringLiteral("Model not opened")),
             qPrintable(bad.docks()->model()->message()));
    QVERIFY(bad.docks()->model()->isHidden()); // no empty dock beside the start error
}

void TestModelDock::menuActionExists()
{
    MainWindow w;
    auto* action = w.findChild<QAction*>(QStringLiteral("actionOpenModel"));
    QVERIFY(action);
    QVERIFY(!action->text().isEmpty());
}

// Keyboard only: File > Open Model…, the file typed in the dialog, Enter. The focus waited on
// Cancel while the file was read; when the nodes show it goes to them, on the first, so that the
// next Enter opens it (it fell to the op picker at the top of the window).
void TestModelDock::openFromTheMenuFocusesTheNodes()
{
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(waitSettled(w, 60000));
    ModelDock* dock = w.docks()->model();
    QTimer::singleShot(0, &w, [] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        dialog->selectFile(modelFile("mixed.onnx"));
        static_cast<QDialog*>(dialog)->accept(); // protected in QFileDialog, public in QDialog
    });
    w.findChild<QAction*>(QStringLiteral("actionOpenModel"))->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(dock->table()->rowCount() > 0 && !dock->isLoading(), 120000);
    // The window's focus (offscreen, the window is not made active again when the dialog goes).
    QTRY_VERIFY2(
        w.focusWidget() == dock->view(),
        qPrintable(w.focusWidget() ? w.focusWidget()->objectName() : QStringLiteral("none")));
    QCOMPARE(dock->view()->currentIndex().row(), 0);
    QTest::keyClick(dock->view(), Qt::Key_Return);
    QCOMPARE(w.undoStack()->text(w.undoStack()->index() - 1),
             QStringLiteral("Open node %1").arg(names(dock->table()).front()));
}

// File > Open (Ctrl+O) with a model file: it opens in the Model dock, as from the command line
// or a drop (it was read as a workspace: "invalid JSON: ... control character U+0008").
void TestModelDock::fileOpenTakesAModel()
{
    MainWindow w;
    QVERIFY(showSettled(w, {}, 60000));
    const Workspace before = w.workspace();
    QStringList filters;
    QTimer::singleShot(0, &w, [&filters] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        filters = dialog->nameFilters();
        dialog->selectFile(modelFile("mixed.onnx"));
        static_cast<QDialog*>(dialog)->accept(); // protected in QFileDialog, public in QDialog
    });
    w.findChild<QAction*>(QStringLiteral("actionOpen"))->trigger();
    QVERIFY2(filters.value(0).contains(QStringLiteral("*.onnx")), qPrintable(filters.join(u'|')));
    QVERIFY(waitSettled(w, 120000));
    QVERIFY2(w.message().isEmpty(), qPrintable(w.message()));
    QCOMPARE(w.docks()->model()->modelPath(), modelFile("mixed.onnx"));
    QCOMPARE(names(w.docks()->model()->table()), (QStringList{"rows", "bad_unsqueeze", "pick"}));
    QVERIFY(w.workspace() == before); // listed, not opened as the window's workspace
}

void TestModelDock::windowWorksWhileAModelLoads()
{
    MainWindow w;
    QVERIFY(showSettled(w, {}, 60000));
    ModelDock* dock = w.docks()->model();
    HeldReader held;
    held.held = QStringLiteral("mixed.onnx");
    dock->setReader(held.reader());
    QSignalSpy loading(dock, &ModelDock::loadingChanged);

    dock->openModel(modelFile("mixed.onnx"));
    // openModel returned while the reader is still held: the read is not on this thread.
    QVERIFY(dock->isLoading());
    QCOMPARE(loading.count(), 1);
    QVERIFY(QTest::qWaitFor([&] { return held.state->started.load(); }, 60000));
    QVERIFY(dock->isVisibleTo(&w));
    QVERIFY(dock->findChild<QWidget*>(QStringLiteral("modelLoading"))->isVisibleTo(&w));
    QVERIFY(dock->findChild<QLabel*>(QStringLiteral("modelLoadingText"))
                ->text()
                .contains(QStringLiteral("mixed.onnx")));
    QVERIFY(dock->findChild<QPushButton*>(QStringLiteral("modelLoadingCancel"))->isEnabled());
    QVERIFY(!w.isSettled()); // a screenshot waits for the model

    // Meanwhile the window works: an edit is evaluated and shown, the filter field types.
    QSignalSpy shown(&w, &MainWindow::evaluationShown);
    w.setWorkspace(ss::testing::getitemWorkspace({4, 5}, QStringLiteral("x[1:, ::2]")),
                   QStringLiteral("edit while loading"));
    w.evaluation()->evaluateNow();
    QVERIFY(shown.wait(60000));
    QVERIFY(w.lastEvaluation()->ok);
    QCOMPARE(w.lastEvaluation()->outputs.front().shape(), (Shape{3, 3}));
    QTest::keyClicks(dock->filterField(), QStringLiteral("sl"));
    QCOMPARE(dock->filterField()->text(), QStringLiteral("sl"));
    QVERIFY(dock->isLoading());
    QCOMPARE(dock->table()->rowCount(), 0);

    held.release();
    QTRY_VERIFY_WITH_TIMEOUT(!dock->isLoading(), 60000);
    QCOMPARE(loading.count(), 2);
    QCOMPARE(names(dock->table()), (QStringList{"rows", "bad_unsqueeze", "pick"}));
    QCOMPARE(dock->modelPath(), modelFile("mixed.onnx"));
    QVERIFY(!dock->findChild<QWidget*>(QStringLiteral("modelLoading"))->isVisibleTo(&w));
    QVERIFY(waitSettled(w, 60000));
}

void TestModelDock::cancelStopsTheLoad_data()
{
    QTest::addColumn<bool>("byEscape");
    QTest::newRow("Cancel button") << false;
    QTest::newRow("Esc in the dock") << true;
}

void TestModelDock::cancelStopsTheLoad()
{
    QFETCH(bool, byEscape);
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    ModelDock* dock = w.docks()->model();
    QVERIFY(openAndWait(dock, modelFile("mixed.tflite")));
    HeldReader held;
    held.held = QStringLiteral("mixed.onnx");
    dock->setReader(held.reader());
    bool ended = false, endedOk = true;
    dock->openModel(modelFile("mixed.onnx"), [&](bool ok, const QString&) {
        ended = true;
        endedOk = ok;
    });
    QVERIFY(QTest::qWaitFor([&] { return held.state->started.load(); }, 60000));
    if (byEscape) {
        dock->filterField()->setFocus();
        QTRY_VERIFY(dock->filterField()->hasFocus());
        QTest::keyClick(dock->filterField(), Qt::Key_Escape);
    } else {
        QTest::mouseClick(dock->findChild<QPushButton*>(QStringLiteral("modelLoadingCancel")),
                          Qt::LeftButton);
    }
    QTRY_VERIFY_WITH_TIMEOUT(!dock->isLoading(), 60000);
    QVERIFY(held.state->sawCancel);
    QVERIFY(ended);
    QVERIFY(!endedOk);
    QVERIFY2(dock->message().contains(QStringLiteral("cancelled")), qPrintable(dock->message()));
    // The listing is the file before.
    QCOMPARE(dock->modelPath(), modelFile("mixed.tflite"));
    QCOMPARE(names(dock->table()), (QStringList{"y", "model/transpose", "model/gather"}));
    QVERIFY(!dock->findChild<QWidget*>(QStringLiteral("modelLoading"))->isVisibleTo(&w));
    QVERIFY(waitSettled(w, 60000));
}

void TestModelDock::secondModelReplacesTheFirst()
{
    MainWindow w;
    ModelDock* dock = w.docks()->model();
    HeldReader held;
    held.held = QStringLiteral("mixed.onnx");
    dock->setReader(held.reader());
    bool firstEnded = false;
    dock->openModel(modelFile("mixed.onnx"), [&](bool, const QString&) { firstEnded = true; });
    QVERIFY(QTest::qWaitFor([&] { return held.state->started.load(); }, 60000));
    QString error;
    QVERIFY2(openAndWait(dock, modelFile("mixed.tflite"), &error), qPrintable(error));
    QCOMPARE(dock->modelPath(), modelFile("mixed.tflite"));
    QCOMPARE(dock->table()->rowCount(), 3);
    // The first read was stopped, and nothing of it arrives later.
    QTRY_VERIFY_WITH_TIMEOUT(held.state->sawCancel.load(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(held.state->returned.load(), 60000);
    QCoreApplication::processEvents();
    QVERIFY(!firstEnded);
    QCOMPARE(dock->modelPath(), modelFile("mixed.tflite"));
    QVERIFY(!dock->isLoading());
}

// A node opened from one file, then another file listed: the workbench's caption names the
// node's own file (main said "Node rows of the model file", read as one of the file now listed;
// ONNX's node tests are all model.onnx, so it gives the whole path).
void TestModelDock::anOpenedNodeNamesItsFile()
{
    MainWindow w;
    QVERIFY(showSettled(w, {}, 60000));
    ModelDock* dock = w.docks()->model();
    QVERIFY(openAndWait(dock, modelFile("mixed.onnx")));
    QVERIFY(dock->openNode(dock->table()->rowOf(QStringLiteral("rows"))));
    QVERIFY(waitSettled(w, 60000));
    QVERIFY(openAndWait(dock, modelFile("mixed.tflite")));
    QVERIFY(waitSettled(w, 60000));
    QCOMPARE(w.workspace().title, QStringLiteral("rows (Slice)"));
    const QString caption = w.workspace().explanation;
    QVERIFY2(caption.startsWith(QStringLiteral("Node rows of ") +
                                QDir::toNativeSeparators(modelFile("mixed.onnx")) +
                                QStringLiteral(", ")),
             qPrintable(caption));
}

void TestModelDock::closingWhileLoadingStopsTheRead()
{
    HeldReader held;
    held.held = QStringLiteral("mixed.onnx");
    {
        auto w = std::make_unique<MainWindow>();
        w->show();
        w->docks()->model()->setReader(held.reader());
        w->docks()->model()->openModel(modelFile("mixed.onnx"));
        QVERIFY(QTest::qWaitFor([&] { return held.state->started.load(); }, 60000));
        QVERIFY(w->close());
    } // the window is gone while its file is read
    QTRY_VERIFY_WITH_TIMEOUT(held.state->sawCancel.load(), 60000);
    QVERIFY(held.state->returned);
    // A new window reads files as before (the pool was not left blocked).
    MainWindow again;
    QVERIFY(openAndWait(again.docks()->model(), modelFile("mixed.tflite")));
}

QTEST_MAIN(TestModelDock)
#include "tst_modeldock.moc"
