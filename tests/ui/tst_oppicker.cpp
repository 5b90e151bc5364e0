// SPDX-License-Identifier: GPL-3.0-or-later
// The op picker: ops grouped under their family (OpDef::family), sorted by name within it, and
// picked by typing: "pad" picks pad, not paddle_strided_slice.
#include "ui/editors/oppicker.h"
#include "workbench_testing.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QLineEdit>
#include <QStandardItemModel>
#include <QTest>

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

class TestOpPicker : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { useCleanTestEnvironment(); }

    void groupedByFamilyAndSorted()
    {
        OpPicker picker;
        QString heading;
        QStringList group;
        QStringList headings;
        int ops = 0;
        const auto checkGroup = [&] {
            QStringList sorted = group;
            sorted.sort();
            QCOMPARE(group, sorted);
        };
        for (int row = 0; row < picker.count(); ++row) {
            const QModelIndex index = picker.model()->index(row, 0);
            if (!(picker.model()->flags(index) & Qt::ItemIsEnabled)) {
                checkGroup();
                group.clear();
                heading = picker.itemText(row);
                headings << heading;
                continue;
            }
            QVERIFY2(!heading.isEmpty(), "an op before the first family heading");
            const OpDef* def = findOp(picker.itemData(row).toString().toStdString());
            QVERIFY(def);
            // The heading is the op's own family, as the registry gives it.
            QCOMPARE(heading.toLower(), QString::fromUtf8(familyName(def->family).data()));
            group << picker.itemText(row);
            ++ops;
        }
        checkGroup();
        QCOMPARE(ops, int(allOps().size()));
        QCOMPARE(int(headings.removeDuplicates()), 0); // no family twice
        QCOMPARE(headings.first(), QStringLiteral("Slicing"));
    }

    void resolve_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("op");
        QTest::newRow("exact beats a longer name") << "pad"
                                                   << "pad";
        QTest::newRow("prefix") << "padd"
                                << "paddle_strided_slice";
        QTest::newRow("any case") << "TILE"
                                  << "tile";
        QTest::newRow("inside the name") << "hot"
                                         << "one_hot";
        QTest::newRow("spaces around") << "  gather "
                                       << "gather";
        QTest::newRow("nothing") << "xyzzy"
                                 << "";
    }
    void resolve()
    {
        QFETCH(QString, typed);
        QFETCH(QString, op);
        QCOMPARE(OpPicker::resolve(typed), op);
    }

    // Typed into the window's picker, as a user does: the list narrows, Enter picks.
    void typingPicksTheOp_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("op");
        QTest::newRow("pad") << "pad"
                             << "pad";
        QTest::newRow("padd") << "padd"
                              << "paddle_strided_slice";
        QTest::newRow("nothing keeps the op") << "xyzzy"
                                              << "getitem";
    }
    void typingPicksTheOp()
    {
        QFETCH(QString, typed);
        QFETCH(QString, op);
        MainWindow w;
        w.forgetSession();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(waitSettled(w));
        QCOMPARE(w.workspace().op, std::string("getitem"));
        auto* picker = w.findChild<QComboBox*>(QStringLiteral("opPicker"));
        QVERIFY(picker);
        QLineEdit* edit = picker->lineEdit();
        QVERIFY2(edit, "the op picker takes typing");
        QApplication::setActiveWindow(&w);
        picker->setFocus();
        edit->selectAll();
        QTest::keyClicks(edit, typed);
        // The list shows only the ops whose names contain the text.
        QCompleter* completer = edit->completer();
        QVERIFY(completer);
        if (op != QLatin1String("getitem")) {
            QVERIFY(completer->completionCount() >= 1);
            for (int k = 0; k < completer->completionCount(); ++k) {
                completer->setCurrentRow(k);
                QVERIFY(completer->currentCompletion().contains(typed, Qt::CaseInsensitive));
            }
            completer->popup()->setCurrentIndex({});
        }
        // Enter goes where a user's key goes: the list while it is open.
        QWidget* target =
            completer->popup()->isVisible() ? static_cast<QWidget*>(completer->popup()) : edit;
        QTest::keyClick(target, Qt::Key_Return);
        QVERIFY(waitSettled(w));
        QCOMPARE(w.workspace().op, op.toStdString());
        QCOMPARE(edit->text(), op);
    }
};

QTEST_MAIN(TestOpPicker)
#include "tst_oppicker.moc"
