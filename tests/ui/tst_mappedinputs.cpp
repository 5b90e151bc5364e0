// SPDX-License-Identifier: GPL-3.0-or-later
// .npy inputs in the workbench are the file itself, mapped read-only, whether File > Open opened
// it or a workspace names it: never written (an edit of a cell copies the tensor first, within the
// memory free now), saved as its elements or, over 16 MiB, as a reference to the file, and a file
// truncated or changed under the window is an error in the window's message strip, never SIGBUS.
#include "core/mapped_file.h"
#include "core/memory_budget.h"
#include "npy_testing.h"
#include "protocol/npy.h"
#include "ui/model/workspacefile.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/inputcelledit.h"
#include "ui/workbench/workspacedocument.h"
#include "workbench_testing.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

namespace {

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll();
}

bool writeText(const QString& path, const QByteArray& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

// 640 x 512 float32, 1.25 MiB: files of 1 MiB and more whose layout allows it are mapped.
Tensor fileTensor()
{
    return makeFilled(DType::Float32, {640, 512}, Fill::Arange, 0, Limits{});
}

// Opens `npy` in `w` as `how` says: "open" (File > Open of the .npy) or "workspace" (File > Open
// of a workspace whose input names the file).
bool openAs(MainWindow& w, const QString& how, const QString& npy, const QTemporaryDir& dir)
{
    QString error;
    QString path = npy;
    if (how == QLatin1String("workspace")) {
        path = dir.filePath(QStringLiteral("w.json"));
        if (!writeText(path, R"({"op": "getitem", "inputs": {"input": {"npy": ")" +
                                 QFile::encodeName(npy) +
                                 R"("}}, "attrs": {"expr": "x[1:, ::-1]"}})"))
            return false;
    }
    if (!w.openFile(path, &error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    return waitSettled(w);
}

void setExpr(MainWindow& w, const std::string& expr)
{
    Workspace next = w.workspace();
    next.attrs["expr"] = Attr(expr);
    w.document()->edit(next, QStringLiteral("expr"));
}

// A line of /proc/self/status in bytes ("RssAnon", "RssFile"), or -1.
std::int64_t statusBytes(const QByteArray& key)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly)) return -1;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith(key + ':'))
            return line.mid(key.size() + 1).trimmed().split(' ').front().toLongLong() * 1024;
    return -1;
}

} // namespace

class TestMappedInputs : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { ss::testing::useCleanTestEnvironment(); }
    void aFileInputIsMappedAndNeverWritten_data();
    void aFileInputIsMappedAndNeverWritten();
    void anEditThatDoesNotFitIsRefused();
    void aFileChangedUnderTheWindowIsAnErrorInIt_data();
    void aFileChangedUnderTheWindowIsAnErrorInIt();
    void aBigFileInputIsSavedAsTheFile();
    void aFileBiggerThanMemoryIsShownFromSamples();
    void aFileOfMoreThan2To31ElementsIsShownWhole();
};

void TestMappedInputs::aFileInputIsMappedAndNeverWritten_data()
{
    QTest::addColumn<QString>("how");
    QTest::newRow("File > Open of the .npy") << "open";
    QTest::newRow("a workspace naming the .npy") << "workspace";
}

void TestMappedInputs::aFileInputIsMappedAndNeverWritten()
{
    QFETCH(QString, how);
    QTemporaryDir dir;
    const QString npy = dir.filePath(QStringLiteral("x.npy"));
    const Tensor tensor = fileTensor();
    writeNpyFile(QFile::encodeName(npy).toStdString(), tensor);
    const QByteArray before = fileBytes(npy);
    MainWindow w;
    w.forgetSession();
    QVERIFY(openAs(w, how, npy, dir));
    QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.lastEvaluation()->message));
    const Tensor input = w.workspace().inputs[0][0].data;
    QVERIFY(isMappedFile(input.raw()));
    QVERIFY(input.identical(tensor));

    // Saved as its 327680 elements (1.25 MiB, under kMappedInputEmbedBytes: the workspace holds
    // its data), and read back as the same tensor.
    const QString saved = dir.filePath(QStringLiteral("saved.json"));
    QString error;
    QVERIFY2(w.saveFile(saved, &error, true), qPrintable(error));
    const QByteArray text = fileBytes(saved);
    QVERIFY2(!text.contains(R"("npy")"), text.left(300).constData());
    QVERIFY(readWorkspaceFile(saved, Workspace{}, w.engine()->limits())
                .inputs[0][0]
                .data.identical(tensor));

    // An edit of a cell copies the tensor: the file and the mapped tensor stay as they were.
    const QString refused = InputCellEdit::apply(*w.document(), 0, input, 5, QStringLiteral("-1.5"),
                                                 w.engine()->limits());
    QVERIFY2(refused.isEmpty(), qPrintable(refused));
    QVERIFY(waitSettled(w));
    QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.lastEvaluation()->message));
    const Tensor edited = w.workspace().inputs[0][0].data;
    QVERIFY(!isMappedFile(edited.raw()));
    QCOMPARE(edited.data<float>()[5], -1.5f);
    QCOMPARE(input.data<float>()[5], 5.0f);
    QCOMPARE(fileBytes(npy), before);
}

// The copy an edit makes is an allocation like any other: one that does not fit is refused
// before it is made, with the reason, and the input stays the file.
void TestMappedInputs::anEditThatDoesNotFitIsRefused()
{
    QTemporaryDir dir;
    const QString npy = dir.filePath(QStringLiteral("x.npy"));
    writeNpyFile(QFile::encodeName(npy).toStdString(), fileTensor());
    MainWindow w;
    w.forgetSession();
    QVERIFY(openAs(w, QStringLiteral("open"), npy, dir));
    const Tensor input = w.workspace().inputs[0][0].data;
    QVERIFY(isMappedFile(input.raw()));
    const QString refused = InputCellEdit::apply(*w.document(), 0, input, 5, QStringLiteral("-1.5"),
                                                 withMaxBytes(w.engine()->limits(), 1000000));
    QVERIFY2(refused.startsWith(QStringLiteral("Cannot edit [0, 5]: ")), qPrintable(refused));
    QVERIFY2(refused.contains(QStringLiteral("the --max-bytes limit")), qPrintable(refused));
    QCOMPARE(w.workspace().inputs[0][0].data.raw(), input.raw());
}

void TestMappedInputs::aFileChangedUnderTheWindowIsAnErrorInIt_data()
{
    QTest::addColumn<bool>("truncate");
    QTest::addColumn<QString>("said");
    QTest::newRow("truncated") << true << "x.npy' was truncated while it was being read";
    QTest::newRow("rewritten, same size") << false << "x.npy' was changed while it was being read";
}

void TestMappedInputs::aFileChangedUnderTheWindowIsAnErrorInIt()
{
    QFETCH(bool, truncate);
    QFETCH(QString, said);
    QTemporaryDir dir;
    const QString npy = dir.filePath(QStringLiteral("x.npy"));
    writeNpyFile(QFile::encodeName(npy).toStdString(), fileTensor());
    MainWindow w;
    w.forgetSession();
    QVERIFY(openAs(w, QStringLiteral("open"), npy, dir));
    QVERIFY(w.lastEvaluation()->ok);
    if (truncate) {
        QVERIFY(QFile::resize(npy, 4096));
    } else {
        // Another program writes the file anew: the same size, a later modification time.
        const QDateTime was = QFileInfo(npy).lastModified();
        QVERIFY(writeText(npy, fileBytes(npy)));
        QFile f(npy);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.setFileTime(was.addSecs(2), QFileDevice::FileModificationTime));
    }
    // The next evaluation reads every element (a reversal of the whole input): the truncated
    // pages are zero-filled under the read and the evaluation is refused, naming the file.
    setExpr(w, "x[::-1, ::-1]");
    QVERIFY(waitSettled(w));
    QVERIFY(!w.lastEvaluation()->ok);
    QVERIFY2(w.message().contains(said), qPrintable(w.message()));
    // Saving would write a reference to a file that no longer holds the input: refused.
    QString error;
    QVERIFY(!w.saveFile(dir.filePath(QStringLiteral("saved.json")), &error, true));
    QVERIFY2(error.contains(said), qPrintable(error));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("saved.json"))));
}

// An input mapped from a file over kMappedInputEmbedBytes is saved as the file's name: a
// workspace of a file bigger than memory would not fit in memory as text.
void TestMappedInputs::aBigFileInputIsSavedAsTheFile()
{
    QTemporaryDir dir;
    const QString npy = dir.filePath(QStringLiteral("big.npy"));
    QVERIFY(writeSparseNpy(npy, "<f4", "(2048, 2560)", 2048 * 2560 * 4)); // 20 MiB of zeros
    QVERIFY(QFileInfo(npy).size() > kMappedInputEmbedBytes);
    MainWindow w;
    w.forgetSession();
    QVERIFY(openAs(w, QStringLiteral("open"), npy, dir));
    QVERIFY(isMappedFile(w.workspace().inputs[0][0].data.raw()));
    const QString saved = dir.filePath(QStringLiteral("saved.json"));
    QString error;
    QVERIFY2(w.saveFile(saved, &error, true), qPrintable(error));
    const QByteArray text = fileBytes(saved);
    QVERIFY2(text.size() < 1000, text.left(300).constData());
    QVERIFY2(text.contains(R"({"npy":")" + QFile::encodeName(npy) + R"("})"), text.constData());
    const Tensor back =
        readWorkspaceFile(saved, Workspace{}, w.engine()->limits()).inputs[0][0].data;
    QCOMPARE(back.shape(), (Shape{2048, 2560}));
}

// A tensor bigger than memory opens and is sliced where it lies: the input's heat map is drawn
// from samples of it (heatmap.h), the strided slice reads only its elements, and neither is
// memory the window allocates. Here 2 GiB of float32 in a sparse file; SLICESCOPE_BIG_NPY names
// a bigger float32 file of rank 2 to run the same on, with the times printed (16 GB: issue 24's
// figures).
void TestMappedInputs::aFileBiggerThanMemoryIsShownFromSamples()
{
    QTemporaryDir dir;
    QString npy = qEnvironmentVariable("SLICESCOPE_BIG_NPY");
    if (npy.isEmpty()) {
        npy = dir.filePath(QStringLiteral("big.npy"));
        QVERIFY(writeSparseNpy(npy, "<f4", "(32768, 16384)", qint64(32768) * 16384 * 4));
    }
    const std::int64_t fileBytes = QFileInfo(npy).size();
    MainWindow w;
    w.forgetSession();
    w.resize(1200, 800);
    w.show();
    // A small slice first, so that opening the file makes nothing of its size.
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[0, :5]")), QStringLiteral("t"));
    QVERIFY(waitSettled(w));
    const std::int64_t anon = statusBytes("RssAnon");
    const std::int64_t file = statusBytes("RssFile");
    QElapsedTimer timer;
    timer.start();
    QString error;
    QVERIFY2(w.openFile(npy, &error), qPrintable(error));
    QVERIFY(waitSettled(w, 120000));
    const qint64 openMs = timer.elapsed();
    QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.lastEvaluation()->message));
    const Tensor input = w.workspace().inputs[0][0].data;
    QVERIFY(isMappedFile(input.raw()));
    QCOMPARE(input.rank(), 2);
    QVERIFY(w.inputView(0)->isHeatMap());

    timer.restart();
    setExpr(w, "x[::1000, ::-7]");
    QVERIFY(waitSettled(w, 120000));
    const qint64 sliceMs = timer.elapsed();
    QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.lastEvaluation()->message));
    const Shape want{(input.shape()[0] + 999) / 1000, (input.shape()[1] + 6) / 7};
    QCOMPARE(w.lastEvaluation()->outputs.front().shape(), want);
    const std::int64_t anonGrowth = statusBytes("RssAnon") - anon;
    const std::int64_t fileGrowth = statusBytes("RssFile") - file;
    qInfo("%s (%lld bytes): opened with its heat map in %lld ms, x[::1000, ::-7] in %lld ms; "
          "RssAnon +%lld MB, RssFile +%lld MB",
          qPrintable(npy), qlonglong(fileBytes), qlonglong(openMs), qlonglong(sliceMs),
          qlonglong(anonGrowth >> 20), qlonglong(fileGrowth >> 20));
    // The window allocated little beside the output (a few megabytes); a heat map that read every
    // element would have brought the whole file in (RssFile), one of its own copy would be
    // anonymous memory.
    QVERIFY2(anonGrowth < 512 << 20, qPrintable(QString::number(anonGrowth)));
    QVERIFY2(fileGrowth < fileBytes / 4, qPrintable(QString::number(fileGrowth)));
}

// A file of more elements than 32 bits number opens whole (x[...], a view of its pages), both
// views show it, and where each element is read, past 2^31, is coloured and told. With 32-bit
// read positions it opened on its first 65534 rows. 65536 x 32769 int8 (2^31 + 2^16 elements),
// sparse.
void TestMappedInputs::aFileOfMoreThan2To31ElementsIsShownWhole()
{
    constexpr std::int64_t rows = 65536, cols = 32769, size = rows * cols;
    QTemporaryDir dir;
    const QString npy = dir.filePath(QStringLiteral("big.npy"));
    QVERIFY(writeSparseNpy(npy, "|i1", "(65536, 32769)", size));
    MainWindow w;
    w.forgetSession();
    w.resize(1200, 800);
    w.show();
    QString error;
    QVERIFY2(w.openFile(npy, &error), qPrintable(error));
    QVERIFY(waitSettled(w, 120000));
    QCOMPARE(QString::fromStdString(w.workspace().attrs.at("expr").toString()),
             QStringLiteral("x[...]"));
    QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.lastEvaluation()->message));
    TensorView* input = w.inputView(0);
    TensorView* output = w.outputView(0);
    QVERIFY(input->isHeatMap());
    QVERIFY(output->isHeatMap());
    QCOMPARE(output->model()->tensor().size(), size);
    for (TensorView* view : {input, output}) {
        QCOMPARE(view->model()->readOrderAt(size - 1), size - 1);
        QCOMPARE(view->selection().selected, size);
        QCOMPARE(view->selection().last, size - 1);
    }
    // The hover's words: the input's last element is read last.
    const QString told = input->elementToolTip(size - 1);
    QVERIFY2(told.contains(QStringLiteral("is read %1th").arg(size)), qPrintable(told));
}

QTEST_MAIN(TestMappedInputs)
#include "tst_mappedinputs.moc"
