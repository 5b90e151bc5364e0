// SPDX-License-Identifier: GPL-3.0-or-later
// The read-order animation: ApngWriter's files decoded chunk by chunk (signature, CRCs, sequence
// numbers, frame count, delays) and their frames rebuilt and compared with what was written; the
// frames of a view light its cells one by one in read order; large selections are grouped;
// numbered frames; errors; `slicescope --export-animation`.
#include "ui/views/apngwriter.h"
#include "ui/views/palette.h"
#include "ui/views/readorderanimation.h"
#include "ui/workbench/exportdialog.h"
#include "ui/workbench/imageexporter.h"
#include "ui/workbench/mainwindow.h"
#include "workbench_testing.h"

#include <QBuffer>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QProcess>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

namespace {

struct DecodedFrame
{
    QRect region;
    int delayMs = 0;
    QImage image; ///< the whole canvas after this frame
};

/// A strict APNG reader for the files ApngWriter makes: every chunk's CRC, the sequence numbers
/// 0, 1, 2, ... over fcTL and fdAT, acTL's frame count; frames rebuilt by wrapping each frame's
/// data as a PNG of its own and drawing it over the canvas (dispose none, blend source).
bool decodeApng(const QByteArray& file, std::vector<DecodedFrame>* frames, QString* why)
{
    const auto fail = [&](const QString& s) {
        *why = s;
        return false;
    };
    if (!file.startsWith(QByteArray("\x89PNG\r\n\x1a\n", 8)))
        return fail(QStringLiteral("signature"));
    QByteArray ihdr;
    std::uint32_t announced = 0, sequence = 0;
    QImage canvas;
    DecodedFrame pending;
    bool havePending = false;
    QByteArray data;
    const auto flush = [&]() -> bool {
        if (!havePending) return true;
        QByteArray header = ihdr;
        qToBigEndian(std::uint32_t(pending.region.width()), header.data());
        qToBigEndian(std::uint32_t(pending.region.height()), header.data() + 4);
        QByteArray png("\x89PNG\r\n\x1a\n", 8);
        const auto chunk = [&](const char* type, const QByteArray& body) {
            char len[4];
            qToBigEndian(std::uint32_t(body.size()), len);
            png.append(len, 4);
            const QByteArray typed = QByteArray(type, 4) + body;
            png += typed;
            char crc[4];
            qToBigEndian(ApngWriter::crc32(typed), crc);
            png.append(crc, 4);
        };
        chunk("IHDR", header);
        chunk("IDAT", data);
        chunk("IEND", {});
        QImage part;
        if (!part.loadFromData(png, "PNG")) return false;
        QPainter p(&canvas);
        p.setCompositionMode(QPainter::CompositionMode_Source);
        p.drawImage(pending.region.topLeft(), part);
        p.end();
        pending.image = canvas.copy();
        frames->push_back(pending);
        data.clear();
        havePending = false;
        return true;
    };
    qsizetype pos = 8;
    while (pos + 12 <= file.size()) {
        const auto length = qFromBigEndian<std::uint32_t>(file.constData() + pos);
        const QByteArray type = file.mid(pos + 4, 4);
        const QByteArray body = file.mid(pos + 8, qsizetype(length));
        const auto crc = qFromBigEndian<std::uint32_t>(file.constData() + pos + 8 + length);
        if (ApngWriter::crc32(type + body) != crc) return fail(QStringLiteral("CRC of ") + type);
        pos += 12 + qsizetype(length);
        if (type == "IHDR") {
            ihdr = body;
            canvas =
                QImage(qFromBigEndian<std::uint32_t>(body.constData()),
                       qFromBigEndian<std::uint32_t>(body.constData() + 4), QImage::Format_RGB32);
            canvas.fill(Qt::black);
        } else if (type == "acTL") {
            announced = qFromBigEndian<std::uint32_t>(body.constData());
        } else if (type == "fcTL") {
            if (!flush()) return fail(QStringLiteral("a frame does not decode"));
            if (qFromBigEndian<std::uint32_t>(body.constData()) != sequence++)
                return fail(QStringLiteral("fcTL sequence"));
            const auto at = [&](int k) {
                return int(qFromBigEndian<std::uint32_t>(body.constData() + k));
            };
            pending.region = QRect(at(12), at(16), at(4), at(8));
            const auto num = qFromBigEndian<std::uint16_t>(body.constData() + 20);
            const auto den = qFromBigEndian<std::uint16_t>(body.constData() + 22);
            pending.delayMs = den == 0 ? num * 10 : num * 1000 / den;
            if (body.at(24) != 0 || body.at(25) != 0) return fail(QStringLiteral("ops"));
            havePending = true;
        } else if (type == "IDAT") {
            data += body;
        } else if (type == "fdAT") {
            if (qFromBigEndian<std::uint32_t>(body.constData()) != sequence++)
                return fail(QStringLiteral("fdAT sequence"));
            data += body.mid(4);
        } else if (type == "IEND") {
            if (!flush()) return fail(QStringLiteral("the last frame does not decode"));
            if (pos != file.size()) return fail(QStringLiteral("bytes after IEND"));
            if (frames->size() != announced) return fail(QStringLiteral("frame count"));
            return true;
        }
    }
    return fail(QStringLiteral("no IEND"));
}

QImage solid(QSize size, QColor colour)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(colour);
    return image;
}

} // namespace

class TestReadOrderAnimation : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void crcOfKnownChunk();
    void apngRoundTrip();
    void apngWriterRefusesWrongFrames();
    void framesLightCellsInReadOrder();
    void largeSelectionsAreGrouped();
    void numberedFrames();
    void errors_data();
    void errors();
    void dialog();
    void commandLine_data();
    void commandLine();

private:
    void show(const QString& expr, const Shape& shape);
    QTemporaryDir m_dir;
    MainWindow* m_window = nullptr;
};

void TestReadOrderAnimation::initTestCase()
{
    useCleanTestEnvironment();
    QVERIFY(m_dir.isValid());
    m_window = new MainWindow;
    m_window->forgetSession();
    m_window->resize(1440, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
}

void TestReadOrderAnimation::cleanupTestCase()
{
    delete m_window;
}

void TestReadOrderAnimation::show(const QString& expr, const Shape& shape)
{
    m_window->setWorkspace(getitemWorkspace(shape, expr), QStringLiteral("test"));
    QVERIFY(waitSettled(*m_window));
    QCoreApplication::processEvents();
}

void TestReadOrderAnimation::crcOfKnownChunk()
{
    // Every PNG's IEND chunk ends in AE 42 60 82.
    QCOMPARE(ApngWriter::crc32("IEND"), 0xae426082u);
    QCOMPARE(ApngWriter::crc32("123456789"), 0xcbf43926u); // the CRC-32 check value
}

void TestReadOrderAnimation::apngRoundTrip()
{
    const QSize size(16, 9);
    std::vector<QImage> written{solid(size, Qt::white), solid(size, Qt::white),
                                solid(size, Qt::white)};
    written[1].setPixel(3, 4, qRgb(0x44, 0x01, 0x54));
    written[2] = written[1];
    for (int x = 10; x < 14; ++x)
        written[2].setPixel(x, 7, qRgb(0xfd, 0xe7, 0x25));
    const std::vector<int> delays{120, 40, 2000};
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    ApngWriter writer(&buffer, size, 3);
    for (std::size_t k = 0; k < written.size(); ++k)
        QVERIFY2(writer.addFrame(written[k], delays[k]), qPrintable(writer.error()));
    QVERIFY2(writer.finish(), qPrintable(writer.error()));
    // A viewer without APNG support shows the first frame.
    QImage still;
    QVERIFY(still.loadFromData(bytes, "PNG"));
    QCOMPARE(still.convertToFormat(QImage::Format_RGB32), written[0]);
    std::vector<DecodedFrame> frames;
    QString why;
    QVERIFY2(decodeApng(bytes, &frames, &why), qPrintable(why));
    QCOMPARE(frames.size(), std::size_t(3));
    for (std::size_t k = 0; k < frames.size(); ++k) {
        QCOMPARE(frames[k].delayMs, delays[k]);
        QCOMPARE(frames[k].image, written[k]);
    }
    // Only what changed is stored.
    QCOMPARE(frames[1].region, QRect(3, 4, 1, 1));
    QCOMPARE(frames[2].region, QRect(10, 7, 4, 1));
}

void TestReadOrderAnimation::apngWriterRefusesWrongFrames()
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        ApngWriter writer(&buffer, QSize(4, 4), 2);
        QVERIFY(!writer.addFrame(solid(QSize(5, 4), Qt::red), 100));
        QVERIFY(writer.error().contains(QLatin1String("5 x 4")));
    }
    {
        ApngWriter writer(&buffer, QSize(4, 4), 2);
        QVERIFY(!writer.addFrame(solid(QSize(4, 4), Qt::red), 0));
    }
    {
        ApngWriter writer(&buffer, QSize(4, 4), 2);
        QVERIFY(writer.addFrame(solid(QSize(4, 4), Qt::red), 100));
        QVERIFY(!writer.finish()); // one frame of the two announced
        QVERIFY(writer.error().contains(QLatin1String("announced")));
    }
}

void TestReadOrderAnimation::framesLightCellsInReadOrder()
{
    // x[::-2] of arange(7) reads elements 6, 4, 2, 0.
    show(QStringLiteral("x[::-2]"), {7});
    TensorView* view = m_window->inputView(0);
    const ReadOrderAnimation animation(*view, 80);
    QCOMPARE(animation.frameCount(), 5);
    QCOMPARE(animation.cellsPerStep(), std::int64_t(1));
    for (int k = 0; k < 5; ++k)
        QCOMPARE(animation.revealUpTo(k), std::int64_t(k - 1));
    QCOMPARE(animation.delayMs(0), 80);
    QCOMPARE(animation.delayMs(4), ReadOrderAnimation::kHoldMs);
    const QString path = m_dir.filePath(QStringLiteral("order.png"));
    QString error;
    QVERIFY2(animation.write(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    std::vector<DecodedFrame> frames;
    QString why;
    QVERIFY2(decodeApng(file.readAll(), &frames, &why), qPrintable(why));
    QCOMPARE(frames.size(), std::size_t(5));
    QCOMPARE(frames[1].delayMs, 80);
    QCOMPARE(frames[4].delayMs, ReadOrderAnimation::kHoldMs);
    const std::vector<std::int64_t> readOrder{6, 4, 2, 0};
    const auto lit = [&](const QImage& image, std::int64_t flat) {
        const QRect cell = view->pictureRect(flat);
        const QColor c = image.pixelColor(cell.left() + 2, cell.top() + 2);
        // A lit cell has a ramp colour; an unread one the pale grey of "not read".
        return c.saturation() > 60;
    };
    for (std::size_t k = 0; k < frames.size(); ++k)
        for (std::size_t j = 0; j < readOrder.size(); ++j)
            QVERIFY2(lit(frames[k].image, readOrder[j]) == (j < k),
                     qPrintable(QStringLiteral("frame %1, element %2").arg(k).arg(readOrder[j])));
    // Each frame lights the next cell in its final colour: the last frame is the picture.
    QCOMPARE(frames.back().image.pixelColor(view->pictureRect(6).topLeft() + QPoint(2, 2)),
             readOrderColor(0.0));
    QCOMPARE(frames.back().image.pixelColor(view->pictureRect(0).topLeft() + QPoint(2, 2)),
             readOrderColor(1.0));
}

void TestReadOrderAnimation::largeSelectionsAreGrouped()
{
    show(QStringLiteral("x[:, ::-1]"), {30, 20}); // 600 cells
    const ReadOrderAnimation animation(*m_window->inputView(0), 50);
    QCOMPARE(animation.cellsPerStep(), std::int64_t(3)); // ceil(600 / 240)
    QCOMPARE(animation.frameCount(), 201);
    QCOMPARE(animation.revealUpTo(1), std::int64_t(2));
    QCOMPARE(animation.revealUpTo(200), std::int64_t(599));
}

void TestReadOrderAnimation::numberedFrames()
{
    show(QStringLiteral("x[1:4]"), {6});
    const QString dir = m_dir.filePath(QStringLiteral("frames")) + u'/';
    QDir().mkpath(dir);
    QFile stale(dir + QStringLiteral("frame-0099.png")); // a longer, older sequence's tail
    QVERIFY(stale.open(QIODevice::WriteOnly));
    stale.close();
    QString error;
    QVERIFY2(ImageExporter(*m_window).exportAnimation(QStringLiteral("input"), dir, 100, &error),
             qPrintable(error));
    const QStringList files = QDir(dir).entryList({QStringLiteral("*.png")}, QDir::Files);
    QCOMPARE(files,
             QStringList({"frame-0001.png", "frame-0002.png", "frame-0003.png", "frame-0004.png"}));
    const QImage first(dir + files.front());
    const QImage last(dir + files.back());
    QVERIFY(!first.isNull());
    QCOMPARE(first.size(), last.size());
    QVERIFY(first != last);
}

void TestReadOrderAnimation::errors_data()
{
    QTest::addColumn<QString>("expr");
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("speed");
    QTest::addColumn<bool>("heatMap");
    QTest::addColumn<QString>("says");
    QTest::newRow("nothing read") << "x[3:3]"
                                  << "input"
                                  << "a.png" << 100 << false << "nothing to animate";
    QTest::newRow("heat map") << "x[1:]"
                              << "input"
                              << "a.png" << 100 << true << "heat map";
    QTest::newRow("gif") << "x[1:]"
                         << "input"
                         << "a.gif" << 100 << false << "animated PNG";
    QTest::newRow("speed") << "x[1:]"
                           << "input"
                           << "a.png" << 5 << false << "speed";
    QTest::newRow("window") << "x[1:]"
                            << "window"
                            << "a.png" << 100 << false << "not the window";
    QTest::newRow("no view") << "x[1:]"
                             << "input2"
                             << "a.png" << 100 << false << "input2";
    QTest::newRow("unwritable") << "x[1:]"
                                << "input"
                                << "no/dir/a.png" << 100 << false << "cannot write";
}

void TestReadOrderAnimation::errors()
{
    QFETCH(QString, expr);
    QFETCH(QString, view);
    QFETCH(QString, file);
    QFETCH(int, speed);
    QFETCH(bool, heatMap);
    QFETCH(QString, says);
    show(expr, {6});
    if (heatMap) m_window->inputView(0)->setHeatMapThreshold(1);
    const QString path = m_dir.filePath(file);
    QString error;
    QVERIFY(!ImageExporter(*m_window).exportAnimation(view, path, speed, &error));
    if (heatMap) m_window->inputView(0)->setHeatMapThreshold(10000);
    QVERIFY2(error.contains(says), qPrintable(error));
    QVERIFY(!QFileInfo::exists(path));
}

void TestReadOrderAnimation::dialog()
{
    show(QStringLiteral("x[::-1]"), {4});
    QVERIFY(m_window->findChild<QAction*>(QStringLiteral("actionExportAnimation")));
    ExportDialog dialog(*m_window, ExportDialog::Kind::Animation);
    auto* views = dialog.findChild<QComboBox*>(QStringLiteral("exportView"));
    QVERIFY(views);
    QCOMPARE(views->currentText(), QStringLiteral("input"));
    QCOMPARE(views->findText(QStringLiteral("window")), -1); // a window has no read order
    auto* speed = dialog.findChild<QSpinBox*>(QStringLiteral("exportSpeed"));
    QVERIFY(speed);
    QCOMPARE(speed->value(), ReadOrderAnimation::kDefaultStepMs);
    speed->setValue(60);
    const QString path = m_dir.filePath(QStringLiteral("dialog.apng"));
    dialog.setPath(path);
    dialog.show();
    dialog.accept();
    QVERIFY2(!dialog.isVisible(), qPrintable(dialog.errorText()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    std::vector<DecodedFrame> frames;
    QString why;
    QVERIFY2(decodeApng(file.readAll(), &frames, &why), qPrintable(why));
    QCOMPARE(frames.size(), std::size_t(5));
    QCOMPARE(frames.front().delayMs, 60);

    // The default path shows whole, and a long reason shows whole too: the dialog grows to fit
    // it rather than squeezing its rows.
    ExportDialog failing(*m_window, ExportDialog::Kind::Animation);
    auto* pathField = failing.findChild<QLineEdit*>(QStringLiteral("exportPath"));
    failing.show();
    QVERIFY(QTest::qWaitForWindowExposed(&failing));
    QVERIFY(pathField->width() > pathField->fontMetrics().horizontalAdvance(pathField->text()));
    failing.setPath(m_dir.filePath(
        QStringLiteral("no folder %1/a.png").arg(QStringLiteral("of this name ").repeated(20))));
    failing.accept();
    QVERIFY(failing.isVisible());
    QVERIFY2(failing.errorText().contains(QLatin1String("cannot write")),
             qPrintable(failing.errorText()));
    auto* error = failing.findChild<QLabel*>(QStringLiteral("exportError"));
    QTRY_VERIFY2(error->height() >= error->heightForWidth(error->width()),
                 qPrintable(QStringLiteral("%1 px tall, needs %2")
                                .arg(error->height())
                                .arg(error->heightForWidth(error->width()))));
}

void TestReadOrderAnimation::commandLine_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<int>("frames");
    const QStringList shown{QStringLiteral("--shape"), QStringLiteral("3,4"),
                            QStringLiteral("--expr"), QStringLiteral("x[::-1, 1]")};
    QTest::newRow("input") << (shown + QStringList{QStringLiteral("--speed"), QStringLiteral("40")})
                           << 0 << 4;
    QTest::newRow("output") << (shown +
                                QStringList{QStringLiteral("--view"), QStringLiteral("output")})
                            << 0 << 4;
    QTest::newRow("speed too fast")
        << (shown + QStringList{QStringLiteral("--speed"), QStringLiteral("1")}) << 2 << 0;
    QTest::newRow("speed not a number")
        << (shown + QStringList{QStringLiteral("--speed"), QStringLiteral("fast")}) << 2 << 0;
    QTest::newRow("scale is for pictures")
        << (shown + QStringList{QStringLiteral("--scale"), QStringLiteral("2")}) << 2 << 0;
    QTest::newRow("window") << (shown +
                                QStringList{QStringLiteral("--view"), QStringLiteral("window")})
                            << 1 << 0;
    // `--export-animation ""` once started the window and never exited.
    QTest::newRow("no file name") << shown << 2 << 0;
}

void TestReadOrderAnimation::commandLine()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(int, frames);
    const QString path =
        QByteArray(QTest::currentDataTag()) == "no file name"
            ? QString()
            : m_dir.filePath(QStringLiteral("cli-%1.png").arg(QTest::currentDataTag()));
    QTemporaryDir home;
    QProcess slicescope;
    slicescope.setProcessEnvironment(newUserEnvironment(home.path()));
    slicescope.start(QStringLiteral(SLICESCOPE_GUI_EXE),
                     args + QStringList{QStringLiteral("--export-animation"), path});
    QVERIFY(slicescope.waitForFinished(60000));
    const QString err = QString::fromUtf8(slicescope.readAllStandardError());
    QVERIFY2(slicescope.exitCode() == exitCode, qPrintable(err));
    if (exitCode != 0) {
        QVERIFY(!err.isEmpty());
        QVERIFY(!QFileInfo::exists(path));
        return;
    }
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    std::vector<DecodedFrame> decoded;
    QString why;
    QVERIFY2(decodeApng(file.readAll(), &decoded, &why), qPrintable(why));
    QCOMPARE(int(decoded.size()), frames);
    if (args.contains(QStringLiteral("40"))) QCOMPARE(decoded.front().delayMs, 40);
}

QTEST_MAIN(TestReadOrderAnimation)
#include "tst_readorderanimation.moc"
