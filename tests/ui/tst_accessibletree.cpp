// SPDX-License-Identifier: GPL-3.0-or-later
// The accessibility tree as assistive technology and AT-SPI tests see it (QAccessibleInterface,
// which Qt's AT-SPI bridge serves as it is): every control named, no markup in any name, tensor
// views as tables of named cells, decode steps as a list of named items.
#include "ui/model/exercises.h"
#include "ui/views/plaintext.h"
#include "ui/workbench/decodestepper.h"
#include "ui/workbench/docksetup.h"
#include "ui/workbench/exercisepanel.h"
#include "ui/workbench/mainwindow.h"
#include "workbench_testing.h"

#include <QAccessible>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QMouseEvent>
#include <QPushButton>
#include <QRegularExpression>
#include <QTest>
#include <qcustomplot.h>

using namespace ss;
using namespace ss::ui;
using ss::testing::waitSettled;

namespace {

/// Every interface under `root`; of a table only its first row of cells (they are thousands).
void collect(QAccessibleInterface* root, QList<QAccessibleInterface*>& out)
{
    out << root;
    const bool table = root->role() == QAccessible::Table;
    const int count = table ? std::min(root->childCount(), 8) : root->childCount();
    for (int i = 0; i < count; ++i)
        if (QAccessibleInterface* child = root->child(i)) collect(child, out);
}

QString path(QAccessibleInterface* iface)
{
    QStringList parts;
    for (QAccessibleInterface* i = iface; i; i = i->parent()) {
        parts.prepend(QStringLiteral("%1 '%2'").arg(
            i->object() ? QString::fromLatin1(i->object()->metaObject()->className())
                        : QStringLiteral("cell"),
            i->object() ? i->object()->objectName() : i->text(QAccessible::Name)));
        if (i->role() == QAccessible::Window) break;
    }
    return parts.join(QStringLiteral(" > "));
}

QAccessibleInterface* accessibleOf(QObject* object)
{
    return object ? QAccessible::queryAccessibleInterface(object) : nullptr;
}

} // namespace

class TestAccessibleTree : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { ss::testing::useCleanTestEnvironment(); }
    void everyControlIsNamedWithoutMarkup_data();
    void everyControlIsNamedWithoutMarkup();
    void tensorCellsAreATable();
    void heatMapSaysWhatItShows();
    void decodeStepsAreANamedList();
    void faceChoicesSayWhatTheyChoose();
    void exercisePanelSaysItsTexts();
    void tablesAlwaysAnswerACell();
    void keyboardCellIsTheCurrentCell();
};

void TestAccessibleTree::everyControlIsNamedWithoutMarkup_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::newRow("getitem") << "walkthrough";
    QTest::newRow("strided_slice") << "raw-negative-stride";
    QTest::newRow("slice") << "slice-begin-and-size";
}

void TestAccessibleTree::everyControlIsNamedWithoutMarkup()
{
    QFETCH(QString, lesson);
    MainWindow w;
    QVERIFY(w.openLesson(lesson));
    w.show();
    QVERIFY(waitSettled(w));
    QList<QAccessibleInterface*> all;
    collect(accessibleOf(&w), all);
    QVERIFY(all.size() > 50);
    static const QRegularExpression markup(
        QStringLiteral("<[a-zA-Z/][^>]*>|&(#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z]+);"));
    const QSet<QAccessible::Role> controls{
        QAccessible::PushButton,  QAccessible::CheckBox,       QAccessible::RadioButton,
        QAccessible::ComboBox,    QAccessible::EditableText,   QAccessible::SpinBox,
        QAccessible::Slider,      QAccessible::List,           QAccessible::Table,
        QAccessible::ButtonMenu,  QAccessible::ButtonDropDown, QAccessible::PageTab,
        QAccessible::ProgressBar, QAccessible::Cell,           QAccessible::ListItem};
    QStringList unnamed, marked;
    for (QAccessibleInterface* iface : all) {
        const QString name = iface->text(QAccessible::Name);
        const QString description = iface->text(QAccessible::Description);
        if (name.contains(markup) || description.contains(markup))
            marked << path(iface) + QStringLiteral(": ") + name + QStringLiteral(" / ") +
                          description;
        if (!controls.contains(iface->role()) || !name.trimmed().isEmpty()) continue;
        // A combo box's popup list is reached through the combo box, which is named.
        QAccessibleInterface* parent = iface->parent();
        if (iface->role() == QAccessible::List && parent && parent->role() == QAccessible::ComboBox)
            continue;
        unnamed << path(iface);
    }
    QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(QStringLiteral("\n"))));
    QVERIFY2(marked.isEmpty(), qPrintable(marked.join(QStringLiteral("\n"))));
}

void TestAccessibleTree::tensorCellsAreATable()
{
    MainWindow w;
    QVERIFY(w.openLesson(QStringLiteral("walkthrough")));
    w.show();
    QVERIFY(waitSettled(w));
    QAccessibleInterface* out =
        accessibleOf(w.outputView(0)->findChild<QWidget*>(QStringLiteral("canvas")));
    QVERIFY(out);
    QCOMPARE(out->role(), QAccessible::Table);
    QAccessibleTableInterface* table = out->tableInterface();
    QVERIFY(table);
    QCOMPARE(table->rowCount(), 100); // (2, 1, 5, 5, 2) rows of 5
    QCOMPARE(table->columnCount(), 5);
    // The cells, then the drawing's own widgets (the cell editor, scroll bars).
    QVERIFY(out->childCount() > 500);
    QAccessibleInterface* own = out->child(500);
    QVERIFY(own && own->object());
    QCOMPARE(out->indexOfChild(own), 500);
    QAccessibleInterface* first = table->cellAt(0, 0);
    QVERIFY(first);
    QCOMPARE(first->role(), QAccessible::Cell);
    QCOMPARE(first->text(QAccessible::Name), QStringLiteral("output[0, 0, 0, 0, 0, 0] = 4395"));
    QVERIFY2(first->text(QAccessible::Description)
                 .startsWith(QStringLiteral("read #1 of 500; output[0, 0, 0, 0, 0, 0] comes from "
                                            "input[1, 2, 0, 0, 4, 0]")),
             qPrintable(first->text(QAccessible::Description)));
    QCOMPARE(first->tableCellInterface()->rowIndex(), 0);
    QCOMPARE(out->indexOfChild(table->cellAt(3, 2)), 17);
    QCOMPARE(table->cellAt(0, 0), first); // one interface per cell, kept
    // Outside the table: the placeholder, never null (Qt's bridge reads it unchecked).
    QAccessibleInterface* outside = table->cellAt(100, 0);
    QVERIFY(outside && outside->tableCellInterface());
    QCOMPARE(outside->tableCellInterface()->rowIndex(), -1);

    QAccessibleInterface* in =
        accessibleOf(w.inputView(0)->findChild<QWidget*>(QStringLiteral("canvas")));
    QVERIFY(in && in->tableInterface());
    QCOMPARE(in->tableInterface()->selectedCellCount(), 500);
    // Selected cells come in read order: the reversed range starts at index 4 of dimension 4.
    const QList<QAccessibleInterface*> read = in->tableInterface()->selectedCells();
    QCOMPARE(read.size(), 500);
    QCOMPARE(read[0]->text(QAccessible::Name), QStringLiteral("input[1, 2, 0, 0, 4, 0] = 4395"));
    QCOMPARE(read[0]->text(QAccessible::Description), QStringLiteral("read #1 of 500"));
    QCOMPARE(read[5]->text(QAccessible::Name), QStringLiteral("input[1, 2, 0, 0, 3, 0] = 4390"));
    QCOMPARE(read[6]->text(QAccessible::Description), QStringLiteral("read #7 of 500"));
    QVERIFY(read[0]->state().selected);
    QCOMPARE(in->tableInterface()->cellAt(0, 0)->text(QAccessible::Description),
             QStringLiteral("not read"));
    QVERIFY(!in->tableInterface()->cellAt(0, 0)->state().selected);
    // A new tensor of another shape: the cells follow.
    w.setWorkspace(ss::testing::getitemWorkspace({2, 3}, QStringLiteral("x[1]")),
                   QStringLiteral("test"));
    QVERIFY(waitSettled(w));
    QAccessibleInterface* after =
        accessibleOf(w.inputView(0)->findChild<QWidget*>(QStringLiteral("canvas")));
    QCOMPARE(after->tableInterface()->rowCount(), 2);
    QCOMPARE(after->tableInterface()->cellAt(1, 2)->text(QAccessible::Name),
             QStringLiteral("input[1, 2] = 5"));
    QCOMPARE(after->tableInterface()->rowDescription(1), QStringLiteral("[1, :]"));
}

void TestAccessibleTree::heatMapSaysWhatItShows()
{
    MainWindow w;
    w.setWorkspace(ss::testing::getitemWorkspace({300, 400}, QStringLiteral("x[10:20, ::-1]")),
                   QStringLiteral("test"));
    w.show();
    QVERIFY(waitSettled(w));
    TensorView* view = w.inputView(0);
    QVERIFY(view->isHeatMap());
    QAccessibleInterface* heat = accessibleOf(view->findChild<QWidget*>(QStringLiteral("heatMap")));
    QVERIFY(heat && heat->tableInterface());
    QCOMPARE(heat->tableInterface()->rowCount(), 300);
    const QString description = heat->text(QAccessible::Description);
    QVERIFY2(description.contains(QStringLiteral("shows input[0:300, 0:400]")),
             qPrintable(description));
    QCOMPARE(heat->tableInterface()->cellAt(10, 399)->text(QAccessible::Description),
             QStringLiteral("read #1 of 4000"));
    // The element under the mouse is described with the block.
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* plot = view->findChild<QCustomPlot*>(QStringLiteral("heatMap"));
    const std::int64_t flat = view->elementAt(plot->mapTo(view, plot->axisRect()->rect().center()));
    QVERIFY(flat >= 0);
    QWidget* vp = view->viewport();
    const QRect rect = view->elementRect(flat);
    // Straight to the drawing: in a whole window the offscreen platform's pointer may land on
    // another widget.
    const QPoint at = vp->mapFrom(view, rect.center());
    QMouseEvent move(QEvent::MouseMove, at, vp->mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(vp, &move);
    QVERIFY(QTest::qWaitFor([&] { return view->hoveredElement() >= 0; }, 5000));
    const QString hovered = heat->text(QAccessible::Description);
    QVERIFY2(hovered.contains(QStringLiteral("under the mouse: input[")), qPrintable(hovered));
}

void TestAccessibleTree::decodeStepsAreANamedList()
{
    MainWindow w;
    QVERIFY(w.openLesson(QStringLiteral("walkthrough")));
    w.show();
    QVERIFY(waitSettled(w));
    QAccessibleInterface* list =
        accessibleOf(w.stepper()->findChild<QListWidget*>(QStringLiteral("decodeSteps")));
    QVERIFY(list);
    QCOMPARE(list->role(), QAccessible::List);
    QCOMPARE(list->text(QAccessible::Name), QStringLiteral("Decode steps"));
    QVERIFY(list->childCount() >= 5);
    QCOMPARE(list->childCount(), w.stepper()->stepCount());
    for (int i = 0; i < list->childCount(); ++i) {
        QAccessibleInterface* item = list->child(i);
        QCOMPARE(item->role(), QAccessible::ListItem);
        QCOMPARE(item->text(QAccessible::Name),
                 QStringLiteral("%1. %2").arg(i + 1).arg(w.stepper()->stepTitle(i)));
        QVERIFY(!item->text(QAccessible::Description).isEmpty());
    }
    w.stepper()->next();
    w.stepper()->next();
    QVERIFY(list->child(1)->state().selected);
    QVERIFY(!list->child(0)->state().selected);
}

void TestAccessibleTree::faceChoicesSayWhatTheyChoose()
{
    // On Linux Qt names a combo box by its current text; what it chooses reaches a screen reader
    // through the label it is the buddy of (AT-SPI's labelled-by). The rows and cols of the
    // input's and the output's faces said only "dim 4" and "dim 5".
    MainWindow w;
    QVERIFY(w.openLesson(QStringLiteral("walkthrough")));
    w.show();
    QVERIFY(waitSettled(w));
    for (TensorView* view : {w.inputView(0), w.outputView(0)}) {
        for (const auto& [name, says] :
             {std::pair{QStringLiteral("faceRows"), QStringLiteral("Dimension drawn as rows")},
              std::pair{QStringLiteral("faceCols"),
                        QStringLiteral("Dimension drawn as columns")}}) {
            auto* box = view->findChild<QComboBox*>(name);
            QVERIFY(box && box->isVisibleTo(&w));
            QAccessibleInterface* iface = accessibleOf(box);
            QString said = iface->text(QAccessible::Name);
            if (said == box->currentText()) said.clear(); // the value, not what it chooses
            for (const auto& relation : iface->relations(QAccessible::Label))
                said += relation.first->text(QAccessible::Name);
            QCOMPARE(said, says);
        }
    }
}

void TestAccessibleTree::exercisePanelSaysItsTexts()
{
    // Each label is named by what it is and what it says (a new name is a NameChanged event,
    // which external_atspi hears over AT-SPI: offscreen, Qt sends no events); the verdict and
    // the exercise now open are also the description of the focused button.
    MainWindow w;
    w.show();
    ExercisePanel* panel = w.docks()->exercises();
    const auto label = [panel](const char* name) {
        return panel->findChild<QLabel*>(QString::fromLatin1(name));
    };
    const auto nameOf = [](QObject* o) { return accessibleOf(o)->text(QAccessible::Name); };
    QCOMPARE(nameOf(label("exerciseResult")), QStringLiteral("Result: Choose an exercise below."));
    QCOMPARE(nameOf(label("exerciseTask")), QStringLiteral("Task"));

    const Exercise* exercise = findExercise(QStringLiteral("row-two"));
    QVERIFY(exercise);
    QVERIFY(panel->openExercise(exercise->name));
    QVERIFY(waitSettled(w));
    const QString task = QStringLiteral("Task: ") + plainText(exercise->task);
    QCOMPARE(nameOf(label("exerciseTask")), task);
    QCOMPARE(nameOf(label("exerciseTitle")), QStringLiteral("Exercise title: ") + exercise->title);
    QVERIFY2(nameOf(label("exerciseHeading")).contains(QStringLiteral("exercise 1 of ")),
             qPrintable(nameOf(label("exerciseHeading"))));
    QVERIFY2(nameOf(label("exerciseTargetShape"))
                 .startsWith(QStringLiteral("Target shape: Target: output shape (")),
             qPrintable(nameOf(label("exerciseTargetShape"))));
    QVERIFY2(nameOf(label("exerciseCount")).startsWith(QStringLiteral("Progress: Solved ")),
             qPrintable(nameOf(label("exerciseCount"))));
    QCOMPARE(nameOf(label("exerciseResult")), QStringLiteral("Result"));

    // A wrong answer: the verdict is named without markup, and Check describes it.
    w.setWorkspace(ss::testing::getitemWorkspace({4, 5}, QStringLiteral("x[1]")),
                   QStringLiteral("answer"));
    panel->check();
    QVERIFY(panel->lastResult() && !panel->lastResult()->correct);
    const QString verdict = nameOf(label("exerciseResult"));
    QVERIFY2(verdict.startsWith(QStringLiteral("Result: Not yet. ")), qPrintable(verdict));
    QVERIFY2(!verdict.contains(u'<'), qPrintable(verdict));
    auto* check = panel->findChild<QPushButton*>(QStringLiteral("exerciseCheck"));
    QCOMPARE(accessibleOf(check)->text(QAccessible::Description),
             verdict.mid(QStringLiteral("Result: ").size()));

    // Next: the focused Next button describes the exercise it opened.
    auto* next = panel->findChild<QPushButton*>(QStringLiteral("exerciseNext"));
    next->click();
    const Exercise* second = findExercise(panel->currentExercise());
    QVERIFY(second && second != exercise);
    const QString described = accessibleOf(next)->text(QAccessible::Description);
    QVERIFY2(described.contains(second->title) && described.contains(plainText(second->task)),
             qPrintable(described));
}

void TestAccessibleTree::tablesAlwaysAnswerACell()
{
    // Qt 6.4's AT-SPI bridge dereferences cellAt() unchecked (GetRowHeader, GetRowExtentAt,
    // GetRowColumnExtentsAtIndex with the row and column a client sends): any cell asked of any
    // tensor table, empty ones included, is an interface with a cell interface.
    MainWindow w;
    w.show();
    QVERIFY(w.openLesson(QStringLiteral("walkthrough")));
    QVERIFY(waitSettled(w));
    // The exercise dock's target with no exercise open is an empty tensor.
    QWidget* emptyCanvas =
        w.docks()->exercises()->targetView()->findChild<QWidget*>(QStringLiteral("canvas"));
    QWidget* outputCanvas = w.outputView(0)->findChild<QWidget*>(QStringLiteral("canvas"));
    for (QWidget* canvas : {emptyCanvas, outputCanvas}) {
        QAccessibleInterface* table = accessibleOf(canvas);
        QVERIFY(table && table->tableInterface());
        const int rows = table->tableInterface()->rowCount();
        const int cols = table->tableInterface()->columnCount();
        for (const auto& [row, col] : QList<QPair<int, int>>{
                 {-1, -1}, {-1, 0}, {0, -1}, {rows, 0}, {0, cols}, {rows, cols}, {1 << 30, 3}}) {
            QAccessibleInterface* cell = table->tableInterface()->cellAt(row, col);
            QVERIFY2(cell && cell->isValid() && cell->tableCellInterface(),
                     qPrintable(QStringLiteral("%1, %2").arg(row).arg(col)));
            QCOMPARE(cell->tableCellInterface()->rowIndex(), -1);
            QCOMPARE(cell->tableCellInterface()->columnIndex(), -1);
            QCOMPARE(cell->tableCellInterface()->rowExtent(), 0);
            QVERIFY(cell->text(QAccessible::Name).isEmpty());
            QCOMPARE(table->indexOfChild(cell), -1);
            QCOMPARE(cell->tableCellInterface()->table(), table);
        }
        // No current cell before the table has the focus: none is claimed.
        QVERIFY(!table->focusChild());
    }
    QCOMPARE(accessibleOf(emptyCanvas)->tableInterface()->rowCount() *
                 accessibleOf(emptyCanvas)->tableInterface()->columnCount(),
             0);
    // The window closes with the placeholders handed out (they go with their tables).
}

void TestAccessibleTree::keyboardCellIsTheCurrentCell()
{
    // The canvas's keyboard cell is the table's current cell: focused and the focus child, from
    // the moment the table has the focus (the Focus event for the cell that goes with it is
    // heard over AT-SPI by external_atspi: offscreen, Qt sends no events).
    MainWindow w;
    w.show();
    QVERIFY(w.openLesson(QStringLiteral("walkthrough")));
    QVERIFY(waitSettled(w));
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QWidget* canvas = w.outputView(0)->findChild<QWidget*>(QStringLiteral("canvas"));
    QAccessibleInterface* table = accessibleOf(canvas);
    QVERIFY(table && !table->focusChild());
    canvas->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(canvas->hasFocus());
    QAccessibleInterface* current = table->focusChild();
    QVERIFY(current);
    QCOMPARE(current, table->tableInterface()->cellAt(0, 0));
    QVERIFY(current->state().focused);
    const QString first = current->text(QAccessible::Name);
    QVERIFY2(first.startsWith(QStringLiteral("output[0, 0")), qPrintable(first));

    QTest::keyClick(canvas, Qt::Key_Right);
    QAccessibleInterface* moved = table->focusChild();
    QCOMPARE(moved, table->tableInterface()->cellAt(0, 1));
    QVERIFY(moved->state().focused);
    QVERIFY(!current->state().focused);
}

QTEST_MAIN(TestAccessibleTree)
#include "tst_accessibletree.moc"
