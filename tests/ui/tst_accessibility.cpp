// SPDX-License-Identifier: GPL-3.0-or-later
// Every widget a person can operate has a stable objectName (for tests) and a non-empty
// accessible name (for screen readers), whichever op editor and views are on screen.
#include "ui/lessons.h"
#include "ui/mainwindow.h"
#include "workbench_testing.h"

#include <QAbstractButton>
#include <QAccessible>
#include <QComboBox>
#include <QTest>

using namespace ss;
using namespace ss::ui;
using ss::testing::waitSettled;

namespace {

// Widgets a person can focus or click. Qt's own parts of composite widgets (a spin box's line
// edit, a dock's close button) are named "qt_..." and reached through their owner.
bool isInteractive(const QWidget* w)
{
    if (w->objectName().startsWith(QLatin1String("qt_"))) return false;
    return w->focusPolicy() != Qt::NoFocus || qobject_cast<const QAbstractButton*>(w) ||
           qobject_cast<const QComboBox*>(w);
}

QString accessibleName(QWidget* w)
{
    QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(w);
    return iface ? iface->text(QAccessible::Name) : QString();
}

} // namespace

class TestAccessibility : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { ss::testing::useCleanTestEnvironment(); }
    void everyInteractiveWidgetIsNamed_data();
    void everyInteractiveWidgetIsNamed();
};

void TestAccessibility::everyInteractiveWidgetIsNamed_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("op");
    QTest::newRow("getitem") << "walkthrough"
                             << "";
    QTest::newRow("strided_slice") << "raw-negative-stride"
                                   << "";
    QTest::newRow("paddle") << "paddle-case-1"
                            << "";
    QTest::newRow("slice") << ""
                           << "slice";
    QTest::newRow("strided_slice_grad") << ""
                                        << "strided_slice_grad";
    QTest::newRow("generic editor") << ""
                                    << "transpose";
    QTest::newRow("list inputs") << ""
                                 << "concat";
    QTest::newRow("several outputs") << ""
                                     << "split";
}

void TestAccessibility::everyInteractiveWidgetIsNamed()
{
    QFETCH(QString, lesson);
    QFETCH(QString, op);
    MainWindow w;
    if (!lesson.isEmpty()) {
        QVERIFY(w.openLesson(lesson));
    } else {
        const OpDef* def = findOp(op.toStdString());
        QVERIFY2(def, qPrintable(op));
        w.setWorkspace(switchOp(w.workspace(), *def, opTemplate(def->name)),
                       QStringLiteral("test"));
    }
    w.show();
    QVERIFY(waitSettled(w));
    QStringList unnamed;
    int checked = 0;
    for (QWidget* widget : w.findChildren<QWidget*>()) {
        if (!widget->isVisibleTo(&w) || !isInteractive(widget)) continue;
        ++checked;
        const QString id =
            widget->objectName().isEmpty()
                ? QStringLiteral("<%1 without objectName>").arg(widget->metaObject()->className())
                : widget->objectName();
        if (widget->objectName().isEmpty())
            unnamed << id;
        else if (accessibleName(widget).trimmed().isEmpty())
            unnamed << id + QStringLiteral(" (no accessible name)");
    }
    QVERIFY(checked > 15);
    QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(QStringLiteral(", "))));
}

QTEST_MAIN(TestAccessibility)
#include "tst_accessibility.moc"
