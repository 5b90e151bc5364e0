// SPDX-License-Identifier: GPL-3.0-or-later
// The registry as the core alone has it. This suite links slicescope_core and nothing else, so
// it also proves that the core does not need the frameworks library (issue 21: ops/compare.cpp
// used to pull the frameworks into the core, and the frameworks call back into it): the compare
// op is not here, and a library above the core adds its ops only before they are listed.
#include "core/op.h"
#include "core/op_registry.h"

#include <QTest>

#include <stdexcept>

using namespace ss;

namespace {

std::vector<OpDef> lateOps()
{
    return {};
}

} // namespace

class TestOpRegistry : public QObject
{
    Q_OBJECT

private slots:
    void coreOps_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("listed");
        QTest::newRow("strided_slice") << "strided_slice" << true;
        QTest::newRow("alias pack") << "pack" << true;
        QTest::newRow("onnx_slice") << "onnx_slice" << true;
        QTest::newRow("sequence_mask") << "sequence_mask" << true;
        // The frameworks library's op: only a program that links that library has it.
        QTest::newRow("compare") << "compare" << false;
    }
    void coreOps()
    {
        QFETCH(QString, name);
        QFETCH(bool, listed);
        QCOMPARE(findOp(name.toStdString()) != nullptr, listed);
    }

    void firstOpIsStridedSlice() { QCOMPARE(allOps().front().name, std::string("strided_slice")); }

    // The list allOps() handed out cannot grow under its callers' feet.
    void registeringAfterListingThrows()
    {
        const std::size_t count = allOps().size();
        QVERIFY_THROWS_EXCEPTION(std::logic_error, registerOps(lateOps));
        QCOMPARE(allOps().size(), count);
    }
};

QTEST_APPLESS_MAIN(TestOpRegistry)
#include "tst_op_registry.moc"
