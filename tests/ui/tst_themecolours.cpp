// SPDX-License-Identifier: GPL-3.0-or-later
// Colours come from palette roles only, and read in both themes. No file of ui/ but
// views/palette.cpp names a colour (a hex literal, QColor(r, g, b), Qt::red, "#rrggbb" in a style
// sheet or rich text). The workbench is rendered in the light and the dark theme, and after a
// switch to the dark theme with the window open, in every op's editor and in the states that
// colour text (an error, a stale result, an unreadable field, the autosave warning, the offer to
// recover, an exercise's verdict, a failed export): every text on screen keeps 4.5:1 (WCAG AA)
// against what it is drawn on, every error outline 3:1 against the window.
#include "ui/model/exercises.h"
#include "ui/views/palette.h"
#include "ui/workbench/docksetup.h"
#include "ui/workbench/exercisepanel.h"
#include "ui/workbench/exportdialog.h"
#include "ui/workbench/sessionguard.h"
#include "workbench_testing.h"

#include <QApplication>
#include <QComboBox>
#include <QDirIterator>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <map>

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

namespace {

/// What names a colour in C++ or in a style sheet or rich text inside it.
const QRegularExpression& colourLiteral()
{
    static const QRegularExpression re(QStringLiteral(
        R"(QColor\s*\w*\s*[({]\s*(0x|\d)|QColor::from(Rgb|Hsv|Hsl|Cmyk)\w*\s*\(\s*(0x|\d)|)"
        R"(\bqRgba?\s*\(|Qt::(white|black|red|green|blue|cyan|magenta|yellow|gray|darkGray|)"
        R"(lightGray|darkRed|darkGreen|darkBlue|darkCyan|darkMagenta|darkYellow)\b|)"
        R"("[^"\n]*#[0-9a-fA-F]{3,8}\b|\brgba?\s*\(\s*\d)"));
    return re;
}

double luminance(QRgb c)
{
    const auto lin = [](int v) {
        const double x = v / 255.0;
        return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * lin(qRed(c)) + 0.7152 * lin(qGreen(c)) + 0.0722 * lin(qBlue(c));
}

double contrast(QRgb a, QRgb b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

/// The colour most of `image` is (the background) and the one of its pixels that stands out
/// most against it (the text's core: anti-aliased edges are mixed with the background).
std::pair<QRgb, QRgb> backgroundAndInk(const QImage& image)
{
    std::map<QRgb, int> counts;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            ++counts[image.pixel(x, y) | 0xff000000u];
    QRgb background = 0;
    int most = -1;
    for (const auto& [colour, n] : counts)
        if (n > most) std::tie(background, most) = std::pair(colour, n);
    QRgb ink = background;
    for (const auto& entry : counts)
        if (contrast(entry.first, background) > contrast(ink, background)) ink = entry.first;
    return {background, ink};
}

/// The contrast of a text widget's text with its background, as rendered.
double textContrast(QWidget* widget)
{
    const auto [background, ink] = backgroundAndInk(widget->grab().toImage());
    return contrast(background, ink);
}

/// Every label on show with text, by object name (or class and text when unnamed).
std::vector<std::pair<QString, QLabel*>> labelsOnShow(QWidget* root)
{
    std::vector<std::pair<QString, QLabel*>> found;
    for (QLabel* label : root->findChildren<QLabel*>()) {
        if (!label->isVisibleTo(root) || !label->isEnabled() || label->text().trimmed().isEmpty())
            continue;
        if (label->size().isEmpty() || !label->pixmap().isNull()) continue;
        const QString name = label->objectName().isEmpty()
                                 ? QStringLiteral("QLabel \"%1\"").arg(label->text().left(40))
                                 : label->objectName();
        found.emplace_back(name, label);
    }
    return found;
}

void verifyLabelsRead(QWidget* root, const QString& where)
{
    for (const auto& [name, label] : labelsOnShow(root)) {
        const double ratio = textContrast(label);
        QVERIFY2(ratio >= 4.5, qPrintable(QStringLiteral("%1: %2 has contrast %3:1, under 4.5:1")
                                              .arg(where, name)
                                              .arg(ratio, 0, 'f', 2)));
    }
}

} // namespace

class TestThemeColours : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { useCleanTestEnvironment(); }
    void cleanup() { applyTheme(*qApp, Theme::Light); }

    void noColourLiteralsOutsidePalette_data();
    void noColourLiteralsOutsidePalette();
    void rolesReadInBothThemes_data();
    void rolesReadInBothThemes();
    void everyEditorReads_data();
    void everyEditorReads();
    void colouredStatesRead_data();
    void colouredStatesRead();

private:
    static QString sourceDir() { return qEnvironmentVariable("SLICESCOPE_SOURCE_DIR"); }
};

void TestThemeColours::noColourLiteralsOutsidePalette_data()
{
    QTest::addColumn<QString>("file");
    QDirIterator it(sourceDir() + QStringLiteral("/ui"),
                    {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                    QDirIterator::Subdirectories);
    QStringList files;
    while (it.hasNext())
        files << QDir(sourceDir()).relativeFilePath(it.next());
    files.sort();
    QVERIFY2(files.size() > 50,
             qPrintable(QStringLiteral("ui/ sources not found under \"%1\"").arg(sourceDir())));
    for (const QString& file : files)
        if (file != QLatin1String("ui/views/palette.cpp")) QTest::newRow(qPrintable(file)) << file;
}

void TestThemeColours::noColourLiteralsOutsidePalette()
{
    QFETCH(QString, file);
    QFile source(sourceDir() + u'/' + file);
    QVERIFY(source.open(QIODevice::ReadOnly | QIODevice::Text));
    int number = 0;
    for (const QString& line : QString::fromUtf8(source.readAll()).split(u'\n')) {
        ++number;
        const auto match = colourLiteral().match(line);
        if (!match.hasMatch()) continue;
        QFAIL(qPrintable(QStringLiteral("%1:%2 names a colour (\"%3\"): use a ColorRole of "
                                        "ui/views/palette.h")
                             .arg(file)
                             .arg(number)
                             .arg(match.captured(0))));
    }
}

void TestThemeColours::rolesReadInBothThemes_data()
{
    QTest::addColumn<int>("theme");
    QTest::newRow("light") << int(Theme::Light);
    QTest::newRow("dark") << int(Theme::Dark);
}

void TestThemeColours::rolesReadInBothThemes()
{
    QFETCH(int, theme);
    const QPalette palette = themePalette(Theme(theme));
    QCOMPARE(isDark(palette), Theme(theme) == Theme::Dark);
    const QRgb window = palette.color(QPalette::Window).rgb();
    const QRgb base = palette.color(QPalette::Base).rgb();
    const QRgb text = palette.color(QPalette::Text).rgb();
    const auto role = [&](ColorRole r) { return roleColor(r, palette).rgb(); };
    // Text roles on the window and on fields; tints under the palette's text; edges of error
    // boxes and fields (non-text: 3:1) against the window.
    for (ColorRole r : {ColorRole::Error, ColorRole::Warning, ColorRole::Success}) {
        QVERIFY2(contrast(role(r), window) >= 4.5, qPrintable(QString::number(int(r))));
        QVERIFY2(contrast(role(r), base) >= 4.5, qPrintable(QString::number(int(r))));
    }
    for (ColorRole r : {ColorRole::ErrorTint, ColorRole::NoticeTint})
        QVERIFY2(contrast(role(r), text) >= 7, qPrintable(QString::number(int(r))));
    QVERIFY(contrast(role(ColorRole::MarkText), role(ColorRole::Mark)) >= 4.5);
    QVERIFY(contrast(role(ColorRole::ErrorBorder), window) >= 3);
    QVERIFY(contrast(role(ColorRole::Error), window) >= 3);
    for (ColorRole r : {ColorRole::SyntaxName, ColorRole::SyntaxNumber, ColorRole::SyntaxColon,
                        ColorRole::SyntaxNone, ColorRole::SyntaxEllipsis, ColorRole::SyntaxError})
        QVERIFY2(contrast(role(r), base) >= 4.5, qPrintable(QString::number(int(r))));
    // One error red: the syntax error is it, and the themes differ.
    QCOMPARE(role(ColorRole::SyntaxError), role(ColorRole::Error));
    QVERIFY(roleColor(ColorRole::Error, themePalette(Theme::Light)) !=
            roleColor(ColorRole::Error, themePalette(Theme::Dark)));
}

void TestThemeColours::everyEditorReads_data()
{
    QTest::addColumn<int>("theme");
    QTest::newRow("light") << int(Theme::Light);
    QTest::newRow("dark") << int(Theme::Dark);
}

void TestThemeColours::everyEditorReads()
{
    QFETCH(int, theme);
    applyTheme(*qApp, Theme(theme));
    MainWindow w;
    w.forgetSession();
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QComboBox* picker = w.opPicker();
    QVERIFY(picker->count() > 10);
    for (int k = 0; k < picker->count(); ++k) {
        picker->setCurrentIndex(k);
        QVERIFY(waitSettled(w));
        verifyLabelsRead(&w, picker->itemData(k).toString());
    }
}

void TestThemeColours::colouredStatesRead_data()
{
    QTest::addColumn<int>("theme");
    QTest::addColumn<bool>("switchOpen"); // the theme is switched with the window open
    QTest::newRow("light") << int(Theme::Light) << false;
    QTest::newRow("dark") << int(Theme::Dark) << false;
    QTest::newRow("light, then dark") << int(Theme::Dark) << true;
}

void TestThemeColours::colouredStatesRead()
{
    QFETCH(int, theme);
    QFETCH(bool, switchOpen);
    applyTheme(*qApp, switchOpen ? Theme::Light : Theme(theme));
    // Each state is checked in the theme of the row; the last row reaches it by a switch with
    // the window open, and returns to the light theme for the next state.
    const auto verify = [&](QWidget* root, const QStringList& coloured) {
        if (switchOpen) applyTheme(*qApp, Theme(theme));
        QCoreApplication::processEvents();
        for (const QString& name : coloured) {
            auto* label = root->findChild<QLabel*>(name);
            QVERIFY2(label && label->isVisible() && !label->text().isEmpty(), qPrintable(name));
            const double ratio = textContrast(label);
            QVERIFY2(ratio >= 4.5, qPrintable(QStringLiteral("%1 has contrast %2:1, under 4.5:1")
                                                  .arg(name)
                                                  .arg(ratio, 0, 'f', 2)));
        }
        verifyLabelsRead(root, QStringLiteral("coloured states"));
    };
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));

    // An exercise answered wrong (its start is not its answer).
    w.docks()->exerciseDock()->toggleViewAction()->trigger();
    const Exercise& exercise = exerciseSets().front().exercises.front();
    QVERIFY(w.docks()->exercises()->openExercise(exercise.name));
    QVERIFY(waitSettled(w));
    w.docks()->exercises()->check();
    QVERIFY(w.docks()->exercises()->lastResult());
    QVERIFY(!w.docks()->exercises()->lastResult()->correct);
    verify(&w, {QStringLiteral("exerciseResult")});
    if (QTest::currentTestFailed()) return;
    applyTheme(*qApp, switchOpen ? Theme::Light : Theme(theme));

    // A failed edit keeps the good result on show, greyed as stale: the strip, the status and
    // the decode steps say so in their colours.
    w.setWorkspace(getitemWorkspace({4, 5}, QStringLiteral("x[1:3]")), QStringLiteral("good"));
    QVERIFY(waitSettled(w));
    w.setWorkspace(getitemWorkspace({4, 5}, QStringLiteral("x[1:2:0]")), QStringLiteral("bad"));
    QVERIFY(waitSettled(w));
    QVERIFY(w.isStale());
    QVERIFY(!w.message().isEmpty());
    // An input shape that does not read is outlined.
    auto* shape = w.findChild<QLineEdit*>(QStringLiteral("input0Shape"));
    QVERIFY(shape);
    QTest::keyClicks(shape, QStringLiteral(",,"));
    // The autosave warning and the offer to recover.
    emit w.session()->protectionChanged(QStringLiteral("No autosave could be written."));
    auto* recovery = w.findChild<QWidget*>(QStringLiteral("recoveryStrip"));
    QVERIFY(recovery);
    w.findChild<QLabel*>(QStringLiteral("recoveryText"))->setText(QStringLiteral("Recover?"));
    recovery->show();
    // A failed export.
    ExportDialog dialog(w, ExportDialog::Kind::Image);
    dialog.setView(QStringLiteral("window"));
    dialog.setPath(QStringLiteral("/nonexistent-folder/picture.png"));
    dialog.show();
    dialog.accept();
    QVERIFY(!dialog.errorText().isEmpty());

    verify(&w, {QStringLiteral("messageStrip"), QStringLiteral("statusState"),
                QStringLiteral("stepsStale"), QStringLiteral("autosaveWarning"),
                QStringLiteral("recoveryText")});
    verify(&dialog, {QStringLiteral("exportError")});
    // The unreadable shape's outline stands out from the window (3:1 for a control's edge), in
    // the theme's own error red.
    const QImage field = shape->grab().toImage();
    const QRgb window = QApplication::palette().color(QPalette::Window).rgb();
    const QRgb edge = field.pixel(1, field.height() / 2);
    QVERIFY2(contrast(edge, window) >= 3,
             qPrintable(QStringLiteral("outline %1 on window %2")
                            .arg(QColor(edge).name(), QColor(window).name())));
    QCOMPARE(QColor(edge).name(), roleColor(ColorRole::Error).name());
    // The offer to recover is drawn on its notice tint (a plain widget paints no style-sheet
    // background unless asked to: it was the window's colour).
    QTRY_VERIFY(recovery->isVisible() && recovery->width() > 20);
    const QImage whole = w.grab().toImage();
    const QPoint inside = recovery->mapTo(&w, QPoint(recovery->width() / 2, 3));
    QCOMPARE(QColor(whole.pixel(inside * whole.devicePixelRatio())).name(),
             roleColor(ColorRole::NoticeTint).name());
}

QTEST_MAIN(TestThemeColours)
#include "tst_themecolours.moc"
