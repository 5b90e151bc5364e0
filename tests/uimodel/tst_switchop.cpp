// SPDX-License-Identifier: GPL-3.0-or-later
// Switching ops carries a slice spec between the subscript and the raw strided_slice arguments;
// TFLite's offset, which changes what the ends mean, stops that.
#include "core/op.h"
#include "ui/model/workspace.h"

#include <QTest>

using namespace ss;
using namespace ss::ui;

class TestSwitchOp : public QObject
{
    Q_OBJECT
private slots:
    void specCarriesOver_data()
    {
        QTest::addColumn<QVariant>("offset"); // invalid: attribute absent
        QTest::addColumn<bool>("carried");
        QTest::newRow("no offset") << QVariant() << true;
        QTest::newRow("offset false") << QVariant(false) << true;
        QTest::newRow("offset true") << QVariant(true) << false;
    }
    void specCarriesOver()
    {
        QFETCH(QVariant, offset);
        QFETCH(bool, carried);
        const OpDef& raw = *findOp("strided_slice");
        const OpDef& getitem = *findOp("getitem");
        Workspace ws = exampleWorkspace(raw); // begin [1, 0], end [3, 0], strides [1, -1], masks 2
        if (offset.isValid()) ws.attrs["offset"] = Attr(offset.toBool());
        const Workspace sub = switchOp(ws, getitem);
        const Workspace example = exampleWorkspace(getitem);
        QCOMPARE(sub.attrs.at("expr").toString(),
                 carried ? std::string("x[1:3, ::-1]") : example.attrs.at("expr").toString());
        // Same notation, an op without offset: the spec, without the attribute it does not have.
        const Workspace toExpr = switchOp(ws, *findOp("to_expr"));
        QCOMPARE(toExpr.attrs.count("offset"), std::size_t(0));
        QCOMPARE(toExpr.attrs.count("begin_mask"), std::size_t(1));
        // And back: the subscript becomes the raw arguments again.
        const Workspace back = switchOp(sub, raw);
        QCOMPARE(back.attrs.count("offset"), std::size_t(0));
        if (carried) QCOMPARE(back.attrs.at("end_mask").toInt(), std::int64_t(2));
    }
};

QTEST_APPLESS_MAIN(TestSwitchOp)
#include "tst_switchop.moc"
