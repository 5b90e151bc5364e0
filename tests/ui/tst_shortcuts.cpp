// SPDX-License-Identifier: GPL-3.0-or-later
// The keys tables say what the actions do: ui/README.md's keys table and the Keyboard Shortcuts
// dialog list exactly the keys the window's actions and shortcuts answer to, no more, no fewer.
#include "ui/workbench/shortcuttable.h"
#include "workbench_testing.h"

#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

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
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
            text = box->text();
            box->accept();
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
};

QTEST_MAIN(TestShortcuts)
#include "tst_shortcuts.moc"
