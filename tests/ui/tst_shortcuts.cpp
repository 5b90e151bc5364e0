// SPDX-License-Identifier: GPL-3.0-or-later
// The keys tables say what the actions do: ui/README.md's keys table and the Keyboard Shortcuts
// dialog list exactly the keys the window's actions and shortcuts answer to, no more, no fewer.
// Every Alt key and menu letter reaches one thing: two items of a menu with the same underlined
// letter only take turns being highlighted (Alt+F, O never opened File > Open), and a label's
// Alt key that is also a menu's takes the menu's place (Alt+E went to the expression, not Edit).
#include "ui/workbench/comparemode.h"
#include "ui/workbench/exportdialog.h"
#include "ui/workbench/filecommands.h"
#include "ui/workbench/shortcuttable.h"
#include "ui/workbench/workspacedocument.h"
#include "workbench_testing.h"

#include <QAbstractButton>
#include <QDockWidget>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTest>

using namespace ss;
using namespace ss::ui;

namespace {

// Every key with a modifier ("Ctrl+Shift+L", "Ctrl+.", "Alt+Home") or a function key in `text`.
QSet<QString> keysIn(const QString& text)
{
    static const QRegularExpression key(
        QStringLiteral(R"((?:(?:Ctrl|Alt|Shift|Meta)\+)+(?:[A-Za-z0-9]+|[.,;/])|\bF\d+\b)"));
    QSet<QString> keys;
    for (const QRegularExpressionMatch& m : key.globalMatch(text))
        keys << m.captured();
    return keys;
}

// The first column of the table under "## Keys".
QString readmeKeysColumn()
{
    QFile file(qEnvironmentVariable("SLICESCOPE_SOURCE_DIR") + QStringLiteral("/ui/README.md"));
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QString text = QString::fromUtf8(file.readAll());
    const qsizetype start = text.indexOf(QLatin1String("\n## Keys\n"));
    if (start < 0) return {};
    const qsizetype end = text.indexOf(QLatin1String("\n## "), start + 1);
    QStringList cells;
    for (const QString& line : text.mid(start, end - start).split(u'\n'))
        if (line.startsWith(QLatin1String("| ")) && !line.startsWith(QLatin1String("| keys")))
            cells << line.section(u'|', 1, 1);
    return cells.join(u'\n');
}

// Help > Keyboard Shortcuts, read and closed.
QString dialogText(MainWindow& window)
{
    QString text;
    QTimer::singleShot(0, &window, [&text] {
        if (auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget())) {
            if (auto* table = dialog->findChild<QTextBrowser*>(QStringLiteral("shortcutTable")))
                text = table->toPlainText();
            dialog->accept();
        }
    });
    window.findChild<QAction*>(QStringLiteral("actionShortcuts"))->trigger();
    return text;
}

QString sorted(const QSet<QString>& keys)
{
    QStringList list(keys.begin(), keys.end());
    list.sort();
    return list.join(QStringLiteral(", "));
}

// The Alt key of a text with an underlined letter ("Save &As…": "Alt+A"), or "".
QString mnemonicOf(const QString& text)
{
    return QKeySequence::mnemonic(text).toString(QKeySequence::PortableText);
}

// "Alt+A: Save As, Export Read-Order Animation" for each key that more than one text underlines.
QStringList clashes(const QStringList& texts)
{
    QMap<QString, QStringList> byKey;
    for (const QString& text : texts)
        if (const QString key = mnemonicOf(text); !key.isEmpty())
            byKey[key] << QString(text).remove(u'&');
    QStringList found;
    for (auto it = byKey.cbegin(); it != byKey.cend(); ++it)
        if (it->size() > 1) found << it.key() + QStringLiteral(": ") + it->join(QStringLiteral(", "));
    return found;
}

// The clashes among the items of `menu` and of each of its submenus, named by menu.
QStringList menuClashes(const QMenu& menu)
{
    QStringList texts, found;
    for (const QAction* action : menu.actions()) {
        if (action->isSeparator() || !action->isVisible()) continue;
        texts << action->text();
        if (const QMenu* sub = action->menu()) found += menuClashes(*sub);
    }
    for (const QString& clash : clashes(texts))
        found << menu.title().remove(u'&') + QStringLiteral(" menu: ") + clash;
    return found;
}

// The texts whose underlined letter is an Alt key of the window: the menu bar's titles, the
// labels that lead to a control and the buttons and group boxes of the window and its docks.
QStringList windowMnemonicTexts(MainWindow& window)
{
    QStringList texts;
    for (const QAction* top : window.menuBar()->actions())
        texts << top->text();
    for (const QLabel* label : window.findChildren<QLabel*>())
        if (label->buddy()) texts << label->text();
    for (const QAbstractButton* button : window.findChildren<QAbstractButton*>())
        texts << button->text();
    for (const QGroupBox* box : window.findChildren<QGroupBox*>())
        texts << box->title();
    return texts;
}

// The texts of the buttons and of the buddy labels of the modal dialog that `open` shows, which
// is then closed.
struct DialogTexts
{
    QStringList buttons;
    QStringList labels;
};
DialogTexts modalDialogTexts(const std::function<void()>& open)
{
    // Read as the dialog is shown, before its event loop runs: workbench_testing.h's guard,
    // which answers an unexpected "Save changes?" at its next 100 ms tick, never takes it first.
    struct Reader : QObject
    {
        DialogTexts texts;
        bool eventFilter(QObject* watched, QEvent* event) override
        {
            auto* dialog = qobject_cast<QDialog*>(watched);
            if (event->type() != QEvent::Show || !dialog || !texts.buttons.isEmpty()) return false;
            for (const QAbstractButton* button : dialog->findChildren<QAbstractButton*>())
                texts.buttons << button->text();
            for (const QLabel* label : dialog->findChildren<QLabel*>())
                if (label->buddy()) texts.labels << label->text();
            QTimer::singleShot(0, dialog, &QDialog::reject);
            return false;
        }
    } reader;
    qApp->installEventFilter(&reader);
    open();
    qApp->removeEventFilter(&reader);
    return reader.texts;
}

/// `w` shown and settled, its workspace saved as `file`: where the tests of the dialogs of a
/// window with a file start. Returns what went wrong, or "".
QString showSavedAs(MainWindow& w, const QString& file)
{
    w.forgetSession();
    w.show();
    if (!ss::testing::waitSettled(w)) return QStringLiteral("the window never settled");
    QString error;
    return w.saveFile(file, &error) ? QString() : error;
}

/// Another program's change to `file`: a line added at its end.
bool changeOnDisk(const QString& file)
{
    QFile other(file);
    return other.open(QIODevice::Append) && other.write("\n") == 1;
}

/// Shows the modal dialog that `open` opens and presses Alt and the underlined letter of its
/// button `text` ("Discard") as a keyboard would, once the dialog is the active window. A dialog
/// that the key did not close is rejected after five seconds, so that no test hangs in it.
/// Returns whether the button had a letter to press.
bool pressAltLetter(const QString& text, const std::function<void()>& open)
{
    struct Presser : QObject
    {
        QString text;
        bool pressed = false;
        bool eventFilter(QObject* watched, QEvent* event) override
        {
            auto* dialog = qobject_cast<QDialog*>(watched);
            if (event->type() != QEvent::Show || !dialog || pressed) return false;
            QAbstractButton* button = nullptr;
            for (QAbstractButton* b : dialog->findChildren<QAbstractButton*>())
                if (QString(b->text()).remove(u'&') == text) button = b;
            const QKeySequence key =
                button ? QKeySequence::mnemonic(button->text()) : QKeySequence();
            if (key.isEmpty()) return false;
            pressed = true;
            // Expected: workbench_testing.h's guard, which answers an unexpected "Save changes?"
            // Cancel at its next 100 ms tick, must not beat the button's 100 ms animated click.
            dialog->setObjectName(dialog->objectName() + QStringLiteral("Expected"));
            QTimer::singleShot(0, dialog, [dialog, key] {
                QApplication::setActiveWindow(dialog);
                QTest::keyClick(dialog, key[0].key(), key[0].keyboardModifiers());
            });
            QTimer::singleShot(5000, dialog, &QDialog::reject);
            return false;
        }
    } presser;
    presser.text = text;
    qApp->installEventFilter(&presser);
    open();
    qApp->removeEventFilter(&presser);
    return presser.pressed;
}

} // namespace

class TestShortcuts : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { ss::testing::useCleanTestEnvironment(); }

    void tableListsEveryKey_data()
    {
        QTest::addColumn<QString>("source");
        QTest::newRow("ui/README.md keys table") << QStringLiteral("readme");
        QTest::newRow("Keyboard Shortcuts dialog") << QStringLiteral("dialog");
    }
    void tableListsEveryKey()
    {
        QFETCH(QString, source);
        MainWindow w;
        w.forgetSession();
        const QList<ShortcutRow> rows = shortcutRows(w);
        QSet<QString> actionKeys;
        for (const QAction* action : w.findChildren<QAction*>())
            if (!action->shortcut().isEmpty() && action->shortcutContext() != Qt::WidgetShortcut &&
                action->shortcutContext() != Qt::WidgetWithChildrenShortcut)
                actionKeys << action->shortcut().toString(QKeySequence::PortableText);
        // Every action's key has a row of its own.
        for (const QString& key : actionKeys)
            QVERIFY2(std::any_of(rows.begin(), rows.end(),
                                 [&](const ShortcutRow& row) { return row.keys == key; }),
                     qPrintable(key));
        QSet<QString> expected;
        for (const ShortcutRow& row : rows)
            expected += keysIn(row.keys);
        QVERIFY(expected.contains(actionKeys));
        const QString listed =
            source == QLatin1String("readme") ? readmeKeysColumn() : dialogText(w);
        QVERIFY2(!listed.isEmpty(), "no keys table found");
        QCOMPARE(sorted(keysIn(listed)), sorted(expected));
    }

    // Every dock can be shown and hidden from the menus, with a key of its own (the Model dock had
    // neither: once closed, only opening a model file again brought it back).
    void everyDockHasAMenuToggle()
    {
        MainWindow w;
        w.forgetSession();
        QList<const QAction*> inMenus;
        for (const QAction* top : w.menuBar()->actions())
            if (const QMenu* menu = top->menu())
                for (const QAction* a : menu->actions())
                    inMenus << a;
        const QList<QDockWidget*> docks = w.findChildren<QDockWidget*>();
        QVERIFY(docks.size() >= 5);
        for (QDockWidget* dock : docks) {
            QAction* toggle = dock->toggleViewAction();
            QVERIFY2(inMenus.contains(toggle), qPrintable(dock->objectName()));
            QVERIFY2(!toggle->shortcut().isEmpty(), qPrintable(dock->objectName()));
        }
    }

    void everyMenuLetterOpensOneItem()
    {
        MainWindow w;
        w.forgetSession();
        QStringList found;
        for (const QAction* top : w.menuBar()->actions())
            if (const QMenu* menu = top->menu()) found += menuClashes(*menu);
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QStringLiteral("; "))));
    }

    // Each op's editor has labels and buttons of its own: every one of them is checked against
    // the menu bar and the docks.
    void everyAltKeyReachesOneControl_data()
    {
        QTest::addColumn<QString>("op");
        for (const OpDef& def : allOps())
            QTest::newRow(def.name.c_str()) << QString::fromStdString(def.name);
    }
    void everyAltKeyReachesOneControl()
    {
        QFETCH(QString, op);
        MainWindow w;
        w.forgetSession();
        w.setWorkspace(exampleWorkspace(*findOp(op.toStdString())), QStringLiteral("t"));
        // The first op's editor, replaced, goes with the deferred deletes.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        const QStringList found = clashes(windowMnemonicTexts(w));
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QStringLiteral("; "))));
    }

    // Every button of the window's dialogs has an Alt letter of its own ("Save changes?" had
    // Save, Discard and Cancel without one: Qt's standard buttons take the platform theme's
    // texts, and a desktop without GNOME or KDE underlines nothing).
    void everyDialogButtonHasALetterOfItsOwn_data()
    {
        QTest::addColumn<QString>("dialog");
        for (const char* name : {"Save changes?", "File changed on disk", "Export Image",
                                 "Export Read-Order Animation", "Compare With Actual Output"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }
    void everyDialogButtonHasALetterOfItsOwn()
    {
        QFETCH(QString, dialog);
        MainWindow w;
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("a.slicescope.json"));
        const QString problem = showSavedAs(w, file);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        std::function<void()> open;
        if (dialog == QLatin1String("Save changes?")) {
            w.setWorkspace(exampleWorkspace(*findOp("tile")), QStringLiteral("t"));
            open = [&] { QVERIFY(!w.files()->maybeSave()); };
        } else if (dialog == QLatin1String("File changed on disk")) {
            QVERIFY(changeOnDisk(file));
            open = [&] { QVERIFY(!w.files()->save()); }; // asks every time
        } else if (dialog == QLatin1String("Compare With Actual Output")) {
            open = [&] { w.findChild<CompareMode*>()->choose(); };
        } else {
            open = [&] {
                ExportDialog::run(w, dialog == QLatin1String("Export Image")
                                         ? ExportDialog::Kind::Image
                                         : ExportDialog::Kind::Animation);
            };
        }
        const DialogTexts texts = modalDialogTexts(open);
        QVERIFY2(texts.buttons.size() >= 2, qPrintable(texts.buttons.join(QStringLiteral(", "))));
        for (const QString& text : texts.buttons)
            QVERIFY2(!mnemonicOf(text).isEmpty(), qPrintable(text));
        const QStringList found = clashes(texts.buttons + texts.labels);
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QStringLiteral("; "))));
    }

    // The letter does what the button does, pressed as a keyboard presses it: Alt+D in "Save
    // changes?" discards, Alt+R in "File changed on disk" reloads, the export dialog's Save
    // writes. (Under a window manager that grabs Alt+D and Alt+C for itself, matchbox's default
    // keys, the dialog never sees them.)
    void altLetterPressesTheButton_data()
    {
        QTest::addColumn<QString>("dialog");
        QTest::addColumn<QString>("button");
        QTest::newRow("Save changes?, Discard") << "Save changes?"
                                                << "Discard";
        QTest::newRow("Save changes?, Cancel") << "Save changes?"
                                               << "Cancel";
        QTest::newRow("File changed on disk, Reload") << "File changed on disk"
                                                      << "Reload";
        QTest::newRow("Export Image, Save") << "Export Image"
                                            << "Save";
    }
    void altLetterPressesTheButton()
    {
        QFETCH(QString, dialog);
        QFETCH(QString, button);
        MainWindow w;
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("a.slicescope.json"));
        const QString problem = showSavedAs(w, file);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const Workspace saved = w.workspace();
        w.setWorkspace(exampleWorkspace(*findOp("tile")), QStringLiteral("t"));
        bool answer = false;
        if (dialog == QLatin1String("Save changes?")) {
            QVERIFY(pressAltLetter(button, [&] { answer = w.files()->maybeSave(); }));
            QCOMPARE(answer, button == QLatin1String("Discard")); // Cancel keeps the window
            QVERIFY(w.document()->isModified());
        } else if (dialog == QLatin1String("File changed on disk")) {
            QVERIFY(changeOnDisk(file));
            QVERIFY(pressAltLetter(button, [&] { answer = w.files()->save(); }));
            QVERIFY(w.workspace() == saved); // the file's version, the window's edit gone
        } else {
            const QString picture = dir.filePath(QStringLiteral("out.svg"));
            QVERIFY(pressAltLetter(button, [&] {
                ExportDialog d(w, ExportDialog::Kind::Image);
                d.setPath(picture);
                d.exec();
            }));
            QVERIFY(QFile::exists(picture));
        }
    }
};

QTEST_MAIN(TestShortcuts)
#include "tst_shortcuts.moc"
