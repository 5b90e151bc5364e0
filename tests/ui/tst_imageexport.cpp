// SPDX-License-Identifier: GPL-3.0-or-later
// File > Export Image and `slicescope --export-image`: a view or the window as PNG, SVG and PDF.
// The files are opened as a reader would open them: the SVG by QSvgRenderer (and its text holds
// the cells' values), the PDF rasterised by pdftoppm (and its text read by pdftotext), the PNG by
// QImage; each must show the lit cells in their read-order colours. SVG and PDF must be vector:
// no embedded bitmap stands in for the cells.
#include "automation_testing.h"
#include "ui/views/palette.h"
#include "ui/views/picturewriter.h"
#include "ui/workbench/automation.h"
#include "ui/workbench/exportdialog.h"
#include "ui/workbench/imageexporter.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/presentationmode.h"
#include "workbench_testing.h"

#include <QDirIterator>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/mount.h>
#include <sys/stat.h>

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

namespace {

// x[1:3, ::-2] of arange(20).reshape(4, 5) reads 9, 7, 5, 14, 12, 10 in that order.
const QString kExpr = QStringLiteral("x[1:3, ::-2]");
const QStringList kLitValues = {QStringLiteral("9"),  QStringLiteral("7"),  QStringLiteral("5"),
                                QStringLiteral("14"), QStringLiteral("12"), QStringLiteral("10")};
// The ends of the read-order ramp: the first element read and the last.
const QColor kFirst = readOrderColor(0.0);
const QColor kLast = readOrderColor(1.0);

bool near(QRgb a, const QColor& b, int tolerance = 6)
{
    return std::abs(qRed(a) - b.red()) <= tolerance &&
           std::abs(qGreen(a) - b.green()) <= tolerance &&
           std::abs(qBlue(a) - b.blue()) <= tolerance;
}

/// How many pixels of `image` have (about) colour `c`.
int countColour(const QImage& image, const QColor& c)
{
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    int n = 0;
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x)
            n += near(row[x], c) ? 1 : 0;
    }
    return n;
}

QString tool(const char* name)
{
    return QStandardPaths::findExecutable(QLatin1String(name));
}

/// Runs a command; its standard output, or a failed QVERIFY in the caller through `ok`.
QByteArray run(const QString& program, const QStringList& args, bool* ok)
{
    QProcess p;
    p.start(program, args);
    *ok = p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    if (!*ok) qWarning("%s failed: %s", qPrintable(program), p.readAllStandardError().constData());
    return p.readAllStandardOutput();
}

} // namespace

class TestImageExport : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void svgIsVectorWithValuesAndColours_data();
    void svgIsVectorWithValuesAndColours();
    void pdfIsVectorAndRasterisesWithTheColours();
    void pngHasTheLitColoursAtTheirCells();
    void windowExportsInEveryFormat();
    void badRequestsFailCleanly_data();
    void badRequestsFailCleanly();
    void failedExportKeepsTheOldFile();
    void dialogExportsAndReportsErrors();
    void commandLine_data();
    void commandLine();
    void automationChannel();
    void coloursFitThePicture();
    void emptyOutputShowsItsNote();
    void everyWriterKeepsTheOldFileOnAFullDisk_data();
    void everyWriterKeepsTheOldFileOnAFullDisk();
    void everyWriterRefusesAFifo_data();
    void everyWriterRefusesAFifo();

private:
    QTemporaryDir m_dir;
    MainWindow* m_window = nullptr;
};

void TestImageExport::initTestCase()
{
    useCleanTestEnvironment();
    QVERIFY(m_dir.isValid());
    m_window = new MainWindow;
    m_window->forgetSession();
    m_window->setWorkspace(getitemWorkspace({4, 5}, kExpr), QStringLiteral("test"));
    m_window->resize(1440, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
    QVERIFY(waitSettled(*m_window));
    QCoreApplication::processEvents();
}

void TestImageExport::cleanupTestCase()
{
    delete m_window;
}

void TestImageExport::svgIsVectorWithValuesAndColours_data()
{
    QTest::addColumn<QString>("view");
    QTest::addColumn<QStringList>("values");
    QTest::newRow("input") << "input" << kLitValues;
    // The output is 2 x 3 of the lit values, in read order.
    QTest::newRow("output0") << "output0" << kLitValues;
}

void TestImageExport::svgIsVectorWithValuesAndColours()
{
    QFETCH(QString, view);
    QFETCH(QStringList, values);
    const QString path = m_dir.filePath(view + QStringLiteral(".svg"));
    QString error;
    QVERIFY2(ImageExporter(*m_window).exportImage(view, path, 1.0, &error), qPrintable(error));
    QSvgRenderer renderer(path);
    QVERIFY(renderer.isValid());
    QVERIFY(!renderer.defaultSize().isEmpty());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(file.readAll());
    // Vector: the cells are rectangles and text, not a picture of them.
    QVERIFY2(!svg.contains(QLatin1String("<image")), "the SVG embeds a bitmap");
    for (const QString& value : values) {
        const QRegularExpression text(QStringLiteral("<text[^>]*>\\s*%1\\s*</text>").arg(value));
        QVERIFY2(svg.contains(text), qPrintable(QStringLiteral("no text %1").arg(value)));
    }
    // The first and the last element read, in the ramp's colours.
    QVERIFY2(svg.contains(kFirst.name(), Qt::CaseInsensitive), qPrintable(kFirst.name()));
    QVERIFY2(svg.contains(kLast.name(), Qt::CaseInsensitive), qPrintable(kLast.name()));
    // The rendering shows them as well.
    QImage image(renderer.defaultSize(), QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    renderer.render(&p);
    p.end();
    QVERIFY(countColour(image, kFirst) > 50);
    QVERIFY(countColour(image, kLast) > 50);
    if (view == QLatin1String("input")) {
        // Kept for people to look at (the team's closing note).
        QDir().mkpath(QStringLiteral(QT_TESTCASE_BUILDDIR "/screenshots"));
        QFile::remove(QStringLiteral(QT_TESTCASE_BUILDDIR "/screenshots/export-input.svg"));
        QFile::copy(path, QStringLiteral(QT_TESTCASE_BUILDDIR "/screenshots/export-input.svg"));
        image.save(QStringLiteral(QT_TESTCASE_BUILDDIR "/screenshots/export-input-svg.png"));
    }
}

void TestImageExport::pdfIsVectorAndRasterisesWithTheColours()
{
    const QString pdftoppm = tool("pdftoppm");
    const QString pdftotext = tool("pdftotext");
    QVERIFY2(!pdftoppm.isEmpty() && !pdftotext.isEmpty(),
             "poppler-utils (pdftoppm, pdftotext) is needed: packaging/dev.sh installs it");
    const QString path = m_dir.filePath(QStringLiteral("input.pdf"));
    QString error;
    QVERIFY2(ImageExporter(*m_window).exportImage(QStringLiteral("input"), path, 1.0, &error),
             qPrintable(error));
    bool ok = false;
    // The values are text in the PDF, not pixels of a picture.
    const QString text = QString::fromUtf8(run(pdftotext, {path, QStringLiteral("-")}, &ok));
    QVERIFY(ok);
    for (const QString& value : kLitValues)
        QVERIFY2(text.contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(value))),
                 qPrintable(text));
    const QString prefix = m_dir.filePath(QStringLiteral("raster"));
    run(pdftoppm,
        {QStringLiteral("-png"), QStringLiteral("-r"), QStringLiteral("96"),
         QStringLiteral("-singlefile"), path, prefix},
        &ok);
    QVERIFY(ok);
    const QImage raster(prefix + QStringLiteral(".png"));
    QVERIFY(!raster.isNull());
    QVERIFY2(countColour(raster, kFirst) > 50, "the first element read is not in the raster");
    QVERIFY2(countColour(raster, kLast) > 50, "the last element read is not in the raster");
    // No image objects: pdfimages lists none when the cells are vector.
    if (const QString pdfimages = tool("pdfimages"); !pdfimages.isEmpty()) {
        const QString list =
            QString::fromUtf8(run(pdfimages, {QStringLiteral("-list"), path}, &ok));
        QVERIFY(ok);
        QCOMPARE(list.trimmed().split(u'\n').size(), 2); // the two header lines only
    }
}

void TestImageExport::pngHasTheLitColoursAtTheirCells()
{
    TensorView* view = m_window->inputView(0);
    const QString path = m_dir.filePath(QStringLiteral("input.png"));
    QString error;
    QVERIFY2(ImageExporter(*m_window).exportImage(QStringLiteral("input"), path, 2.0, &error),
             qPrintable(error));
    const QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), view->pictureSize() * 2);
    // Element 9 = [1, 4] is read first, 10 = [2, 0] last; element 0 is not read.
    const auto pixelIn = [&](std::int64_t flat) {
        const QRect cell = view->pictureRect(flat);
        return image.pixel((cell.left() + 2) * 2, (cell.top() + 2) * 2);
    };
    QVERIFY(near(pixelIn(9), kFirst));
    QVERIFY(near(pixelIn(10), kLast));
    QVERIFY(!near(pixelIn(0), kFirst) && !near(pixelIn(0), kLast));
}

void TestImageExport::windowExportsInEveryFormat()
{
    ImageExporter exporter(*m_window);
    QString error;
    for (const QString& suffix :
         {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")}) {
        const QString path = m_dir.filePath(QStringLiteral("window.") + suffix);
        QVERIFY2(exporter.exportImage(QStringLiteral("window"), path, 1.0, &error),
                 qPrintable(error));
        QVERIFY(QFileInfo(path).size() > 0);
    }
    // The workbench below the menu bar.
    const QSize shown = m_window->size() - QSize(0, m_window->menuBar()->height());
    const QImage png(m_dir.filePath(QStringLiteral("window.png")));
    QCOMPARE(png.size(), shown);
    QVERIFY(countColour(png, kFirst) > 50);
    QSvgRenderer svg(m_dir.filePath(QStringLiteral("window.svg")));
    QVERIFY(svg.isValid());
    // The view box is the window in pixels (the width and height attributes are in mm).
    QCOMPARE(svg.viewBoxF().size().toSize(), shown);
    QFile file(m_dir.filePath(QStringLiteral("window.svg")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    // The expression, painted by its own editor, is text too.
    QVERIFY(file.readAll().contains("::-2"));
}

void TestImageExport::badRequestsFailCleanly_data()
{
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("scale");
    QTest::addColumn<QString>("says");
    QTest::newRow("suffix") << "input"
                            << "input.bmp" << 1.0 << "PNG, SVG or PDF";
    QTest::newRow("no suffix") << "input"
                               << "plain" << 1.0 << "PNG, SVG or PDF";
    QTest::newRow("no such output") << "output3"
                                    << "o.svg" << 1.0 << "output3";
    QTest::newRow("not a view") << "legend"
                                << "o.svg" << 1.0 << "the views are";
    QTest::newRow("scale") << "input"
                           << "s.png" << 0.5 << "scale";
    QTest::newRow("too many pixels") << "window"
                                     << "huge.png" << 8.0 << "too large";
    QTest::newRow("unwritable") << "input"
                                << "missing/dir/input.svg" << 1.0 << "cannot write";
}

void TestImageExport::badRequestsFailCleanly()
{
    QFETCH(QString, view);
    QFETCH(QString, file);
    QFETCH(double, scale);
    QFETCH(QString, says);
    // 1440 x 900 at 8 x 8 is 83 million pixels: over the PNG limit.
    QVERIFY(1440.0 * 900 * 64 > double(PictureWriter::kMaxPngPixels));
    const QString path = m_dir.filePath(file);
    QString error;
    QVERIFY(!ImageExporter(*m_window).exportImage(view, path, scale, &error));
    QVERIFY2(error.contains(says), qPrintable(error));
    QVERIFY(!QFileInfo::exists(path));
    // Nor a QSaveFile's temporary.
    QCOMPARE(QDir(QFileInfo(path).path()).entryList({QFileInfo(path).fileName() + u'*'}).size(), 0);
}

void TestImageExport::failedExportKeepsTheOldFile()
{
    const QString path = m_dir.filePath(QStringLiteral("kept.png"));
    QString error;
    ImageExporter exporter(*m_window);
    QVERIFY2(exporter.exportImage(QStringLiteral("input"), path, 1.0, &error), qPrintable(error));
    QFile before(path);
    QVERIFY(before.open(QIODevice::ReadOnly));
    const QByteArray bytes = before.readAll();
    before.close();
    QVERIFY(!exporter.exportImage(QStringLiteral("window"), path, 8.0, &error));
    QFile after(path);
    QVERIFY(after.open(QIODevice::ReadOnly));
    QCOMPARE(after.readAll(), bytes);
}

void TestImageExport::dialogExportsAndReportsErrors()
{
    ExportDialog dialog(*m_window, ExportDialog::Kind::Image);
    QVERIFY(dialog.findChild<QWidget*>(QStringLiteral("exportScale")));
    QVERIFY(!dialog.findChild<QWidget*>(QStringLiteral("exportSpeed")));
    for (auto* w : dialog.findChildren<QWidget*>())
        if (w->focusPolicy() != Qt::NoFocus && !w->objectName().startsWith(QLatin1String("qt_")) &&
            qobject_cast<QLineEdit*>(w))
            QVERIFY2(!w->accessibleName().isEmpty(), qPrintable(w->objectName()));
    // Every field's label is its buddy, so that Alt+V, Alt+F, Alt+S reach it (and no label
    // shows a bare "&").
    for (const char* field : {"exportView", "exportPath", "exportScale"}) {
        const auto* widget = dialog.findChild<QWidget*>(QLatin1String(field));
        const auto labels = dialog.findChildren<QLabel*>();
        QVERIFY2(std::any_of(labels.begin(), labels.end(),
                             [widget](const QLabel* l) { return l->buddy() == widget; }),
                 field);
    }
    dialog.setView(QStringLiteral("output"));
    dialog.setPath(m_dir.filePath(QStringLiteral("nowhere/x.svg")));
    dialog.show();
    dialog.accept();
    QVERIFY(dialog.isVisible()); // stays open, saying why
    QVERIFY2(dialog.errorText().contains(QLatin1String("cannot write")),
             qPrintable(dialog.errorText()));
    const QString path = m_dir.filePath(QStringLiteral("dialog.svg"));
    dialog.setPath(path);
    dialog.accept();
    QVERIFY(!dialog.isVisible());
    QVERIFY(QSvgRenderer(path).isValid());
}

void TestImageExport::commandLine_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("says");
    const QStringList shown{QStringLiteral("--shape"), QStringLiteral("4,5"),
                            QStringLiteral("--expr"), kExpr};
    QTest::newRow("svg of the input")
        << (shown + QStringList{QStringLiteral("--view"), QStringLiteral("input")}) << "in.svg" << 0
        << "";
    QTest::newRow("pdf of the output")
        << (shown + QStringList{QStringLiteral("--view"), QStringLiteral("output")}) << "out.pdf"
        << 0 << "";
    QTest::newRow("png of the window at scale 2")
        << (shown + QStringList{QStringLiteral("--scale"), QStringLiteral("2")}) << "win.png" << 0
        << "";
    QTest::newRow("bad view") << (shown +
                                  QStringList{QStringLiteral("--view"), QStringLiteral("top")})
                              << "bad.svg" << 2 << "--view top";
    QTest::newRow("bad suffix") << shown << "bad.gif" << 2 << "suffix";
    QTest::newRow("bad scale") << (shown +
                                   QStringList{QStringLiteral("--scale"), QStringLiteral("x")})
                               << "bad.png" << 2 << "--scale";
    QTest::newRow("speed is for animations")
        << (shown + QStringList{QStringLiteral("--speed"), QStringLiteral("100")}) << "sp.png" << 2
        << "--speed goes with --export-animation";
    QTest::newRow("no such view") << (shown + QStringList{QStringLiteral("--view"),
                                                          QStringLiteral("output4")})
                                  << "no.svg" << 1 << "output4";
    QTest::newRow("unwritable") << shown << "missing/dir/w.svg" << 1 << "cannot write";
    // `--export-image ""` (a script's unset variable) once started the window and never exited.
    QTest::newRow("no file name") << shown << "" << 2 << "suffix";
}

void TestImageExport::commandLine()
{
    QFETCH(QStringList, args);
    QFETCH(QString, file);
    QFETCH(int, exitCode);
    QFETCH(QString, says);
    const QString path = file.isEmpty() ? QString() : m_dir.filePath(QStringLiteral("cli-") + file);
    QTemporaryDir home;
    QProcess slicescope;
    slicescope.setProcessEnvironment(newUserEnvironment(home.path()));
    slicescope.start(QStringLiteral(SLICESCOPE_GUI_EXE),
                     args + QStringList{QStringLiteral("--export-image"), path});
    QVERIFY(slicescope.waitForFinished(60000));
    const QString err = QString::fromUtf8(slicescope.readAllStandardError());
    QCOMPARE(slicescope.exitStatus(), QProcess::NormalExit);
    QVERIFY2(slicescope.exitCode() == exitCode, qPrintable(err));
    if (exitCode != 0) {
        QVERIFY2(err.contains(says), qPrintable(err));
        QVERIFY(!QFileInfo::exists(path));
        return;
    }
    if (path.endsWith(QLatin1String(".svg"))) QVERIFY(QSvgRenderer(path).isValid());
    if (path.endsWith(QLatin1String(".png"))) {
        const QImage image(path);
        QCOMPARE(image.width(), 2880); // the window at 1440 x 900, doubled, below the menu bar
        QVERIFY(image.height() > 1700 && image.height() < 1800);
        QVERIFY(countColour(image, kFirst) > 50);
    }
    if (path.endsWith(QLatin1String(".pdf"))) {
        QFile pdf(path);
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
    }
}

void TestImageExport::automationChannel()
{
    Automation channel(*m_window);
    AutomationClient client(channel);
    const auto ask = [&](const QString& json) { return client.ask(json.toUtf8()); };
    const auto isOk = [](const Json& answer) {
        const Json* ok = at(answer, {"ok"});
        return ok && ok->isBool() && ok->toBool();
    };
    const auto errorCode = [](const Json& answer) {
        const Json* code = at(answer, {"error", "code"});
        return code && code->isString() ? code->toString() : std::string();
    };
    const QString svg = m_dir.filePath(QStringLiteral("automation.svg"));
    Json a =
        ask(QStringLiteral(R"({"cmd": "export_image", "path": "%1", "view": "output"})").arg(svg));
    QVERIFY2(isOk(a), client.lastLine().constData());
    QVERIFY(QSvgRenderer(svg).isValid());
    const QString png = m_dir.filePath(QStringLiteral("automation-anim.png"));
    a = ask(
        QStringLiteral(R"({"cmd": "export_animation", "path": "%1", "speed_ms": 40})").arg(png));
    QVERIFY2(isOk(a), client.lastLine().constData());
    QVERIFY(!QImage(png).isNull());
    a = ask(QStringLiteral(R"({"cmd": "export_image", "path": "%1", "view": "output9"})")
                .arg(m_dir.filePath(QStringLiteral("none.svg"))));
    QCOMPARE(errorCode(a), std::string("invalid_argument"));
    a = ask(QStringLiteral(R"({"cmd": "export_image", "path": "x.svg", "scale": "big"})"));
    QCOMPARE(errorCode(a), std::string("bad_request"));
    QVERIFY(isOk(ask(QStringLiteral(R"({"cmd": "presentation", "on": true})"))));
    QVERIFY(m_window->presentation()->isOn());
    QVERIFY(isOk(ask(QStringLiteral(R"({"cmd": "presentation", "on": false})"))));
    QVERIFY(!m_window->presentation()->isOn());
    a = ask(QStringLiteral(R"({"cmd": "presentation", "on": 1})"));
    QCOMPARE(errorCode(a), std::string("bad_request"));
}

void TestImageExport::coloursFitThePicture()
{
    // x[:] of an (80, 5) tensor reads it in order. The input and output views show their top
    // rows (the first reads), so the colours on screen run over those reads only; the picture
    // has all 80 rows, and its colours run over all of them: row 50 (read #251 of 400) is
    // well up the ramp, not the last colour the screen's fit would clamp it to.
    m_window->setWorkspace(getitemWorkspace({80, 5}, QStringLiteral("x[:]")),
                           QStringLiteral("test"));
    QVERIFY(waitSettled(*m_window));
    QCoreApplication::processEvents();
    TensorView* view = m_window->inputView(0);
    // The fit follows the cells on screen once they are laid out.
    QVERIFY(QTest::qWaitFor([&] { return view->fittedScale().has_value(); }, 3000));
    const auto screenFit = view->fittedScale();
    QVERIFY2(screenFit && screenFit->second < 250, "the views show row 50: no fit to test");
    const QString path = m_dir.filePath(QStringLiteral("fitted.png"));
    QString error;
    QVERIFY2(ImageExporter(*m_window).exportImage(QStringLiteral("input"), path, 1.0, &error),
             qPrintable(error));
    const QImage image(path);
    const QColor mid = image.pixelColor(view->pictureRect(250).topLeft() + QPoint(2, 2));
    QVERIFY2(near(mid.rgb(), readOrderColor(250.0 / 399.0), 12), qPrintable(mid.name()));
    QVERIFY(near(image.pixel(view->pictureRect(0).topLeft() + QPoint(2, 2)), kFirst));
    QVERIFY(near(image.pixel(view->pictureRect(399).topLeft() + QPoint(2, 2)), kLast));
    // The screen keeps its own fit.
    QCOMPARE(view->fittedScale(), screenFit);
}

void TestImageExport::emptyOutputShowsItsNote()
{
    // A 0-size output: the screen says "shape (0, 5): no elements" where the cells would be,
    // and the picture must say it too, not show the title line alone.
    MainWindow w;
    w.forgetSession();
    w.setWorkspace(getitemWorkspace({4, 5}, QStringLiteral("x[2:2]")), QStringLiteral("test"));
    w.resize(1440, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(waitSettled(w));
    QCOMPARE(w.outputView(0)->model()->tensor().size(), 0);
    const QString path = m_dir.filePath(QStringLiteral("empty.svg"));
    QString error;
    QVERIFY2(ImageExporter(w).exportImage(QStringLiteral("output0"), path, 1.0, &error),
             qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(file.readAll());
    QVERIFY2(svg.contains(QStringLiteral("no elements")), qPrintable(svg.left(2000)));
    // Tall enough for the note under the title.
    QVERIFY(w.outputView(0)->pictureSize().height() > 2 * w.outputView(0)->fontMetrics().height());
}

namespace {

/// One automation command per writer of images: `PATH` is replaced by the target, `FILE` is
/// the name of the file the command writes inside the target (the frames' first file), or empty
/// when the target is that file.
void writerRows()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("file");
    QTest::newRow("SVG") << R"({"cmd": "export_image", "path": "PATH", "view": "window"})"
                         << "w.svg"
                         << "";
    QTest::newRow("PDF") << R"({"cmd": "export_image", "path": "PATH", "view": "output"})"
                         << "w.pdf"
                         << "";
    QTest::newRow("PNG") << R"({"cmd": "export_image", "path": "PATH", "view": "input"})"
                         << "w.png"
                         << "";
    QTest::newRow("APNG") << R"({"cmd": "export_animation", "path": "PATH"})"
                          << "a.png"
                          << "";
    QTest::newRow("frames") << R"({"cmd": "export_animation", "path": "PATH"})"
                            << "frames/"
                            << "frame-0001.png";
    QTest::newRow("screenshot") << R"({"cmd": "screenshot", "path": "PATH"})"
                                << "shot.png"
                                << "";
}

QStringList everythingIn(const QString& dir)
{
    QStringList names;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        names << QDir(dir).relativeFilePath(it.next());
    names.sort();
    return names;
}

} // namespace

void TestImageExport::everyWriterKeepsTheOldFileOnAFullDisk_data()
{
    writerRows();
}

// Issue 26: on a full disk an SVG export answered ok and left 53 KB of a 291 KB file in place of
// the good one; the screenshot left a partial PNG; PDF, APNG and frames said "Unknown error".
// Every writer now keeps the old file, leaves nothing else, and says why. A 256 KiB tmpfs,
// filled, is the full disk (mounting needs root; elsewhere skipped like the other full-disk
// tests).
void TestImageExport::everyWriterKeepsTheOldFileOnAFullDisk()
{
    QFETCH(QString, command);
    QFETCH(QString, target);
    QFETCH(QString, file);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray mountPoint = QFile::encodeName(dir.path());
    if (::mount("tmpfs", mountPoint.constData(), "tmpfs", 0, "size=256k") != 0)
        QSKIP(qPrintable(QStringLiteral("cannot mount a small tmpfs to fill (needs root): ") +
                         QString::fromLocal8Bit(std::strerror(errno))));
    const QString path = dir.filePath(target);
    const QString old = dir.filePath(target + file);
    QDir().mkpath(QFileInfo(old).absolutePath());
    const QByteArray oldBytes = QByteArray("the good old file ").repeated(100);
    {
        QFile f(old);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(oldBytes) == oldBytes.size());
    }
    {
        QFile fill(dir.filePath(QStringLiteral("filler")));
        QVERIFY(fill.open(QIODevice::WriteOnly | QIODevice::Unbuffered));
        const QByteArray block(4096, 'f');
        while (fill.write(block) == block.size()) {
        }
        const QByteArray byte(1, 'f');
        while (fill.write(byte) == 1) {
        }
    }
    const QStringList before = everythingIn(dir.path());
    Automation channel(*m_window);
    AutomationClient client(channel);
    const Json a = client.ask(QString(command).replace(QLatin1String("PATH"), path).toUtf8());
    QFile kept(old);
    const QByteArray after = kept.open(QIODevice::ReadOnly) ? kept.readAll() : QByteArray();
    kept.close();
    const QStringList left = everythingIn(dir.path());
    QVERIFY(::umount(mountPoint.constData()) == 0);
    const Json* ok = at(a, {"ok"});
    QVERIFY2(ok && ok->isBool() && !ok->toBool(), client.lastLine().constData());
    const Json* message = at(a, {"error", "message"});
    QVERIFY2(message && QString::fromStdString(message->toString())
                            .contains(QLatin1String("No space left on device")),
             client.lastLine().constData());
    QVERIFY2(QString::fromStdString(message->toString()).contains(dir.path()),
             client.lastLine().constData()); // it names the file
    QCOMPARE(after, oldBytes);
    QCOMPARE(left, before);
}

void TestImageExport::everyWriterRefusesAFifo_data()
{
    writerRows();
}

// A FIFO (or a device) as the target: writing into it "worked" for bytes nobody kept, and a
// rename over it replaced it. Refused, and the FIFO stays a FIFO.
void TestImageExport::everyWriterRefusesAFifo()
{
    QFETCH(QString, command);
    QFETCH(QString, target);
    QFETCH(QString, file);
    QTemporaryDir dir;
    const QString path = dir.filePath(target);
    const QString fifo = dir.filePath(target + file);
    QDir().mkpath(QFileInfo(fifo).absolutePath());
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    Automation channel(*m_window);
    AutomationClient client(channel);
    const Json a = client.ask(QString(command).replace(QLatin1String("PATH"), path).toUtf8());
    const Json* message = at(a, {"error", "message"});
    QVERIFY2(message && QString::fromStdString(message->toString())
                            .contains(QLatin1String("not a regular file (it is a FIFO)")),
             client.lastLine().constData());
    struct stat st
    {
    };
    QCOMPARE(::stat(QFile::encodeName(fifo).constData(), &st), 0);
    QVERIFY(S_ISFIFO(st.st_mode));
    const QStringList expected =
        file.isEmpty() ? QStringList{target} : QStringList{target.chopped(1), target + file};
    QCOMPARE(everythingIn(dir.path()), expected); // nothing written beside it either
}

QTEST_MAIN(TestImageExport)
#include "tst_imageexport.moc"
