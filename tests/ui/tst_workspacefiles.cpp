// SPDX-License-Identifier: GPL-3.0-or-later
// Workspaces on disk: saved as one slicescope-cli request line, read back equal, runnable by
// the protocol; .npy files as inputs (autosave and recovery: tst_session).

// protocol/request.h comes before any Qt header: it has a member named `emit`, which Qt
// defines away as a macro.
// clang-format off
#include "protocol/request.h"
// clang-format on

#include "../engine/numpy_oracle.h"
#include "core/error.h"
#include "core/strings.h"
#include "npy_testing.h"
#include "protocol/json.h"
#include "protocol/npy.h"
#include "ui/model/workspacefile.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/workspacedocument.h"
#include "workbench_testing.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <cerrno>
#include <cstring>
#include <sys/mount.h>
#include <sys/stat.h>

using namespace ss;
using namespace ss::ui;
using ss::testing::waitSettled;

Q_DECLARE_METATYPE(ss::ui::Workspace)

namespace {

Workspace literalWorkspace()
{
    Workspace ws;
    ws.op = "strided_slice";
    InputSource literal;
    literal.fill = FillKind::Literal;
    literal.dtype = std::nullopt;
    literal.shape.clear();
    literal.literal = QStringLiteral("[[1.5, 2], [3, 4]]");
    ws.inputs = {{literal}};
    ws.attrs = {{"begin", Attr::ints({1})},
                {"end", Attr::ints({0})},
                {"strides", Attr::ints({-1})},
                {"end_mask", Attr(std::int64_t(1))}};
    ws.title = QStringLiteral("Backwards — with “quotes” and ünïcode");
    ws.explanation = QStringLiteral("Two lines\nof text.");
    return ws;
}

// The window's workspace written to a file in `dir` and read back.
Workspace savedAndReread(const MainWindow& w, const QTemporaryDir& dir)
{
    const QString saved = dir.filePath(QStringLiteral("w.slicescope.json"));
    writeWorkspaceFile(saved, w.workspace());
    return readWorkspaceFile(saved, Workspace{}, Limits{}, nullptr);
}

// The window's first output exported as .npy into `dir`, loaded by NumPy as `a`, and what
// `print(...)` of `printArgs` prints of it (trimmed); an export that fails gives its error.
QString exportedAsNumpyPrints(MainWindow& w, const QTemporaryDir& dir, const QString& printArgs)
{
    QStringList written;
    QString error;
    if (!w.document()->exportOutputs(dir.filePath(QStringLiteral("out")), &written, &error))
        return QStringLiteral("the export failed: ") + error;
    const QByteArray printed =
        ss::testing::runNumpy(QStringLiteral("import sys, numpy as np\n"
                                             "a = np.load(sys.stdin.read())\n"
                                             "print(%1)\n")
                                  .arg(printArgs),
                              written.front().toUtf8());
    return QString::fromUtf8(printed).trimmed();
}

} // namespace

class TestWorkspaceFiles : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { ss::testing::useCleanTestEnvironment(); }
    void roundTrip_data();
    void roundTrip();
    void savedFileIsARequestLine();
    void saveDialogGivesTheWorkspaceSuffix_data();
    void saveDialogGivesTheWorkspaceSuffix();
    void badFilesAreRefusedWithReasons_data();
    void badFilesAreRefusedWithReasons();
    void hostileFilesAreRefusedAtOnce_data();
    void hostileFilesAreRefusedAtOnce();
    void npyOpensAsTheInput();
    void stringFilesKeepTheirKind_data();
    void stringFilesKeepTheirKind();
    void bytesThatAreNotUtf8();
    void aFullDiskIsNamed();
    void fileDialogsStartInTheLastFolderUsed_data();
    void fileDialogsStartInTheLastFolderUsed();
};

void TestWorkspaceFiles::roundTrip_data()
{
    QTest::addColumn<Workspace>("workspace");
    QTest::newRow("default") << Workspace{};
    Workspace random =
        ss::testing::getitemWorkspace({4, 5, 6}, QStringLiteral("x[..., ::-2]"), DType::Float64);
    random.inputs[0][0].fill = FillKind::Random;
    random.inputs[0][0].seed = 1234;
    QTest::newRow("random float64") << random;
    QTest::newRow("literal, inferred dtype, lesson text") << literalWorkspace();
    Workspace cells;
    cells.inputs[0][0] = dataSource(makeFilled(DType::String, {2, 2}, Fill::Arange, 0, Limits{}));
    QTest::newRow("string cells") << cells;
}

void TestWorkspaceFiles::roundTrip()
{
    QFETCH(Workspace, workspace);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("w.json"));
    writeWorkspaceFile(path, workspace);
    const Workspace back = readWorkspaceFile(path, Workspace{}, Limits{});
    QCOMPARE(back.op, workspace.op);
    QCOMPARE(back.attrs, workspace.attrs);
    QCOMPARE(back.title, workspace.title);
    QCOMPARE(back.explanation, workspace.explanation);
    QCOMPARE(back.inputs.size(), workspace.inputs.size());
    const InputSource& a = workspace.inputs[0][0];
    const InputSource& b = back.inputs[0][0];
    QCOMPARE(b.fill, a.fill);
    QCOMPARE(b.dtype, a.dtype);
    QCOMPARE(b.seed, a.seed);
    if (a.fill == FillKind::Data)
        QVERIFY(b.data.identical(a.data));
    else if (a.fill == FillKind::Literal)
        QCOMPARE(b.literal, a.literal);
    else
        QCOMPARE(b.shape, a.shape);
}

void TestWorkspaceFiles::saveDialogGivesTheWorkspaceSuffix_data()
{
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QString>("saved");
    // The desktop file's MIME glob is *.slicescope.json: a bare name gets that suffix.
    QTest::newRow("bare name") << "mine"
                               << "mine.slicescope.json";
    QTest::newRow("suffix typed") << "mine.slicescope.json"
                                  << "mine.slicescope.json";
    QTest::newRow("plain json kept") << "mine.json"
                                     << "mine.json";
}

void TestWorkspaceFiles::saveDialogGivesTheWorkspaceSuffix()
{
    QFETCH(QString, typed);
    QFETCH(QString, saved);
    QTemporaryDir dir;
    MainWindow w;
    w.forgetSession();
    QVERIFY(w.openLesson(QStringLiteral("walkthrough")));
    w.show();
    QStringList filters;
    QString suggested;
    // The dialog is modal: it is answered from the event loop it runs.
    QTimer::singleShot(0, &w, [&] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        QCOMPARE(dialog->objectName(), QStringLiteral("saveDialog"));
        filters = dialog->nameFilters();
        suggested = dialog->selectedFiles().value(0);
        dialog->selectFile(dir.filePath(typed));
        static_cast<QDialog*>(dialog)->accept(); // protected in QFileDialog, public in QDialog
    });
    w.findChild<QAction*>(QStringLiteral("actionSave"))->trigger();
    QCOMPARE(filters, (QStringList{QStringLiteral("SliceScope workspace (*.slicescope.json)"),
                                   QStringLiteral("JSON (*.json)")}));
    QVERIFY2(suggested.endsWith(QStringLiteral("/walkthrough.slicescope.json")),
             qPrintable(suggested));
    QVERIFY2(QFile::exists(dir.filePath(saved)),
             qPrintable(QDir(dir.path()).entryList().join(u' ')));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);
    const Workspace back = readWorkspaceFile(dir.filePath(saved), Workspace{}, Limits{});
    QCOMPARE(back.title, w.workspace().title);
}

void TestWorkspaceFiles::savedFileIsARequestLine()
{
    MainWindow w;
    QVERIFY(w.openLesson(QStringLiteral("rows-and-steps")));
    QVERIFY(waitSettled(w));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("lesson.json"));
    QString error;
    QVERIFY2(w.saveFile(path, &error), qPrintable(error));
    QVERIFY(w.undoStack()->isClean());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    // One line: `slicescope-cli run lesson.json` answers it.
    QCOMPARE(bytes.count('\n'), 1);
    QVERIFY(bytes.endsWith('\n'));
    Executor executor(2);
    RequestHandler handler(executor, Limits{});
    const std::string response = handler.handleLine(bytes.trimmed().toStdString());
    const Json json = parseJson(response);
    QVERIFY2(json.find("ok")->toBool(), response.c_str());
    QCOMPARE(json.find("id")->find("title")->toString(), w.workspace().title.toStdString());
    const Json& output = json.find("outputs")->toArray().front();
    std::vector<std::int64_t> data;
    for (const Json& v : output.find("data")->toArray())
        data.push_back(v.toInt64());
    QCOMPARE(data, w.lastEvaluation()->outputs.front().toInt64Vector());
    QVERIFY(json.find("trace"));
}

void TestWorkspaceFiles::badFilesAreRefusedWithReasons_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("reason");
    QTest::newRow("not json") << QByteArray("{\"op\": ") << QStringLiteral("bad.json");
    QTest::newRow("unknown op") << QByteArray(R"({"op": "sliced", "inputs": {}})")
                                << QStringLiteral("unknown op");
    QTest::newRow("missing input") << QByteArray(R"({"op": "getitem", "attrs": {"expr": "x[0]"}})")
                                   << QStringLiteral("'input'");
    QTest::newRow("unknown member") << QByteArray(R"({"op": "getitem", "inputs": {}, "colour": 1})")
                                    << QStringLiteral("colour");
    QTest::newRow("ragged literal")
        << QByteArray(R"({"op": "getitem", "inputs": {"input": {"value": [[1, 2], [3]]}}})")
        << QStringLiteral("input 'input'");
    QTest::newRow("bad fill")
        << QByteArray(
               R"({"op": "getitem", "inputs": {"input": {"dtype": "int32", "shape": [2], "fill": "ramp"}}})")
        << QStringLiteral("ramp");
}

void TestWorkspaceFiles::badFilesAreRefusedWithReasons()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
    file.close();
    MainWindow w;
    const Workspace before = w.workspace();
    QString error;
    QVERIFY(!w.openFile(path, &error));
    QVERIFY2(error.contains(reason), qPrintable(error));
    QVERIFY(error.startsWith(QStringLiteral("bad.json")));
    QCOMPARE(w.workspace(), before);
}

void TestWorkspaceFiles::hostileFilesAreRefusedAtOnce_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("reason");
    QTest::newRow("FIFO workspace") << "fifo"
                                    << "w.json"
                                    << "it is a FIFO";
    QTest::newRow("FIFO .npy") << "fifo"
                               << "w.npy"
                               << "it is a FIFO";
    QTest::newRow("symlink to /dev/zero") << "zero"
                                          << "w.json"
                                          << "it is a character device";
    QTest::newRow("symlink to /dev/urandom, .npy") << "urandom"
                                                   << "w.npy"
                                                   << "it is a character device";
    QTest::newRow("sparse 200 GB workspace") << "huge"
                                             << "w.json"
                                             << "over the limit of";
    QTest::newRow("NUL in the path") << "nul"
                                     << "w.json"
                                     << "holds a NUL byte";
    // Issue 25: these aborted the window (an OpError thrown out of the views).
    QTest::newRow("overflowing input shape with a 0") << "shape"
                                                      << "w.json"
                                                      << "is too big: its sizes multiply past";
    QTest::newRow("transpose of one") << "transpose"
                                      << "w.json"
                                      << "is too big: its sizes multiply past";
    QTest::newRow("overflowing .npy header with a 0") << "npyshape"
                                                      << "w.npy"
                                                      << "is too big: its sizes multiply past";
}

// Devices, FIFOs, huge files and overflowing shapes: refused at once with the file's name and
// the reason, the window's workspace unchanged, and the file left as it was.
void TestWorkspaceFiles::hostileFilesAreRefusedAtOnce()
{
    QFETCH(QString, kind);
    QFETCH(QString, name);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    QString path = dir.filePath(name);
    const QByteArray local = QFile::encodeName(path);
    const auto write = [&](const QByteArray& bytes) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    };
    if (kind == "fifo") {
        QCOMPARE(mkfifo(local.constData(), 0600), 0);
    } else if (kind == "zero") {
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path));
    } else if (kind == "urandom") {
        QVERIFY(QFile::link(QStringLiteral("/dev/urandom"), path));
    } else if (kind == "huge") {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(qint64(200) << 30)); // sparse: no disk used
    } else if (kind == "nul") {
        write(R"({"op": "getitem", "inputs": {"input": {"value": 1}}})");
        path += QChar(0) + QStringLiteral("/etc/passwd");
    } else if (kind == "shape") {
        write(R"({"op": "getitem", "inputs": {"input": {"dtype": "int8", "shape": )"
              R"([4294967296, 4294967296, 0], "fill": "zeros"}}, "attrs": {"expr": "x[::-1]"}})");
    } else if (kind == "transpose") {
        write(R"({"op": "transpose", "inputs": {"a": {"dtype": "int8", "shape": )"
              R"([0, 4294967296, 4294967296], "fill": "zeros"}}, "attrs": {"perm": [2, 1, 0]}})");
    } else if (kind == "npyshape") {
        write(ss::testing::npyHeader("|i1", "(4611686018427387904, 4611686018427387904, 0)"));
    }
    QFileInfo before(path);
    const qint64 size = kind == "nul" ? 0 : before.size();
    MainWindow w;
    w.show();
    QVERIFY(waitSettled(w));
    const Workspace ws = w.workspace();
    QString error;
    QElapsedTimer timer;
    timer.start();
    QVERIFY(!w.openFile(path, &error));
    QVERIFY2(timer.elapsed() < 10000, "refused only after a long read");
    QVERIFY2(error.contains(reason), qPrintable(error));
    QVERIFY2(kind == "nul" || error.contains(name), qPrintable(error));
    QCOMPARE(w.workspace(), ws);
    QVERIFY(waitSettled(w));
    QVERIFY(w.isVisible());
    if (kind != "nul") QCOMPARE(QFileInfo(path).size(), size);
}

void TestWorkspaceFiles::npyOpensAsTheInput()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("x.npy"));
    const Tensor tensor = makeFilled(DType::Float32, {4, 3}, Fill::Random, 7, Limits{});
    writeNpyFile(path.toStdString(), tensor);
    MainWindow w;
    QString error;
    QVERIFY2(w.openFile(path, &error), qPrintable(error));
    QVERIFY(waitSettled(w));
    QCOMPARE(w.workspace().inputs[0][0].fill, FillKind::Data);
    QVERIFY(w.inputView(0)->model()->tensor().identical(tensor));
    QVERIFY(w.lastEvaluation()->ok);
    // A file that is not .npy data is refused, naming the file.
    QFile broken(dir.filePath(QStringLiteral("broken.npy")));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("\x93NUMPY garbage");
    broken.close();
    QVERIFY(!w.openFile(broken.fileName(), &error));
    // Once: the window said "broken.npy: '/tmp/.../broken.npy': not a .npy file".
    QVERIFY2(error.count(QStringLiteral("broken.npy")) == 1, qPrintable(error));
    QVERIFY2(error.startsWith(QLatin1Char('\'') + broken.fileName() + QStringLiteral("': ")),
             qPrintable(error));
}

// A '|S5' .npy is bytes in the window as in NumPy: its cells read b'...', an edit keeps bytes,
// a saved workspace reopens as bytes, and an exported output is '|S5' again, as NumPy's slice of
// it is, though its longest element has 3 bytes (it was '|S3'); '<U5' stays text of 5. A longer
// string typed in widens the type ('|S8'): NumPy would cut it to 5, which SliceScope does not.
// NumPy itself writes the file and reads the export.
void TestWorkspaceFiles::stringFilesKeepTheirKind_data()
{
    QTest::addColumn<QString>("descr");
    QTest::addColumn<QString>("shown");
    QTest::addColumn<QString>("edited");
    QTest::addColumn<QString>("exported");
    QTest::addColumn<QString>("box");
    QTest::newRow("bytes") << "|S5"
                           << "b'\\xc3\\xa9a'"
                           << "b'\\xc3\\x9f'"
                           << "|S5"
                           << "bytes";
    QTest::newRow("text") << "<U5"
                          << "'\u00e9a'"
                          << "'\u00df'"
                          << "<U5"
                          << "text";
}

void TestWorkspaceFiles::stringFilesKeepTheirKind()
{
    QFETCH(QString, descr);
    QFETCH(QString, shown);
    QFETCH(QString, edited);
    QFETCH(QString, exported);
    QFETCH(QString, box);
    const bool bytes = descr.startsWith(u'|');
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("x.npy"));
    ss::testing::runNumpy(
        QStringLiteral("import sys, numpy as np\n"
                       "path, descr = sys.stdin.read().split()\n"
                       "a = ['\\u00e9a', 'b', 'cd']\n"
                       "np.save(path, np.array([s.encode() for s in a] if descr[0] == '|' "
                       "else a, dtype=descr))\n"),
        (path + u' ' + descr).toUtf8());
    MainWindow w;
    QString error;
    QVERIFY2(w.openFile(path, &error), qPrintable(error));
    QVERIFY(waitSettled(w));
    TensorModel* model = w.inputView(0)->model();
    QCOMPARE(model->tensor().holdsBytes(), bytes);
    // The element type box says which strings NumPy holds them as.
    const auto* dtypeBox = w.findChild<QComboBox*>(QStringLiteral("input0DType"));
    QVERIFY(dtypeBox);
    QCOMPARE(dtypeBox->currentText(), box);
    QCOMPARE(model->indexOfFlat(0).data(Qt::DisplayRole).toString(), shown);
    QCOMPARE(model->indexOfFlat(0).data(Qt::EditRole).toString(), QStringLiteral("\u00e9a"));
    // Typed text is kept as its UTF-8 bytes.
    model->setData(model->indexOfFlat(0), QStringLiteral("\u00df"), Qt::EditRole);
    QVERIFY(waitSettled(w));
    QCOMPARE(model->indexOfFlat(0).data(Qt::DisplayRole).toString(), edited);
    QVERIFY(w.lastEvaluation()->ok);
    QCOMPARE(w.lastEvaluation()->outputs.front().holdsBytes(), bytes);

    const Workspace back = savedAndReread(w, dir);
    QCOMPARE(back.inputs[0][0].data.holdsBytes(), bytes);
    QCOMPARE(back.inputs[0][0].data.itemLength(), 5);
    QVERIFY(back.inputs[0][0].data.identical(w.workspace().inputs[0][0].data));

    // Python prints bytes as their repr, text as itself.
    const std::string& first = w.lastEvaluation()->outputs.front().data<std::string>()[0];
    QCOMPARE(exportedAsNumpyPrints(w, dir, QStringLiteral("a.dtype.str, a.ravel()[0]")),
             exported + u' ' +
                 QString::fromStdString(bytes ? pythonStringRepr(first, true) : first));

    // Every cell 8 long, so that the output holds one whatever it reads: the type widens.
    for (std::int64_t i = 0; i < model->tensor().size(); ++i) {
        model->setData(model->indexOfFlat(i), QStringLiteral("abcdefgh"), Qt::EditRole);
        QVERIFY(waitSettled(w));
    }
    QCOMPARE(exportedAsNumpyPrints(w, dir, QStringLiteral("a.dtype.str, a.ravel()[0]")),
             exported.left(2) + QStringLiteral("8 ") +
                 (bytes ? QStringLiteral("b'abcdefgh'") : QStringLiteral("abcdefgh")));
}

// Bytes that are not UTF-8 (NumPy reads and writes any) open as bytes, show as Python's repr,
// survive a workspace's JSON and are exported as they were. The window refused the file.
void TestWorkspaceFiles::bytesThatAreNotUtf8()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("x.npy"));
    ss::testing::runNumpy(QStringLiteral("import sys, numpy as np\n"
                                         "np.save(sys.stdin.read(), np.array([b'\\xff\\xfe', "
                                         "b'a\\x80'], dtype='S3'))\n"),
                          path.toUtf8());
    MainWindow w;
    QString error;
    QVERIFY2(w.openFile(path, &error), qPrintable(error));
    QVERIFY(waitSettled(w));
    TensorModel* model = w.inputView(0)->model();
    QCOMPARE(model->indexOfFlat(0).data(Qt::DisplayRole).toString(),
             QStringLiteral("b'\\xff\\xfe'"));
    // Strings are written as elements, in JSON.
    QVERIFY(savedAndReread(w, dir).inputs[0][0].data.identical(w.workspace().inputs[0][0].data));
    // A 1-D file opens with x[1:]: its last element, as long as the file's, as NumPy's x[1:]
    // of an 'S3' array is (it was '|S2', its longest element's).
    QCOMPARE(exportedAsNumpyPrints(w, dir, QStringLiteral("a.dtype.str, a.tolist()")),
             QStringLiteral("|S3 [b'a\\x80']"));
}

// Saving on a full disk says so (it read "Unknown error"). A 64 KiB tmpfs is the full disk;
// mounting one needs root, so elsewhere the test is skipped.
void TestWorkspaceFiles::aFullDiskIsNamed()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray mountPoint = QFile::encodeName(dir.path());
    if (mount("tmpfs", mountPoint.constData(), "tmpfs", 0, "size=64k") != 0)
        QSKIP(qPrintable(QStringLiteral("cannot mount a small tmpfs to fill (needs root): ") +
                         QString::fromLocal8Bit(std::strerror(errno))));
    Workspace big;
    big.inputs[0][0] = dataSource(makeFilled(DType::Int64, {30000}, Fill::Arange, 0, Limits{}));
    std::string message;
    try {
        writeWorkspaceFile(dir.filePath(QStringLiteral("w.slicescope.json")), big);
    } catch (const OpError& e) {
        message = e.what();
    }
    const QStringList left = QDir(dir.path()).entryList(QDir::Files | QDir::Hidden);
    umount(mountPoint.constData());
    QCOMPARE(QString::fromStdString(message),
             QStringLiteral("cannot write w.slicescope.json: No space left on device"));
    QVERIFY2(left.isEmpty(), qPrintable(left.join(' ')));
}

void TestWorkspaceFiles::fileDialogsStartInTheLastFolderUsed_data()
{
    QTest::addColumn<QString>("action");
    QTest::newRow("Open") << "actionOpen";
    QTest::newRow("Save As") << "actionSaveAs";
    QTest::newRow("Export Output") << "actionExportOutput";
    QTest::newRow("Export Image") << "actionExportImage";
}

// Every file dialog starts where the user last opened, saved or exported a file (remembered
// across runs): Export Output started in the folder the program was started in, Export Image in
// the home folder.
void TestWorkspaceFiles::fileDialogsStartInTheLastFolderUsed()
{
    QFETCH(QString, action);
    QTemporaryDir dir;
    const QString folder = QFileInfo(dir.path()).canonicalFilePath();
    const QString npy = dir.filePath(QStringLiteral("m.npy"));
    writeNpyFile(npy.toStdString(), makeFilled(DType::Int32, {3, 4}, Fill::Arange, 0, Limits{}));
    {
        MainWindow earlier;
        earlier.forgetSession();
        QString error;
        QVERIFY2(earlier.openFile(npy, &error), qPrintable(error));
    }
    MainWindow w; // a later run
    w.forgetSession();
    w.show();
    QVERIFY(waitSettled(w));
    QString shown;
    QTimer::singleShot(0, &w, [&] {
        QWidget* dialog = QApplication::activeModalWidget();
        QVERIFY(dialog);
        if (auto* files = qobject_cast<QFileDialog*>(dialog))
            shown = files->directory().canonicalPath();
        else if (auto* path = dialog->findChild<QLineEdit*>(QStringLiteral("exportPath")))
            shown = QFileInfo(QFileInfo(path->text()).absolutePath()).canonicalFilePath();
        static_cast<QDialog*>(dialog)->reject();
    });
    w.findChild<QAction*>(action)->trigger();
    QCOMPARE(shown, folder);
}

QTEST_MAIN(TestWorkspaceFiles)
#include "tst_workspacefiles.moc"
