// SPDX-License-Identifier: GPL-3.0-or-later
// Nothing moves under the pointer: adding rows to an argument table or causing an error leaves
// every control where it was (the editor area keeps its height, the error strip its room).
#include "ui/editors/argtable.h"
#include "ui/editors/speceditor.h"
#include "ui/views/palette.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/messagestrip.h"
#include "workbench_testing.h"

#include <QApplication>
#include <QComboBox>
#include <QHelpEvent>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QTest>
#include <QUndoStack>

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

namespace {

// Where each control of interest is, in window coordinates.
std::map<QString, QRect> placesOf(MainWindow& w)
{
    std::map<QString, QRect> places;
    const QStringList names{QStringLiteral("opPicker"),    QStringLiteral("rawArgsTable"),
                            QStringLiteral("rawArgsAdd"),  QStringLiteral("specEditor"),
                            QStringLiteral("input0Shape"), QStringLiteral("input0DType"),
                            QStringLiteral("input0View"),  QStringLiteral("output0View"),
                            QStringLiteral("decodeSteps"), QStringLiteral("opEditorHost"),
                            QStringLiteral("inputPanel"),  QStringLiteral("outputPanel")};
    for (const QString& name : names)
        if (auto* widget = w.findChild<QWidget*>(name); widget && widget->isVisibleTo(&w))
            places[name] = QRect(widget->mapTo(&w, QPoint(0, 0)), widget->size());
    return places;
}

QString describe(const std::map<QString, QRect>& before, const std::map<QString, QRect>& after)
{
    QStringList moved;
    for (const auto& [name, rect] : before) {
        const auto it = after.find(name);
        if (it == after.end())
            moved << name + QStringLiteral(" disappeared");
        else if (it->second != rect)
            moved << QStringLiteral("%1 (%2,%3 %4x%5) -> (%6,%7 %8x%9)")
                         .arg(name)
                         .arg(rect.x())
                         .arg(rect.y())
                         .arg(rect.width())
                         .arg(rect.height())
                         .arg(it->second.x())
                         .arg(it->second.y())
                         .arg(it->second.width())
                         .arg(it->second.height());
    }
    return moved.join(QStringLiteral("; "));
}

} // namespace

class TestLayout : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { useCleanTestEnvironment(); }
    void rowsAndErrorsMoveNothing_data();
    void rowsAndErrorsMoveNothing();
    void messageStripKeepsItsRoom();
    void aShapeTooLongForItsFieldIsInItsTooltip();
    void messageStripOpensToTheWholeMessage();
    void messageStripShowsEveryLineItHolds_data();
    void messageStripShowsEveryLineItHolds();
    void messageStripFollowsTheTheme();
    void messageStripShowsNotesAsNotes_data();
    void messageStripShowsNotesAsNotes();
};

void TestLayout::rowsAndErrorsMoveNothing_data()
{
    QTest::addColumn<QString>("op");
    QTest::newRow("getitem") << QStringLiteral("getitem");
    QTest::newRow("strided_slice") << QStringLiteral("strided_slice");
}

void TestLayout::rowsAndErrorsMoveNothing()
{
    QFETCH(QString, op);
    MainWindow w;
    w.forgetSession();
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[1:, ::-2]")), QStringLiteral("test"));
    if (op != QLatin1String("getitem")) pickOp(w, op);
    QVERIFY(showSettled(w, {1280, 800}));
    QCOMPARE(w.workspace().op, op.toStdString());
    const auto before = placesOf(w);
    const int start = w.undoStack()->index();
    QVERIFY(before.count(QStringLiteral("rawArgsTable")));

    auto* add = w.findChild<QPushButton*>(QStringLiteral("rawArgsAdd"));
    auto* table = w.findChild<QTableView*>(QStringLiteral("rawArgsTable"));
    const int rows = table->model()->rowCount();
    for (int k = 0; k < 5; ++k) {
        QTest::mouseClick(add, Qt::LeftButton);
        QVERIFY(waitSettled(w));
    }
    QCOMPARE(table->model()->rowCount(), rows + 5);
    QVERIFY2(placesOf(w) == before, qPrintable(describe(before, placesOf(w))));

    // An error: a zero stride in the last row (typed, for the expression).
    if (SpecEditor* spec = w.specEditor()) {
        spec->setFocus();
        spec->end(false);
        QTest::keyClick(spec, Qt::Key_Left); // inside the bracket
        QTest::keyClicks(spec, QStringLiteral(", ::0"));
    } else {
        auto* model = qobject_cast<ArgTableModel*>(table->model());
        QVERIFY(model->setData(model->index(model->rowCount() - 1, 2), 0, Qt::EditRole));
    }
    QVERIFY(waitSettled(w));
    QVERIFY(!w.lastEvaluation()->ok);
    QVERIFY(!w.message().isEmpty());
    QVERIFY2(placesOf(w) == before, qPrintable(describe(before, placesOf(w))));

    // And back to where it started: the error goes, nothing moves either.
    w.undoStack()->setIndex(start);
    QVERIFY(waitSettled(w));
    QVERIFY(w.lastEvaluation()->ok);
    QVERIFY(w.message().isEmpty());
    QVERIFY2(placesOf(w) == before, qPrintable(describe(before, placesOf(w))));
}

// Three sizes of 2^40 scroll in the shape field at 1024 x 700: its tooltip says the whole shape
// before how to write one; a shape that shows whole is not repeated there.
void TestLayout::aShapeTooLongForItsFieldIsInItsTooltip()
{
    MainWindow w;
    const std::int64_t big = std::int64_t(1) << 40;
    w.setWorkspace(getitemWorkspace({big, big, big}, QStringLiteral("x[0]")), QStringLiteral("t"));
    QVERIFY(showSettled(w, QSize(1024, 700)));
    auto* field = w.findChild<QLineEdit*>(QStringLiteral("input0Shape"));
    QVERIFY(field);
    const QString whole = QStringLiteral("(1099511627776, 1099511627776, 1099511627776)");
    QCOMPARE(field->text(), whole);
    QVERIFY2(field->fontMetrics().horizontalAdvance(whole) > field->width(),
             "the shape shows whole: the test needs one that does not");
    const auto toolTipShown = [field] {
        QHelpEvent event(QEvent::ToolTip, QPoint(4, 4), field->mapToGlobal(QPoint(4, 4)));
        QApplication::sendEvent(field, &event);
        return field->toolTip();
    };
    QVERIFY2(toolTipShown().startsWith(QStringLiteral("Shape: ") + whole + u'\n'),
             qPrintable(toolTipShown()));
    QVERIFY2(toolTipShown().contains(QStringLiteral("outermost first")),
             qPrintable(field->toolTip()));

    w.setWorkspace(getitemWorkspace({4, 6}, QStringLiteral("x[0]")), QStringLiteral("t"));
    QVERIFY(waitSettled(w));
    QVERIFY2(toolTipShown().startsWith(QStringLiteral("Dimension sizes")),
             qPrintable(field->toolTip()));
}

void TestLayout::messageStripKeepsItsRoom()
{
    MessageStrip strip(2);
    strip.resize(300, strip.height());
    strip.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strip));
    const int room = strip.height();
    QVERIFY(room >= 2 * strip.fontMetrics().lineSpacing());
    strip.setMessage(QStringLiteral("<b>invalid_argument</b>: short"));
    QCOMPARE(strip.height(), room);
    QVERIFY(!strip.isElided());
    QVERIFY(strip.text().contains(QStringLiteral("short")));
    QString words;
    for (int k = 0; k < 40; ++k)
        words += QStringLiteral("word%1 ").arg(k);
    const QString html = QStringLiteral("<b>invalid_argument</b>: ") + words;
    strip.setMessage(html);
    QCOMPARE(strip.height(), room);
    QVERIFY(strip.isElided());
    QVERIFY2(strip.text().endsWith(QChar(0x2026)), qPrintable(strip.text()));
    QVERIFY(!strip.text().contains(QStringLiteral("word39")));
    QCOMPARE(strip.message(), html); // whole, for message() and the tooltip
    QCOMPARE(strip.toolTip(), html);
    // Wider, it fits again.
    strip.resize(4000, strip.height());
    QVERIFY(!strip.isElided());
    strip.setMessage(QString());
    QCOMPARE(strip.height(), room);
    QVERIFY(strip.text().isEmpty());
}

// A message cut to the strip's two lines can be read whole in the window: a click or Enter opens
// the strip to its full height, and again closes it to the reserved room.
void TestLayout::messageStripOpensToTheWholeMessage()
{
    MessageStrip strip(2);
    strip.resize(300, strip.height());
    strip.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strip));
    const int room = strip.height();
    QString words;
    for (int k = 0; k < 40; ++k)
        words += QStringLiteral("word%1 ").arg(k);
    strip.setMessage(QStringLiteral("<b>invalid_argument</b>: ") + words);
    QVERIFY(strip.isElided());
    QCOMPARE(strip.focusPolicy(), Qt::StrongFocus); // reachable from the keyboard
    QTest::mouseClick(&strip, Qt::LeftButton);
    QVERIFY(strip.isExpanded());
    QVERIFY(!strip.isElided());
    QVERIFY(strip.height() > room);
    QVERIFY2(strip.text().contains(QStringLiteral("word39")), qPrintable(strip.text()));
    QTest::mouseClick(&strip, Qt::LeftButton);
    QVERIFY(!strip.isExpanded());
    QCOMPARE(strip.height(), room);
    strip.setFocus();
    QTest::keyClick(&strip, Qt::Key_Return);
    QVERIFY(strip.isExpanded());
    QVERIFY(strip.text().contains(QStringLiteral("word39")));
    // The next message that fits closes it; a short one never opens.
    strip.setMessage(QStringLiteral("short"));
    QVERIFY(!strip.isExpanded());
    QCOMPARE(strip.height(), room);
    QCOMPARE(strip.focusPolicy(), Qt::NoFocus);
    QTest::mouseClick(&strip, Qt::LeftButton);
    QVERIFY(!strip.isExpanded());
}

void TestLayout::messageStripShowsEveryLineItHolds_data()
{
    QTest::addColumn<int>("words");
    QTest::addColumn<bool>("expanded");
    QTest::newRow("one line") << 3 << false;
    QTest::newRow("two lines") << 12 << false;
    QTest::newRow("cut to two lines") << 60 << false;
    QTest::newRow("opened whole") << 60 << true;
}

// The text QLabel lays out fits the strip's height: QLabel's default indent (half an x, added
// above and left of the text of a label with a frame, which the strip's border is) pushed the
// second line of a start error half out of the strip.
void TestLayout::messageStripShowsEveryLineItHolds()
{
    QFETCH(int, words);
    QFETCH(bool, expanded);
    MessageStrip strip(2);
    strip.resize(420, strip.height());
    strip.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strip));
    QString text = QStringLiteral("SliceScope could not start as asked:");
    for (int k = 0; k < words; ++k)
        text += QStringLiteral(" word%1").arg(k);
    strip.setMessage(text);
    strip.setExpanded(expanded);
    QCOMPARE(strip.isExpanded(), expanded);
    QVERIFY2(strip.heightForWidth(strip.width()) <= strip.height(),
             qPrintable(QStringLiteral("the text needs %1 px, the strip is %2 px")
                            .arg(strip.heightForWidth(strip.width()))
                            .arg(strip.height())));
}

// The strip's colours come from the palette: dark on the dark theme, light on the light one.
void TestLayout::messageStripFollowsTheTheme()
{
    // Inside a shown window, as in the workbench, themed as View > Dark theme does it.
    QWidget window;
    MessageStrip& strip = *new MessageStrip(2, &window);
    strip.setMessage(QStringLiteral("<b>invalid_argument</b>: wrong"));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* app = qobject_cast<QApplication*>(QCoreApplication::instance());
    applyTheme(*app, Theme::Dark);
    QVERIFY2(strip.background().lightness() < 100, qPrintable(strip.background().name()));
    QVERIFY(strip.foreground().lightness() > 180);
    QTRY_VERIFY2(strip.styleSheet().contains(strip.background().name()),
                 qPrintable(strip.styleSheet()));
    applyTheme(*app, Theme::Light);
    QVERIFY2(strip.background().lightness() > 200, qPrintable(strip.background().name()));
    QVERIFY(strip.foreground().lightness() < 80);
    QTRY_VERIFY2(strip.styleSheet().contains(strip.background().name()),
                 qPrintable(strip.styleSheet()));
}

void TestLayout::messageStripShowsNotesAsNotes_data()
{
    QTest::addColumn<bool>("dark");
    QTest::newRow("light theme") << false;
    QTest::newRow("dark theme") << true;
}

// A note (an opened file's remark, a confirmation) is drawn on the notice tint and named "Note";
// an error on the error tint, named "Error message": in either theme (every message was red).
void TestLayout::messageStripShowsNotesAsNotes()
{
    QFETCH(bool, dark);
    auto* app = qobject_cast<QApplication*>(QCoreApplication::instance());
    applyTheme(*app, dark ? Theme::Dark : Theme::Light);
    QWidget window;
    MessageStrip& strip = *new MessageStrip(2, &window);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    strip.setMessage(QStringLiteral("idx = [3, 0] (int64 (2,)), given"), MessageStrip::Kind::Note);
    QCOMPARE(strip.kind(), MessageStrip::Kind::Note);
    QCOMPARE(strip.background(), roleColor(ColorRole::NoticeTint));
    QCOMPARE(strip.border(), roleColor(ColorRole::NoticeBorder));
    QVERIFY(strip.background() != roleColor(ColorRole::ErrorTint));
    QTRY_VERIFY2(strip.styleSheet().contains(strip.background().name()),
                 qPrintable(strip.styleSheet()));
    QCOMPARE(strip.accessibleName(), QStringLiteral("Note"));
    QCOMPARE(strip.accessibleDescription(), QStringLiteral("idx = [3, 0] (int64 (2,)), given"));
    strip.setMessage(QStringLiteral("<b>invalid_argument</b>: wrong"));
    QCOMPARE(strip.kind(), MessageStrip::Kind::Error);
    QCOMPARE(strip.background(), roleColor(ColorRole::ErrorTint));
    QTRY_VERIFY2(strip.styleSheet().contains(strip.background().name()),
                 qPrintable(strip.styleSheet()));
    QCOMPARE(strip.accessibleName(), QStringLiteral("Error message"));
    applyTheme(*app, Theme::Light);
}

QTEST_MAIN(TestLayout)
#include "tst_layout.moc"
