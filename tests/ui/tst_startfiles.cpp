// SPDX-License-Identifier: GPL-3.0-or-later
// Files coming into the window: a start file that does not open says so in the window and
// does not let the default workspace pass for its data; .npy and workspace files dropped on
// the window open, a .npy dropped on an input replaces that input, a model file opens in the
// Model dock.
#include "core/error.h"
#include "core/op.h"
#include "npy_testing.h"
#include "protocol/npy.h"
#include "ui/model/engineclient.h"
#include "ui/model/modelnodetable.h"
#include "ui/model/workspacefile.h"
#include "ui/views/palette.h"
#include "ui/views/plaintext.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/commandline.h"
#include "ui/workbench/docksetup.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/messagestrip.h"
#include "ui/workbench/modeldock.h"
#include "ui/workbench/windowmessages.h"
#include "ui/workbench/workspacedocument.h"
#include "workbench_testing.h"

#include <QApplication>
#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QMimeData>
#include <QScrollArea>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QUrl>

using namespace ss;
using namespace ss::ui;
using ss::testing::getitemWorkspace;
using ss::testing::waitSettled;

namespace {

/// A version 1.0 .npy file as NumPy writes it, with any dtype descriptor.
QByteArray npyBytes(const QByteArray& descr, const QByteArray& shape, const QByteArray& data)
{
    return ss::testing::npyHeader(descr, shape) + data;
}

bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

/// Drags `path` over `target` (the centre of what is on screen of it) and drops it, through
/// Qt's own delivery from the widget under the pointer up to the one that accepts drops.
bool dropFile(QWidget* target, const QString& path)
{
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    // The window places its docks once it is laid out (a zero timer after show, then the
    // layout's own deferred pass): on a loaded machine a view can still be 0 px wide when the
    // evaluation has settled, and a drop needs a point on it.
    if (!QTest::qWaitFor([&] { return !target->visibleRegion().isEmpty(); }, 5000)) return false;
    const QRect shown = target->visibleRegion().boundingRect();
    const QPoint pos = shown.center();
    QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    if (!enter.isAccepted()) return false;
    QDropEvent drop(QPointF(pos), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &drop);
    return drop.isAccepted();
}

} // namespace

class TestStartFiles : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { ss::testing::useCleanTestEnvironment(); }
    void aBadStartFileIsShownInTheWindow_data();
    void aBadStartFileIsShownInTheWindow();
    void whatTheCommandLineOpensIsNoUndoStep_data();
    void whatTheCommandLineOpensIsNoUndoStep();
    void aFileOpensOnASpecOfItsRank();
    void aFileTooBigToCopyOpensWhole();
    void droppedFilesOpen();
    void aNpyDroppedOnAnInputReplacesIt();
    void aModelDroppedOpensInTheModelDock();
    void aModelDirectoryOpensItsModel();
};

void TestStartFiles::aBadStartFileIsShownInTheWindow_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("bytes");
    const QByteArray four(8, '\0');
    QTest::newRow("long double") << QStringLiteral("f128.npy")
                                 << npyBytes("<f16", "(1,)", QByteArray(16, '\0'));
    QTest::newRow("complex256") << QStringLiteral("c256.npy")
                                << npyBytes("<c32", "(1,)", QByteArray(32, '\0'));
    QTest::newRow("void") << QStringLiteral("v4.npy") << npyBytes("|V4", "(2,)", four);
    QTest::newRow("object") << QStringLiteral("object.npy") << npyBytes("|O", "(1,)", four);
    QTest::newRow("garbage") << QStringLiteral("garbage.npy") << QByteArray("not a npy file");
    QTest::newRow("truncated") << QStringLiteral("truncated.npy")
                               << npyBytes("<i4", "(100,)", QByteArray(40, '\1'));
    QTest::newRow("malformed workspace")
        << QStringLiteral("broken.slicescope.json") << QByteArray("{\"op\": \"getitem\", ");
    QTest::newRow("unknown op") << QStringLiteral("unknown.slicescope.json")
                                << QByteArray(R"({"op": "sliced", "inputs": {}})");
}

// `slicescope f16.npy` opened an "Untitled" window on the default int32 (3, 4) arange with an
// empty message strip; the reason was only on stderr.
void TestStartFiles::aBadStartFileIsShownInTheWindow()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    QVERIFY(writeBytes(path, bytes));
    QString reason;
    {
        MainWindow probe;
        probe.forgetSession();
        QVERIFY(!probe.openFile(path, &reason));
    }

    MainWindow w;
    StartOptions options;
    options.file = path;
    QString error;
    QVERIFY(prepareWindow(w, options, &error));
    QCOMPARE(error, reason);
    w.show();
    QVERIFY(waitSettled(w));
    QVERIFY(w.lastEvaluation() && w.lastEvaluation()->ok); // the default workspace's result
    // The result did not wipe the reason out: the file's name and what is wrong with it.
    const QString message = plainText(w.message());
    QVERIFY2(message.contains(reason), qPrintable(message));
    QVERIFY2(message.contains(name), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("Nothing was opened")), qPrintable(message));
    // The title does not pass the default workspace off as the file.
    QVERIFY2(w.windowTitle().contains(QStringLiteral("%1 could not be opened").arg(name)),
             qPrintable(w.windowTitle()));
    QVERIFY(w.filePath().isEmpty()); // Save never writes over the file that did not open
    QVERIFY(w.undoStack()->isClean());

    // The first edit is work on the window's own workspace: the notice has been read.
    w.setWorkspace(getitemWorkspace({2, 2}, QStringLiteral("x[0]")), QStringLiteral("t"));
    QVERIFY(waitSettled(w));
    QVERIFY2(w.message().isEmpty(), qPrintable(w.message()));
    QVERIFY2(!w.windowTitle().contains(QStringLiteral("could not")), qPrintable(w.windowTitle()));
}

void TestStartFiles::whatTheCommandLineOpensIsNoUndoStep_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expr");
    QTest::addColumn<QString>("shape");
    QTest::addColumn<QString>("lesson");
    QTest::newRow("--expr") << ""
                            << "x[::2]"
                            << ""
                            << "";
    QTest::newRow("--shape") << ""
                             << ""
                             << "4, 5"
                             << "";
    QTest::newRow("a .npy") << "v.npy"
                            << ""
                            << ""
                            << "";
    QTest::newRow("a .npy and --expr") << "v.npy"
                                       << "x[::-1]"
                                       << ""
                                       << "";
    QTest::newRow("a lesson and --expr") << ""
                                         << "x[0]"
                                         << ""
                                         << "clamping";
}

// The start is where the history begins: Edit > Undo offered "Undo Start" (--expr) or "Undo Open
// v.npy", back to a default workspace nobody asked for, and a .npy left the title's unsaved mark.
void TestStartFiles::whatTheCommandLineOpensIsNoUndoStep()
{
    QFETCH(QString, file);
    QFETCH(QString, expr);
    QFETCH(QString, shape);
    QFETCH(QString, lesson);
    QTemporaryDir dir;
    StartOptions options;
    if (!file.isEmpty()) {
        options.file = dir.filePath(file);
        QVERIFY(writeBytes(options.file, npyBytes("<i4", "(2, 3)", QByteArray(24, '\1'))));
    }
    options.expr = expr;
    options.shape = shape;
    options.lesson = lesson;
    MainWindow w;
    QString error;
    QVERIFY2(prepareWindow(w, options, &error), qPrintable(error));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    w.show();
    QVERIFY(waitSettled(w));
    QVERIFY2(w.lastEvaluation() && w.lastEvaluation()->ok, qPrintable(w.message()));
    if (!expr.isEmpty())
        QCOMPARE(QString::fromStdString(w.workspace().attrs.at("expr").toString()), expr);
    if (!file.isEmpty())
        QCOMPARE(w.lastEvaluation()->inputs.front().front().shape(), (Shape{2, 3}));
    QVERIFY2(!w.undoStack()->canUndo(), qPrintable(w.undoStack()->undoText()));
    QVERIFY(w.undoStack()->isClean());
    QVERIFY(!w.isWindowModified());
}

// `slicescope vector.npy` opened on the default x[1:, ::-1] and said "Index out of range using
// input dim 1" at once: the spec is cut to the file's rank, at the start and by File > Open.
void TestStartFiles::aFileOpensOnASpecOfItsRank()
{
    QTemporaryDir dir;
    StartOptions options;
    options.file = dir.filePath(QStringLiteral("vector.npy"));
    QVERIFY(writeBytes(options.file, npyBytes("<i4", "(6,)", QByteArray(24, '\1'))));
    MainWindow w;
    QString error;
    QVERIFY2(prepareWindow(w, options, &error), qPrintable(error));
    w.show();
    QVERIFY(waitSettled(w));
    QVERIFY2(w.lastEvaluation() && w.lastEvaluation()->ok, qPrintable(w.message()));
    QCOMPARE(QString::fromStdString(w.workspace().attrs.at("expr").toString()),
             QStringLiteral("x[1:]"));
    QCOMPARE(w.lastEvaluation()->outputs.front().shape(), (Shape{5}));

    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[0, ::-1]")), QStringLiteral("t"));
    QVERIFY2(w.openFile(options.file, &error), qPrintable(error));
    QVERIFY(waitSettled(w));
    QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.message()));
    QCOMPARE(QString::fromStdString(w.workspace().attrs.at("expr").toString()),
             QStringLiteral("x[0]"));
}

// `slicescope big.npy` (4 x 10^9 float32) opened on the default x[1:, ::-1] and showed nothing
// but the engine's refusal of a copy that big: it opens on x[...], the file itself, and the
// message strip says why until the next edit. 2^18 float32 (1 MiB, mapped) under 10^5 elements.
void TestStartFiles::aFileTooBigToCopyOpensWhole()
{
    QTemporaryDir dir;
    StartOptions options;
    options.file = dir.filePath(QStringLiteral("big.npy"));
    QVERIFY(writeBytes(options.file, npyBytes("<f4", "(512, 512)", QByteArray(1 << 20, '\1'))));
    MainWindow w;
    Limits limits = w.engine()->limits();
    limits.maxElements = 100000;
    w.engine()->setLimits(limits);
    QString error;
    w.resize(1024, 700);
    QVERIFY2(prepareWindow(w, options, &error), qPrintable(error));
    w.show();
    QVERIFY(waitSettled(w));
    QVERIFY2(w.lastEvaluation() && w.lastEvaluation()->ok, qPrintable(w.message()));
    QCOMPARE(QString::fromStdString(w.workspace().attrs.at("expr").toString()),
             QStringLiteral("x[...]"));
    // The note says why the file is not on the spec the window had: whole, as a start error is.
    const auto* strip = w.findChild<MessageStrip*>(QStringLiteral("messageStrip"));
    QTRY_VERIFY2(!strip->isElided(), qPrintable(strip->text()));
    // A note, not an error: the notice tint, and named so (it showed red, as "Error message").
    QCOMPARE(strip->kind(), MessageStrip::Kind::Note);
    QCOMPARE(strip->background(), roleColor(ColorRole::NoticeTint));
    QCOMPARE(strip->accessibleName(), QStringLiteral("Note"));
    QCOMPARE(w.lastEvaluation()->outputs.front().shape(), (Shape{512, 512}));
    QVERIFY2(w.message().contains(QStringLiteral("The file opens on x[...], a view of its pages "
                                                 "that copies nothing: the spec it would have "
                                                 "opened on, x[1:, ::-1], cannot be shown")),
             qPrintable(w.message()));

    Workspace next = w.workspace();
    next.attrs["expr"] = Attr(std::string("x[:100]"));
    w.document()->edit(next, QStringLiteral("expr"));
    QVERIFY(waitSettled(w));
    QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.message()));
    QCOMPARE(w.message(), QString());
}

void TestStartFiles::droppedFilesOpen()
{
    QTemporaryDir dir;
    const QString npy = dir.filePath(QStringLiteral("x.npy"));
    const Tensor tensor = makeFilled(DType::Float32, {4, 3}, Fill::Random, 7, Limits{});
    writeNpyFile(npy.toStdString(), tensor);
    Workspace saved = getitemWorkspace({5, 2}, QStringLiteral("x[::2]"));
    saved.title = QStringLiteral("Dropped");
    const QString json = dir.filePath(QStringLiteral("w.slicescope.json"));
    writeWorkspaceFile(json, saved);
    const QString text = dir.filePath(QStringLiteral("notes.txt"));
    QVERIFY(writeBytes(text, "hello"));

    MainWindow w;
    w.forgetSession();
    w.show();
    QVERIFY(waitSettled(w));
    // Not a file the window opens: refused at the door.
    QVERIFY(!dropFile(w.outputView(0), text));

    // A .npy anywhere but an input: the first input, as File > Open does (one undo step).
    QVERIFY(dropFile(w.outputView(0), npy));
    QTRY_COMPARE(w.workspace().inputs[0][0].fill, FillKind::Data);
    QVERIFY(w.workspace().inputs[0][0].data.identical(tensor));
    QVERIFY(waitSettled(w));
    QVERIFY(w.lastEvaluation()->ok);
    QVERIFY(w.undoStack()->canUndo());

    // A workspace replaces the window's, after "Save changes?".
    int asked = 0;
    w.files()->setSavePrompt([&](const QString&) {
        ++asked;
        return MainWindow::SaveChoice::Discard;
    });
    QVERIFY(dropFile(w.outputView(0), json));
    QTRY_COMPARE(w.filePath(), QFileInfo(json).absoluteFilePath());
    QCOMPARE(asked, 1);
    QCOMPARE(w.workspace(), readWorkspaceFile(json, Workspace{}, Limits{}));
    QVERIFY(w.undoStack()->isClean());

    // A file that does not open says why in the window.
    const QString bad = dir.filePath(QStringLiteral("bad.npy"));
    QVERIFY(writeBytes(bad, "garbage"));
    QVERIFY(dropFile(w.outputView(0), bad));
    QTRY_VERIFY(w.message().contains(QStringLiteral("bad.npy")));
    QCOMPARE(w.filePath(), QFileInfo(json).absoluteFilePath());
}

void TestStartFiles::aNpyDroppedOnAnInputReplacesIt()
{
    QTemporaryDir dir;
    const QString npy = dir.filePath(QStringLiteral("values.npy"));
    const Tensor tensor = makeFilled(DType::Int32, {2, 3}, Fill::Ones, 0, Limits{});
    writeNpyFile(npy.toStdString(), tensor);
    MainWindow w;
    w.forgetSession();
    // concat: one list input, two tensors, so the drop must find the right entry.
    w.setWorkspace(switchOp(w.workspace(), *findOp("concat")), QStringLiteral("t"));
    w.show();
    QVERIFY(waitSettled(w));
    QVERIFY(w.workspace().inputs.size() >= 1 && w.workspace().inputs[0].size() >= 2);
    const InputSource first = w.workspace().inputs[0][0];
    w.findChild<QScrollArea*>(QStringLiteral("inputScroll"))->ensureWidgetVisible(w.inputView(1));
    QVERIFY(dropFile(w.inputView(1), npy));
    QTRY_COMPARE(w.workspace().inputs[0][1].fill, FillKind::Data);
    QVERIFY(w.workspace().inputs[0][1].data.identical(tensor));
    QCOMPARE(w.workspace().inputs[0][0], first);
    QVERIFY(waitSettled(w));
    QVERIFY(w.inputView(1)->model()->tensor().identical(tensor));
    QVERIFY2(w.undoStack()->undoText().contains(QStringLiteral("values.npy")),
             qPrintable(w.undoStack()->undoText()));
}

void TestStartFiles::aModelDroppedOpensInTheModelDock()
{
    QTemporaryDir dir;
    const QString pbtxt = dir.filePath(QStringLiteral("graph.pbtxt"));
    QVERIFY(writeBytes(pbtxt, "node { name: \"b\" op: \"Const\" attr { key: \"value\" value { "
                              "tensor { dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: "
                              "1 } } } }\nnode { name: \"cut\" op: \"Slice\" input: \"x\" "
                              "input: \"b\" input: \"b\" attr { key: \"T\" value { type: "
                              "DT_FLOAT } } }\n"));
    const QString bad = dir.filePath(QStringLiteral("bad.tflite"));
    QVERIFY(writeBytes(bad, "not a flatbuffer"));

    MainWindow w;
    w.forgetSession();
    w.show();
    QVERIFY(waitSettled(w));
    ModelDock* dock = w.docks()->model();
    const Workspace before = w.workspace();
    const int steps = w.undoStack()->count();
    // As File > Open Model... does: listed in the Model dock; the workspace is untouched.
    const QString onnx = QFINDTESTDATA("models/mixed.onnx");
    QVERIFY(dropFile(w.outputView(0), onnx));
    QTRY_COMPARE(dock->modelPath(), onnx);
    QTRY_VERIFY(!dock->isLoading());
    QVERIFY(dock->isVisible());
    QVERIFY(!dock->table()->file().nodes.empty());
    QVERIFY(dropFile(w.outputView(0), pbtxt));
    QTRY_COMPARE(dock->modelPath(), pbtxt);
    QTRY_VERIFY(!dock->isLoading());
    QCOMPARE(dock->table()->file().nodes.size(), std::size_t(1));
    QCOMPARE(dock->table()->file().nodes[0].name, std::string("cut"));
    QCOMPARE(w.workspace(), before);
    QCOMPARE(w.undoStack()->count(), steps);
    // One that does not read says why in the window, and the listing stays.
    QVERIFY(dropFile(w.outputView(0), bad));
    QTRY_VERIFY2(w.message().contains(QStringLiteral("bad.tflite")), qPrintable(w.message()));
    QCOMPARE(dock->modelPath(), pbtxt);
}

// `slicescope DIR` of a TensorFlow SavedModel (as tf.saved_model.save writes it) opens its
// saved_model.pb in the Model dock; a directory with no model says what it looked for. Both
// were "cannot read 'DIR': it is a directory".
void TestStartFiles::aModelDirectoryOpensItsModel()
{
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("saved/variables")));
    const QString saved = dir.filePath(QStringLiteral("saved"));
    QVERIFY(writeBytes(saved + QStringLiteral("/saved_model.pbtxt"),
                       "saved_model_schema_version: 1\nmeta_graphs { graph_def { node { name: "
                       "\"x\" op: \"Placeholder\" } node { name: \"cut\" op: \"Reverse"
                       "V2\" input: \"x\" input: \"x\" } } }\n"));
    MainWindow w;
    StartOptions options;
    options.file = saved;
    QString error;
    QVERIFY2(prepareWindow(w, options, &error), qPrintable(error));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    ModelDock* dock = w.docks()->model();
    QTRY_VERIFY(!dock->isLoading());
    QCOMPARE(dock->modelPath(), saved + QStringLiteral("/saved_model.pbtxt"));
    QCOMPARE(w.messages()->fileStartError(), QString());

    MainWindow empty;
    options.file = dir.filePath(QStringLiteral("saved/variables"));
    QVERIFY(prepareWindow(empty, options, &error));
    QVERIFY2(error.contains(QStringLiteral("saved_model.pb")), qPrintable(error));
    QVERIFY2(empty.message().contains(QStringLiteral("variables")), qPrintable(empty.message()));
}

QTEST_MAIN(TestStartFiles)
#include "tst_startfiles.moc"
