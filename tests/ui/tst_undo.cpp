// SPDX-License-Identifier: GPL-3.0-or-later
// Every edit is one undo step, in every editor: undo restores exactly the workspace before it,
// redo the one after. Keystrokes in one text field may merge into one step; edits of different
// fields or cells never do. Opening a lesson or a file is no step: the history starts afresh.
#include "core/slice_expr.h"
#include "ui/editors/argtable.h"
#include "ui/editors/speceditor.h"
#include "ui/model/workspacefile.h"
#include "workbench_testing.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

namespace {

QString exprOf(const Workspace& ws)
{
    const auto it = ws.attrs.find("expr");
    return it != ws.attrs.end() && it->second.isString()
               ? QString::fromStdString(it->second.toString())
               : QString();
}

QTableView* table(MainWindow& w, const QString& name)
{
    return w.findChild<QTableView*>(name);
}

ArgTableModel* tableModel(MainWindow& w, const QString& name)
{
    QTableView* view = table(w, name);
    return view ? qobject_cast<ArgTableModel*>(view->model()) : nullptr;
}

// Types `text` into a table cell as a person would: select it, type (which opens its editor),
// Return.
void typeInCell(QTableView* view, int row, int column, const QString& text)
{
    view->setFocus();
    view->setCurrentIndex(view->model()->index(row, column));
    QTest::keyClick(view, text.at(0).toLatin1());
    QWidget* editor = QApplication::focusWidget();
    QVERIFY(editor && editor != view);
    QTest::keyClicks(editor, text.mid(1));
    QTest::keyClick(editor, Qt::Key_Return);
    // The delegate commits on Return through a queued call.
    QTRY_VERIFY(QApplication::focusWidget() == view);
}

// Ticks or unticks a check-box cell with the space bar.
void toggleCell(QTableView* view, int row, int column)
{
    view->setFocus();
    view->setCurrentIndex(view->model()->index(row, column));
    QTest::keyClick(view->viewport(), Qt::Key_Space);
}

// Replaces a line edit's text by typing.
void typeInField(QLineEdit* field, const QString& text)
{
    field->setFocus();
    field->selectAll();
    QTest::keyClick(field, Qt::Key_Backspace);
    QTest::keyClicks(field, text);
}

// Picks the next item of a combo box with the keyboard (which emits `activated`, as a click does).
void nextItem(QComboBox* box)
{
    box->setFocus();
    QTest::keyClick(box, Qt::Key_Down);
}

// The table always says what the expression encodes to.
bool tableShowsExpression(MainWindow& w)
{
    ArgTableModel* model = tableModel(w, QStringLiteral("rawArgsTable"));
    const SparseSpec sparse = encodeExpression(exprOf(w.workspace()).toStdString()).sparse;
    if (!model || model->rowCount() != int(sparse.strides.size())) return false;
    for (int r = 0; r < model->rowCount(); ++r) {
        const auto& row = model->rows()[std::size_t(r)];
        if (row[0] != sparse.begin[std::size_t(r)] || row[1] != sparse.end[std::size_t(r)] ||
            row[2] != sparse.strides[std::size_t(r)])
            return false;
    }
    return model->mask(3) == sparse.beginMask && model->mask(4) == sparse.endMask &&
           model->mask(5) == sparse.ellipsisMask && model->mask(6) == sparse.newAxisMask &&
           model->mask(7) == sparse.shrinkAxisMask;
}

} // namespace

class TestUndo : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { useCleanTestEnvironment(); }
    void tableEditIsNeverDropped();
    void everyEditorEditIsOneStep();
    void keystrokesInOneFieldMerge();
    void openingIsNoUndoStep();
    void undoKeysUndoTheWorkspaceInEveryField_data();
    void undoKeysUndoTheWorkspaceInEveryField();
    void theModelDocksFieldsKeepTheirOwnUndo();

private:
    // Makes one edit with `act`, then checks it is one step that undo and redo walk exactly.
    void checkOneStep(MainWindow& w, const char* what, const std::function<void()>& act);
    // Shows `w` on x[1:, ::-1] of a 2x3 input, active, so that key clicks reach its fields.
    void showForKeys(MainWindow& w);
    std::vector<std::pair<Workspace, Workspace>> m_steps; // before, after: in order
};

void TestUndo::checkOneStep(MainWindow& w, const char* what, const std::function<void()>& act)
{
    const Workspace before = w.workspace();
    const int index = w.undoStack()->index();
    act();
    QVERIFY2(w.workspace() != before, what);
    QVERIFY2(w.undoStack()->index() == index + 1, what);
    QVERIFY2(w.undoStack()->count() == index + 1, what);
    m_steps.emplace_back(before, w.workspace());
}

void TestUndo::showForKeys(MainWindow& w)
{
    w.forgetSession();
    w.setWorkspace(getitemWorkspace({2, 3}, QStringLiteral("x[1:, ::-1]")), QStringLiteral("t"));
    w.show();
    QApplication::setActiveWindow(&w);
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(waitSettled(w));
}

void TestUndo::tableEditIsNeverDropped()
{
    // Issue 8 item 5: in x[1:3, ::2] tick shrink_axis_mask on entry 1, set entry 0's stride
    // to -1, then entry 1's stride to 3.
    MainWindow w;
    w.forgetSession();
    w.setWorkspace(getitemWorkspace({4, 6}, QStringLiteral("x[1:3, ::2]")), QStringLiteral("t"));
    w.show();
    QVERIFY(waitSettled(w));
    QTableView* view = table(w, QStringLiteral("rawArgsTable"));
    const int start = w.undoStack()->index();

    toggleCell(view, 1, 7);
    QCOMPARE(exprOf(w.workspace()), QStringLiteral("x[1:3, 0]"));
    QVERIFY(tableShowsExpression(w));
    typeInCell(view, 0, 2, QStringLiteral("-1"));
    QCOMPARE(exprOf(w.workspace()), QStringLiteral("x[1:3:-1, 0]"));
    QVERIFY(tableShowsExpression(w));
    QCOMPARE(w.undoStack()->index(), start + 2);

    // A stride on an index has no effect and no subscript writes it: the workspace stays, and
    // so does the table (the cell does not claim a 3 the workspace lacks); the note says why.
    typeInCell(view, 1, 2, QStringLiteral("3"));
    QVERIFY(waitSettled(w));
    QCOMPARE(exprOf(w.workspace()), QStringLiteral("x[1:3:-1, 0]"));
    QVERIFY(tableShowsExpression(w));
    QCOMPARE(view->model()->index(1, 2).data().toLongLong(), 1);
    const auto* note = w.findChild<QLabel*>(QStringLiteral("rawArgsNote"));
    QVERIFY(note && note->isVisible());
    QVERIFY2(note->text().contains(QStringLiteral("stride of entry 1"), Qt::CaseInsensitive),
             qPrintable(note->text()));
    QCOMPARE(w.undoStack()->index(), start + 2); // nothing changed: no step

    // One Ctrl+Z undoes the last edit only.
    w.undoStack()->undo();
    QCOMPARE(exprOf(w.workspace()), QStringLiteral("x[1:3, 0]"));
    QVERIFY(tableShowsExpression(w));
    w.undoStack()->undo();
    QCOMPARE(exprOf(w.workspace()), QStringLiteral("x[1:3, ::2]"));
    QVERIFY(tableShowsExpression(w));
    QVERIFY(waitSettled(w));
}

void TestUndo::everyEditorEditIsOneStep()
{
    MainWindow w;
    w.forgetSession();
    w.setWorkspace(getitemWorkspace({4, 6}, QStringLiteral("x[0:2, 1:3]")), QStringLiteral("t"));
    w.show();
    QVERIFY(waitSettled(w));
    w.undoStack()->clear();
    m_steps.clear();

    // The expression, typed (several keys: one step).
    checkOneStep(w, "expression",
                 [&] { typeInField(w.specEditor(), QStringLiteral("x[0:2, 1:4]")); });
    // Each column of the raw table, one after the other, quicker than the merge window.
    QTableView* raw = table(w, QStringLiteral("rawArgsTable"));
    checkOneStep(w, "begin", [&] { typeInCell(raw, 0, 0, QStringLiteral("1")); });
    checkOneStep(w, "end", [&] { typeInCell(raw, 0, 1, QStringLiteral("3")); });
    checkOneStep(w, "stride", [&] { typeInCell(raw, 1, 2, QStringLiteral("2")); });
    checkOneStep(w, "begin_mask", [&] { toggleCell(raw, 0, 3); });
    checkOneStep(w, "end_mask", [&] { toggleCell(raw, 1, 4); });
    checkOneStep(w, "new_axis_mask", [&] { toggleCell(raw, 0, 6); });
    checkOneStep(w, "shrink_axis_mask", [&] { toggleCell(raw, 1, 7); });
    checkOneStep(w, "ellipsis_mask", [&] { toggleCell(raw, 1, 5); });
    QVERIFY(tableShowsExpression(w));

    // The input: shape, dtype, fill, and a cell.
    checkOneStep(w, "shape", [&] {
        typeInField(w.findChild<QLineEdit*>(QStringLiteral("input0Shape")), QStringLiteral("5, 6"));
    });
    checkOneStep(w, "dtype",
                 [&] { nextItem(w.findChild<QComboBox*>(QStringLiteral("input0DType"))); });
    checkOneStep(w, "fill",
                 [&] { nextItem(w.findChild<QComboBox*>(QStringLiteral("input0Fill"))); });
    QVERIFY(waitSettled(w));
    checkOneStep(w, "cell", [&] {
        TensorModel* in = w.inputView(0)->model();
        QVERIFY(in->setData(in->indexOfFlat(3), QStringLiteral("7"), Qt::EditRole));
    });

    // The op picker, then the editor of each kind of op: slice's table, Paddle's table, a
    // generic op's attribute field, strided_slice's raw table.
    auto* picker = w.findChild<QComboBox*>(QStringLiteral("opPicker"));
    auto pick = [&](const char* op) {
        picker->setFocus();
        const int at = picker->findData(QString::fromLatin1(op));
        QVERIFY(at >= 0);
        // Keyboard: the item before, then Down onto it (activated, as a click would be).
        picker->setCurrentIndex(at - 1);
        QTest::keyClick(picker, Qt::Key_Down);
        QCOMPARE(w.workspace().op, std::string(op));
        QVERIFY(waitSettled(w));
    };
    checkOneStep(w, "op picker: slice", [&] { pick("slice"); });
    checkOneStep(w, "slice size", [&] {
        typeInCell(table(w, QStringLiteral("sliceArgsTable")), 0, 1, QStringLiteral("1"));
    });
    checkOneStep(w, "op picker: paddle_strided_slice", [&] { pick("paddle_strided_slice"); });
    checkOneStep(w, "paddle end", [&] {
        typeInCell(table(w, QStringLiteral("paddleArgsTable")), 0, 2, QStringLiteral("1"));
    });
    checkOneStep(w, "op picker: transpose", [&] { pick("transpose"); });
    checkOneStep(w, "attribute", [&] {
        typeInField(w.findChild<QLineEdit*>(QStringLiteral("attr_perm")), QStringLiteral("[0, 1]"));
    });
    checkOneStep(w, "op picker: strided_slice", [&] { pick("strided_slice"); });
    checkOneStep(w, "strided_slice stride", [&] {
        typeInCell(table(w, QStringLiteral("rawArgsTable")), 0, 2, QStringLiteral("2"));
    });
    QVERIFY(waitSettled(w));

    // Undo walks back exactly, one step per edit; redo walks forward again.
    for (auto it = m_steps.rbegin(); it != m_steps.rend(); ++it) {
        QCOMPARE(w.workspace(), it->second);
        w.undoStack()->undo();
        QCOMPARE(w.workspace(), it->first);
    }
    QVERIFY(!w.undoStack()->canUndo());
    QVERIFY(waitSettled(w));
    for (const auto& [before, after] : m_steps) {
        QCOMPARE(w.workspace(), before);
        w.undoStack()->redo();
        QCOMPARE(w.workspace(), after);
    }
    QVERIFY(!w.undoStack()->canRedo());
    QVERIFY(waitSettled(w));
}

void TestUndo::keystrokesInOneFieldMerge()
{
    MainWindow w;
    w.forgetSession();
    w.setWorkspace(getitemWorkspace({4, 6}, QStringLiteral("x[0]")), QStringLiteral("t"));
    w.show();
    QVERIFY(waitSettled(w));
    const int start = w.undoStack()->index();
    QLineEdit* spec = w.specEditor();
    spec->setFocus();
    spec->end(false);
    QTest::keyClick(spec, Qt::Key_Backspace);
    QTest::keyClicks(spec, QStringLiteral("1]"));
    QCOMPARE(exprOf(w.workspace()), QStringLiteral("x[01]"));
    QCOMPARE(w.undoStack()->index(), start + 1);
    // Typed back to where it was: the merged step changes nothing, so it is no step at all.
    QTest::keyClick(spec, Qt::Key_Backspace);
    QTest::keyClick(spec, Qt::Key_Backspace);
    QTest::keyClick(spec, Qt::Key_BracketRight);
    QCOMPARE(exprOf(w.workspace()), QStringLiteral("x[0]"));
    QCOMPARE(w.undoStack()->index(), start);
    // Another field right after does not merge into the expression's step.
    QTest::keyClick(spec, Qt::Key_Backspace);
    QTest::keyClicks(spec, QStringLiteral(", 1]"));
    typeInField(w.findChild<QLineEdit*>(QStringLiteral("input0Shape")), QStringLiteral("4, 7"));
    QCOMPARE(w.undoStack()->index(), start + 2);
    w.undoStack()->undo();
    QCOMPARE(exprOf(w.workspace()), QStringLiteral("x[0, 1]"));
    QCOMPARE(w.workspace().inputs[0][0].shape, (Shape{4, 6}));
    // Choices are not keystrokes: two dtype picks in a row are two steps.
    auto* dtype = w.findChild<QComboBox*>(QStringLiteral("input0DType"));
    const int before = w.undoStack()->index();
    nextItem(dtype);
    nextItem(dtype);
    QCOMPARE(w.undoStack()->index(), before + 2);
    QVERIFY(waitSettled(w));
}

void TestUndo::openingIsNoUndoStep()
{
    // The rule: opening a lesson or a file starts a fresh history from it, clean (the
    // Save-changes prompt before opening guards the work being closed).
    MainWindow w;
    w.forgetSession();
    w.show();
    w.setWorkspace(getitemWorkspace({4, 6}, QStringLiteral("x[0]")), QStringLiteral("t"));
    QVERIFY(w.undoStack()->canUndo());
    QVERIFY(w.openLesson(QStringLiteral("rows-and-steps")));
    QVERIFY(!w.undoStack()->canUndo());
    QVERIFY(w.undoStack()->isClean());
    QVERIFY(waitSettled(w));

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("w.slicescope.json"));
    Workspace saved = getitemWorkspace({5}, QStringLiteral("x[::-1]"));
    writeWorkspaceFile(path, saved);
    w.setWorkspace(getitemWorkspace({4, 6}, QStringLiteral("x[1]")), QStringLiteral("t"));
    QString error;
    QVERIFY2(w.openFile(path, &error), qPrintable(error));
    QCOMPARE(exprOf(w.workspace()), QStringLiteral("x[::-1]"));
    QVERIFY(!w.undoStack()->canUndo());
    QVERIFY(w.undoStack()->isClean());
    // The first edit after opening is the first step, and undo comes back to the file.
    typeInField(w.specEditor(), QStringLiteral("x[1:]"));
    QCOMPARE(w.undoStack()->count(), 1);
    w.undoStack()->undo();
    QCOMPARE(exprOf(w.workspace()), QStringLiteral("x[::-1]"));
    QVERIFY(w.undoStack()->isClean());
    QVERIFY(waitSettled(w));
}

void TestUndo::undoKeysUndoTheWorkspaceInEveryField_data()
{
    QTest::addColumn<QString>("field");
    // Focus stays in the picker after a pick: Ctrl+Z undid its text, not the switch.
    QTest::newRow("op picker, after picking tile") << "opPicker";
    // An argument field took Ctrl+Z for its own history: it took back "4]" and left "[2,".
    QTest::newRow("tile's multiples") << "attr_multiples";
    QTest::newRow("input shape") << "input0Shape";
    QTest::newRow("expression") << "specEditor";
}

void TestUndo::undoKeysUndoTheWorkspaceInEveryField()
{
    QFETCH(QString, field);
    MainWindow w;
    showForKeys(w);
    if (QTest::currentTestFailed()) return;
    QWidget* typedIn = nullptr;
    if (field == QLatin1String("opPicker") || field == QLatin1String("attr_multiples")) {
        QComboBox* picker = w.opPicker();
        picker->setFocus();
        picker->lineEdit()->selectAll();
        QTest::keyClicks(picker->lineEdit(), QStringLiteral("tile"));
        QTest::keyClick(picker->lineEdit(), Qt::Key_Return);
        QVERIFY(waitSettled(w));
        QCOMPARE(w.workspace().op, std::string("tile"));
        typedIn = picker;
    }
    if (field != QLatin1String("opPicker")) {
        auto* edit = w.findChild<QLineEdit*>(field);
        QVERIFY2(edit, qPrintable(field));
        edit->setFocus();
        edit->end(false);
        QTest::keyClick(edit, Qt::Key_Backspace);
        QTest::keyClick(edit, Qt::Key_Backspace);
        QTest::keyClicks(edit, field == QLatin1String("specEditor") ? QStringLiteral("1]")
                                                                    : QStringLiteral("4]"));
        typedIn = edit;
    }
    QVERIFY(waitSettled(w));
    const int index = w.undoStack()->index();
    QVERIFY(index > 0);
    const Workspace edited = w.workspace();
    w.undoStack()->undo();
    const Workspace undone = w.workspace();
    w.undoStack()->redo();
    QVERIFY(w.workspace() == edited);
    QVERIFY(waitSettled(w));
    // The key, where the user's focus is: the window's undo, exactly one step.
    QCOMPARE(QApplication::focusWidget(), typedIn);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(waitSettled(w));
    QCOMPARE(w.undoStack()->index(), index - 1);
    QVERIFY(w.workspace() == undone);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Z,
                    Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(waitSettled(w));
    QCOMPARE(w.undoStack()->index(), index);
    QVERIFY(w.workspace() == edited);
}

void TestUndo::theModelDocksFieldsKeepTheirOwnUndo()
{
    // The Model dock's filter and value fields are not the workspace: Ctrl+Z there takes back
    // their own typing and leaves the workspace as it is.
    MainWindow w;
    showForKeys(w);
    if (QTest::currentTestFailed()) return;
    auto* spec = w.findChild<QLineEdit*>(QStringLiteral("specEditor"));
    QVERIFY(spec);
    spec->setFocus();
    spec->end(false);
    QTest::keyClick(spec, Qt::Key_Backspace);
    QTest::keyClicks(spec, QStringLiteral("1]"));
    QVERIFY(waitSettled(w));
    const Workspace edited = w.workspace();
    const int index = w.undoStack()->index();
    QVERIFY(index > 0);
    for (const char* name : {"modelFilter", "modelValueText"}) {
        auto* field = w.findChild<QLineEdit*>(QString::fromLatin1(name));
        QVERIFY2(field, name);
        QWidget* dock = field;
        while (dock && !qobject_cast<QDockWidget*>(dock))
            dock = dock->parentWidget();
        QVERIFY2(dock, name);
        dock->show();
        field->setEnabled(true);
        field->setFocus();
        QCOMPARE(QApplication::focusWidget(), field);
        QTest::keyClicks(field, QStringLiteral("ab"));
        QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(waitSettled(w));
        QVERIFY2(field->text().isEmpty(),
                 qPrintable(QString::fromLatin1(name) + ": " + field->text()));
        QCOMPARE(w.undoStack()->index(), index);
        QVERIFY(w.workspace() == edited);
    }
}

QTEST_MAIN(TestUndo)
#include "tst_undo.moc"
