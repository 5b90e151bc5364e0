// SPDX-License-Identifier: GPL-3.0-or-later
// The one reader of typed shapes (protocol/shape_text.h), which `slicescope-cli --shape`, the
// GUI's --shape and its shape field share: "5 6" is (5, 6) everywhere.
#include "app/cli.h"
#include "core/error.h"
#include "protocol/shape_text.h"
#include "protocol_test.h"

#include <QTest>

#include <sstream>

using namespace ss;
using namespace ss::testing;

Q_DECLARE_METATYPE(ss::Shape)

class TestShapeText : public QObject
{
    Q_OBJECT

private slots:
    void reads_data();
    void reads();
    void refuses_data();
    void refuses();
    void cliReadsSpacesAsSeparators();
};

void TestShapeText::reads_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<Shape>("shape");
    QTest::newRow("commas") << "5,6" << Shape{5, 6};
    QTest::newRow("spaces") << "5 6" << Shape{5, 6};
    QTest::newRow("tabs and spaces") << " 5 \t 6  7 " << Shape{5, 6, 7};
    QTest::newRow("comma and spaces") << "5, 6" << Shape{5, 6};
    QTest::newRow("x") << "5x6" << Shape{5, 6};
    QTest::newRow("x with spaces") << "5 x 6" << Shape{5, 6};
    QTest::newRow("times sign") << "5×6" << Shape{5, 6};
    QTest::newRow("tuple") << "(5, 6)" << Shape{5, 6};
    QTest::newRow("list") << "[5,6]" << Shape{5, 6};
    QTest::newRow("one-tuple") << "(5,)" << Shape{5};
    QTest::newRow("trailing comma") << "5," << Shape{5};
    QTest::newRow("zero size") << "0, 3" << Shape{0, 3};
    QTest::newRow("scalar empty") << "" << Shape{};
    QTest::newRow("scalar parens") << "()" << Shape{};
    QTest::newRow("scalar spaces") << "  ( )  " << Shape{};
    QTest::newRow("rank 8") << "1 1 1 1 1 1 1 1" << Shape(8, 1);
}

void TestShapeText::reads()
{
    QFETCH(QString, text);
    QFETCH(Shape, shape);
    QCOMPARE(parseShape(text.toStdString()), shape);
}

void TestShapeText::refuses_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("reason");
    QTest::newRow("negative") << "5,-6"
                              << "negative";
    QTest::newRow("fraction") << "5.5"
                              << "whole numbers";
    QTest::newRow("word") << "five"
                          << "whole numbers";
    QTest::newRow("empty size") << "5,,6"
                                << "missing";
    QTest::newRow("leading comma") << ",5"
                                   << "missing";
    QTest::newRow("unmatched") << "(5, 6"
                               << "unmatched";
    QTest::newRow("mismatched") << "(5, 6]"
                                << "unmatched";
    QTest::newRow("rank 33") << QStringList(33, "1").join(' ') << "rank 0 to 32";
    QTest::newRow("too large") << "99999999999999999999"
                               << "too large";
    // Issue 25: sizes that multiply past int64, a 0 among them or not (NumPy: "array is too big").
    QTest::newRow("overflow with a zero") << "4294967296, 4294967296, 0"
                                          << "multiply past 2^63 - 1 elements";
    QTest::newRow("overflow, zero first") << "0 4611686018427387904 4611686018427387904"
                                          << "multiply past 2^63 - 1 elements";
    QTest::newRow("overflow") << "9223372036854775807, 2"
                              << "multiply past 2^63 - 1 elements";
}

void TestShapeText::refuses()
{
    QFETCH(QString, text);
    QFETCH(QString, reason);
    try {
        parseShape(text.toStdString());
        QFAIL("accepted");
    } catch (const OpError& e) {
        QCOMPARE(e.code(), ErrorCode::BadRequest);
        QVERIFY2(QString::fromUtf8(e.what()).contains(reason), e.what());
    }
}

void TestShapeText::cliReadsSpacesAsSeparators()
{
    // `slicescope --shape "5 6"` reads (5, 6); so does the CLI (it used to read (56,)).
    std::istringstream in;
    std::ostringstream out, err;
    const int exit =
        runCli({"eval", "--json", "--shape", "5 6", "x[0]"}, in, out, err, CliEnvironment{});
    QCOMPARE(exit, 0);
    const Json r = parseJson(out.str());
    QCOMPARE(compact(*r.find("outputs")->toArray().front().find("shape")), std::string("[6]"));
    std::ostringstream out2, err2;
    QCOMPARE(runCli({"eval", "--shape", "5,,6", "x[0]"}, in, out2, err2, CliEnvironment{}), 2);
    QVERIFY2(err2.str().find("--shape") != std::string::npos, err2.str().c_str());
    // An overflowing shape with a 0 is refused by the CLI too, with the reason (issue 25).
    std::ostringstream out3, err3;
    QCOMPARE(runCli({"eval", "--shape", "4294967296,4294967296,0", "x[::-1]"}, in, out3, err3,
                    CliEnvironment{}),
             2);
    QVERIFY2(err3.str().find("multiply past 2^63 - 1 elements") != std::string::npos,
             err3.str().c_str());
}

QTEST_GUILESS_MAIN(TestShapeText)
#include "tst_shape_text.moc"
